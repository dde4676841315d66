import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// Redirects followed inside the mock (URLSession cannot follow a URLProtocol's redirect on Linux).
@Suite struct RedirectsTests {
    @Test func redirectIsFollowedAndTheFinalURLIsReported() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/old", host: "example.com", responses: [.redirect(to: "/new", status: .movedPermanently)])
        mock.addResponses(forPath: "/new", host: "example.com", responses: [.plaintext("new place")])
        let reply = try await mock.urlSession.fetch("https://example.com/old")
        #expect(reply.status == 200)
        #expect(reply.text == "new place")
        #expect(reply.url?.absoluteString == "https://example.com/new")
        #expect(mock.journal.map(\.statusCode) == [301, 200])
        #expect(mock.requests.map(\.url.absoluteString) == ["https://example.com/old", "https://example.com/new"])
    }

    @Test func chainAcrossHostsWithAbsoluteLocations() async throws {
        let mock = HTTPMock()
        try mock.stub(.url("https://a.test/1"), responses: [.redirect(to: "https://b.test/2", status: .temporaryRedirect)])
        try mock.stub(.url("https://b.test/2"), responses: [.redirect(to: "../3?x=1", status: .permanentRedirect)])
        try mock.stub(.url("https://b.test/3", options: .ignoreQuery), responses: [.echo()])
        let reply = try await mock.urlSession.fetch("https://a.test/1", method: "PUT", body: Data("kept".utf8))
        #expect(reply.text == "kept")
        #expect(reply.url?.absoluteString == "https://b.test/3?x=1")
        #expect(mock.requests.map(\.method) == ["PUT", "PUT", "PUT"])
    }

    @Test func seeOtherAndPostRedirectsContinueAsGetWithoutBody() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/form"), .method(.post), responses: [
            .redirect(to: "/done", status: .seeOther),
            .redirect(to: "/done", status: .found),
        ])
        try mock.stub(.path("/done"), .method(.get), responses: [.dynamic(lifetime: .eternal) { request, _ in
            .plaintext("GET body=\(request.body.map { String(decoding: $0, as: UTF8.self) } ?? "none")")
        }])
        #expect(try await mock.urlSession.fetch("https://x.test/form", method: "POST", body: Data("a=1".utf8)).text == "GET body=none")
        #expect(try await mock.urlSession.fetch("https://x.test/form", method: "POST", body: Data("a=1".utf8)).text == "GET body=none")
    }

    @Test func loopFailsWithTooManyRedirects() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/a"), responses: [.redirect(to: "/b", lifetime: .eternal)])
        try mock.stub(.path("/b"), responses: [.redirect(to: "/a", lifetime: .eternal)])
        let error = await mock.urlSession.failure("https://x.test/a")
        #expect((error as? URLError)?.code == .httpTooManyRedirects)
        #expect(mock.journal.count == 11)
    }

    @Test func limitIsConfigurable() async throws {
        let mock = HTTPMock()
        mock.maximumRedirects = 1
        try mock.stub(.path("/1"), responses: [.redirect(to: "/2")])
        try mock.stub(.path("/2"), responses: [.redirect(to: "/3")])
        try mock.stub(.path("/3"), responses: [.plaintext("three")])
        #expect((await mock.urlSession.failure("https://x.test/1") as? URLError)?.code == .httpTooManyRedirects)
    }

    @Test func followingCanBeTurnedOffPerResponseAndPerMock() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/stay"), responses: [.redirect(to: "/elsewhere", follow: false)])
        let stay = try await mock.urlSession.fetch("https://x.test/stay")
        #expect(stay.status == 302)
        #expect(stay.header("Location") == "/elsewhere")
        mock.followsRedirects = false
        try mock.stub(.path("/go"), responses: [.redirect(to: "/elsewhere", status: .seeOther)])
        #expect(try await mock.urlSession.fetch("https://x.test/go").status == 303)
        #expect(mock.journal.count == 2)
    }

    @Test func aRedirectToAnUnmockedURLGetsTheUnmockedPolicy() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/a"), responses: [.redirect(to: "/nowhere")])
        let reply = try await mock.urlSession.fetch("https://x.test/a")
        #expect(reply.status == 404)
        #expect(reply.url?.absoluteString == "https://x.test/nowhere")
    }

    @Test func delaysOfEveryHopAddUpAgainstTheTimeout() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/slow"), responses: [.redirect(to: "/slower", delivery: .delayed(0.3))])
        try mock.stub(.path("/slower"), responses: [.plaintext("finally", delivery: .delayed(0.3))])
        var request = URLRequest(url: URL(string: "https://x.test/slow")!)
        request.timeoutInterval = 0.5
        await #expect(throws: URLError.self) { _ = try await mock.urlSession.data(for: request) }
        #expect(mock.journal.map(\.statusCode) == [302, nil])
    }

    @Test func dynamicResponseCanRedirect() async throws {
        let mock = HTTPMock()
        try mock.stub(.uriTemplate("/short/{code}"), responses: [.dynamic { _, captures in .redirect(to: "/long/\(captures["code"]!)") }])
        try mock.stub(.uriTemplate("/long/{code}"), responses: [.dynamic { _, captures in .plaintext("long \(captures["code"]!)") }])
        let reply = try await mock.urlSession.fetch("https://x.test/short/ab")
        #expect(reply.text == "long ab")
        #expect(reply.url?.path == "/long/ab")
    }

    @Test func redirectFactoryRefusesANonRedirectStatus() {
        let mock = HTTPMock()
        let error = #expect(throws: HTTPMockError.self) { try mock.stub(.path("/a"), responses: [.redirect(to: "/b", status: .ok)]) }
        #expect(error?.message.contains("3xx") == true)
    }
}
