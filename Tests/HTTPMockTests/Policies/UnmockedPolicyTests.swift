import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

@Suite struct UnmockedPolicyTests {
    @Test func notFoundIsTheDefaultAndNamesTheRequest() async throws {
        let mock = HTTPMock()
        let reply = try await mock.urlSession.fetch("https://u.test/missing?x=1")
        #expect(reply.status == 404)
        #expect(reply.text.contains("GET https://u.test/missing?x=1"))
        #expect(reply.text.contains("this mock has no stub"))
    }

    @Test func customMockAnswersEveryUnmockedRequestIgnoringLifetime() async throws {
        let mock = HTTPMock()
        mock.unmockedPolicy = .mock(.plaintext("Service temporarily unavailable", status: .other(503)))
        for _ in 0..<3 {
            let reply = try await mock.urlSession.fetch("https://u.test/any")
            #expect(reply.status == 503)
            #expect(reply.text == "Service temporarily unavailable")
        }
    }

    @Test func customDictionaryResponseWithHeaders() async throws {
        let mock = HTTPMock()
        mock.unmockedPolicy = .mock(
            .dictionary(["error": "endpoint_not_found", "code": 404], status: .notFound, headers: ["X-Error-Source": "HTTPMock"])
        )
        let reply = try await mock.urlSession.fetch("https://u.test/any")
        #expect(reply.status == 404)
        #expect(reply.header("X-Error-Source") == "HTTPMock")
        let object = try JSONSerialization.jsonObject(with: Data(reply.text.utf8)) as? [String: Any]
        #expect(object?["error"] as? String == "endpoint_not_found")
    }

    @Test func delayedCustomResponse() async throws {
        let mock = HTTPMock()
        mock.unmockedPolicy = .mock(.plaintext("Slow response", delivery: .delayed(0.1)))
        #expect(try await mock.urlSession.fetch("https://u.test/any").text == "Slow response")
    }

    @Test func failPolicyBehavesAsOffline() async throws {
        let mock = HTTPMock()
        mock.unmockedPolicy = .fail(URLError(.notConnectedToInternet))
        await #expect {
            _ = try await mock.urlSession.fetch("https://u.test/any")
        } throws: { error in
            (error as? URLError)?.code == .notConnectedToInternet
        }
    }

    @Test func fatalErrorStopsTheProcessNamingTheRequest() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let mock = HTTPMock()
            mock.unmockedPolicy = .fatalError
            _ = try? await mock.urlSession.data(from: URL(string: "https://u.test/strict")!)
        }
        .map { String(decoding: $0.standardErrorContent, as: UTF8.self) }
        .map { #expect($0.contains("https://u.test/strict")) }
    }

    @Test func invalidDictionaryIsRefused() {
        let mock = HTTPMock()
        noteExpectedRefusal("a dictionary that is not JSON")
        mock.addResponses(forPath: "/d", host: "u.test", responses: [.dictionary(["date": Date()])])
        #expect(mock.registrationErrors.first?.code == .invalidResponse)
    }

    @Test func clearQueuesAndClearQueueForHost() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/a", host: "one.test", responses: [.plaintext("1", lifetime: .eternal)])
        mock.addResponses(forPath: "/a", host: "two.test", responses: [.plaintext("2", lifetime: .eternal)])
        mock.clearQueue(forHost: "ONE.test")
        #expect(try await mock.urlSession.fetch("https://one.test/a").status == 404)
        #expect(try await mock.urlSession.fetch("https://two.test/a").text == "2")
        mock.clearQueues()
        #expect(try await mock.urlSession.fetch("https://two.test/a").status == 404)
    }
}
