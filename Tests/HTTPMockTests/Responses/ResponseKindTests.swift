import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// The kinds of response: status, headers, content type, bodies, failures, delays, dynamic and echo.
@Suite struct ResponseKindTests {
    let url = "https://api.example.com/r"

    @Test func contentTypeReachesTheResponse() async throws {
        let mock = HTTPMock()
        var image = MockResponse(status: .created, headers: ["X-Env": "test"], body: Data([0x89, 0x50]), contentType: "image/png")
        #expect(image.contentType == "image/png")
        try mock.stub(.path("/r"), responses: [image])
        image.contentType = "image/bmp"
        try mock.stub(.path("/r"), responses: [image])
        let first = try await mock.urlSession.fetch(url)
        #expect(first.status == 201)
        #expect(first.header("Content-Type") == "image/png")
        #expect(first.header("X-Env") == "test")
        #expect(try await mock.urlSession.fetch(url).header("Content-Type") == "image/bmp")
    }

    @Test func explicitContentTypeHeaderWinsOverTheFactory() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/r"), responses: [.plaintext("<b>hi</b>", contentType: "text/html", headers: ["content-type": "application/xhtml+xml"])])
        #expect(try await mock.urlSession.fetch(url).header("Content-Type") == "application/xhtml+xml")
    }

    @Test func bodiesFromDataStringEncodableJSONAndFile() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/r")) {
            MockResponse(body: Data("raw".utf8))
            MockResponse.plaintext("<p>html</p>", contentType: "text/html; charset=utf-8")
            MockResponse.encodable(User(id: 7, name: "Eve"))
            MockResponse.dictionary(["ids": [1, 2], "ok": true])
            MockResponse.file(url: fixtures.appendingPathComponent("user.json"))
        }
        #expect(try await mock.urlSession.fetch(url).text == "raw")
        let html = try await mock.urlSession.fetch(url)
        #expect(html.text == "<p>html</p>")
        #expect(html.header("Content-Type") == "text/html; charset=utf-8")
        #expect(try JSONDecoder().decode(User.self, from: Data(try await mock.urlSession.fetch(url).text.utf8)) == User(id: 7, name: "Eve"))
        let json = try await mock.urlSession.fetch(url)
        #expect(json.text == #"{"ids":[1,2],"ok":true}"#)
        #expect(json.header("Content-Type") == "application/json")
        let file = try await mock.urlSession.fetch(url)
        #expect(file.header("Content-Type") == "application/json")
        #expect(file.text == (try String(contentsOf: fixtures.appendingPathComponent("user.json"), encoding: .utf8)))
    }

    @Test func jsonResponseRefusesAValueThatIsNotJSON() {
        let mock = HTTPMock()
        let error = #expect(throws: HTTPMockError.self) { try mock.stub(.path("/r"), responses: [.dictionary(["when": Date()])]) }
        #expect(error?.code == .invalidResponse)
    }

    struct Teapot: Error, Equatable { let reason: String }

    @Test func failuresWithURLErrorAndAnyError() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/r")) {
            MockResponse.failure(URLError(.timedOut))
            MockResponse.failure(Teapot(reason: "short and stout"))
        }
        #expect((await mock.urlSession.failure(url) as? URLError)?.code == .timedOut)
        let error = await mock.urlSession.failure(url)
        #expect(error != nil)
        #if canImport(FoundationNetworking)
        #expect(error as? Teapot == Teapot(reason: "short and stout"))
        #endif
    }

    @Test func delayedResponseArrivesAfterItsDelay() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/r"), responses: [.plaintext("late", delivery: .delayed(0.2))])
        let start = Date()
        #expect(try await mock.urlSession.fetch(url).text == "late")
        #expect(Date().timeIntervalSince(start) >= 0.2)
    }

    @Test func dynamicResponseReadsTheRequestAndCaptures() async throws {
        let mock = HTTPMock()
        try mock.stub(.method(.post), .uriTemplate("https://api.example.com/users/{id}/rename"), responses: [
            .dynamic(lifetime: .eternal) { request, captures in
                .plaintext("user \(captures["id"] ?? "?") is now \(request.bodyText ?? "")", status: .accepted)
            },
        ])
        let reply = try await mock.urlSession.fetch("https://api.example.com/users/12/rename", method: "POST", body: Data("Zoe".utf8))
        #expect(reply.status == 202)
        #expect(reply.text == "user 12 is now Zoe")
        let again = try await mock.urlSession.fetch("https://api.example.com/users/13/rename", method: "POST", body: Data("Al".utf8))
        #expect(again.text == "user 13 is now Al")
    }

    @Test func dynamicResponseMayReadTheJournalAndKeepsItsDelay() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/count"), responses: [
            .dynamic(lifetime: .eternal, delivery: .delayed(0.05)) { [mock] _, _ in .plaintext("\(mock.journal.count)") },
        ])
        #expect(try await mock.urlSession.fetch("https://x.test/count").text == "1")
        #expect(try await mock.urlSession.fetch("https://x.test/count").text == "2")
    }

    @Test func dynamicResponseThatIsInvalidFailsTheRequestNamingTheProblem() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/bad"), responses: [.dynamic { _, _ in .dictionary(["x": Date()]) }])
        let error = await mock.urlSession.failure("https://x.test/bad")
        #expect(error != nil)
        #if canImport(FoundationNetworking)
        #expect((error as? HTTPMockError)?.code == .invalidResponse)
        #endif
    }

    @Test func echoSendsTheBodyBack() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/echo"), responses: [.echo(lifetime: .eternal)])
        let reply = try await mock.urlSession.fetch("https://x.test/echo", method: "PUT", headers: ["Content-Type": "application/json"],
                                                   body: Data(#"{"a":1}"#.utf8))
        #expect(reply.status == 200)
        #expect(reply.text == #"{"a":1}"#)
        #expect(reply.header("Content-Type") == "application/json")
    }

    @Test func echoSendsTheHeadersBackToo() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/echo"), responses: [.echo(headers: ["X-Set": "by stub", "X-Token": "stub wins"])])
        let reply = try await mock.urlSession.fetch("https://x.test/echo", method: "POST",
                                                   headers: ["X-Token": "abc", "Accept": "text/plain"], body: Data("hi".utf8))
        #expect(reply.text == "hi")
        #expect(reply.header("Accept") == "text/plain")
        #expect(reply.header("X-Set") == "by stub")
        #expect(reply.header("X-Token") == "stub wins")
    }
}
