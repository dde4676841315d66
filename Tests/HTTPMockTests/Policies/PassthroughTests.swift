import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// Passthrough, with a second mock standing in for the real network (there is none here).
@Suite struct PassthroughTests {
    @Test func unmockedRequestsPassThroughToTheGivenSession() async throws {
        let upstream = HTTPMock()
        upstream.addResponses(forPath: "/real", host: "p.test", method: .post, responses: [
            .plaintext("from upstream", status: .accepted, headers: ["X-Upstream": "yes"]),
        ])
        let mock = HTTPMock(passthroughSession: upstream.urlSession)
        mock.unmockedPolicy = .passthrough
        mock.addResponses(forPath: "/mocked", host: "p.test", responses: [.plaintext("mocked")])

        #expect(try await mock.urlSession.fetch("https://p.test/mocked").text == "mocked")
        let reply = try await mock.urlSession.fetch("https://p.test/real", method: "POST", body: Data("payload".utf8))
        #expect(reply.status == 202)
        #expect(reply.text == "from upstream")
        #expect(reply.header("X-Upstream") == "yes")
        #expect(upstream.requests.first?.bodyText == "payload")
        #expect(mock.journal.last?.resolution == .passedThrough)
    }

    @Test func upstreamErrorsReachTheCaller() async throws {
        let upstream = HTTPMock()
        upstream.unmockedPolicy = .fail(URLError(.cannotConnectToHost))
        let mock = HTTPMock(passthroughSession: upstream.urlSession)
        mock.unmockedPolicy = .passthrough
        await #expect {
            _ = try await mock.urlSession.fetch("https://p.test/down")
        } throws: { error in
            (error as? URLError)?.code == .cannotConnectToHost
        }
    }

    struct UpstreamFailure: Error, Equatable { let reason: String }

    @Test func anUpstreamErrorReachesTheCallerAsItself() async throws {
        let upstream = HTTPMock()
        upstream.unmockedPolicy = .fail(UpstreamFailure(reason: "custom"))
        let mock = HTTPMock(passthroughSession: upstream.urlSession)
        mock.unmockedPolicy = .passthrough
        await #expect(throws: UpstreamFailure(reason: "custom")) {
            _ = try await mock.urlSession.fetch("https://p.test/custom")
        }
    }

    @Test func slowUpstreamCanBeCancelled() async throws {
        let upstream = HTTPMock()
        upstream.unmockedPolicy = .mock(.plaintext("slow", delivery: .delayed(5)))
        let mock = HTTPMock(passthroughSession: upstream.urlSession)
        mock.unmockedPolicy = .passthrough
        let code = await withCheckedContinuation { (continuation: CheckedContinuation<URLError.Code?, Never>) in
            let task = mock.urlSession.dataTask(with: URL(string: "https://p.test/slow")!) { _, _, error in
                continuation.resume(returning: (error as? URLError)?.code)
            }
            task.resume()
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { task.cancel() }
        }
        #expect(code == .cancelled)
    }
}
