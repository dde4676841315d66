import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// The samples of the Building Responses article, run against a real mock.
@Suite struct BuildingResponsesSamplesTests {
    @Test func bodies() async throws {
        let mock = HTTPMock()
        let pngData = Data([0x89, 0x50, 0x4E, 0x47])
        let fixtureURL = fixtures.appendingPathComponent("user.json")
        mock.addResponses(forPath: "/kinds", host: "api.example.com") {
            MockResponse(status: .created, headers: ["X-Env": "test"], body: pngData, contentType: "image/png")
            MockResponse.plaintext("hello")
            MockResponse.plaintext("<h1>Hi</h1>", contentType: "text/html; charset=utf-8")
            MockResponse.dictionary(["ids": [1, 2], "ok": true])
            MockResponse.encodable(User(id: 1, name: "Alice"))
            MockResponse.file(url: fixtureURL)
            MockResponse.empty(status: .noContent)
        }
        let url = "https://api.example.com/kinds"
        let png = try await mock.urlSession.fetch(url)
        #expect(png.status == 201)
        #expect(png.header("Content-Type") == "image/png")
        #expect(png.header("X-Env") == "test")
        #expect(try await mock.urlSession.fetch(url).header("Content-Type") == "text/plain; charset=utf-8")
        #expect(try await mock.urlSession.fetch(url).header("Content-Type") == "text/html; charset=utf-8")
        #expect(try await mock.urlSession.fetch(url).text == #"{"ids":[1,2],"ok":true}"#)
        let user = try await mock.urlSession.fetch(url)
        #expect(try JSONDecoder().decode(User.self, from: Data(user.text.utf8)) == User(id: 1, name: "Alice"))
        #expect(try await mock.urlSession.fetch(url).header("Content-Type") == "application/json")
        #expect(try await mock.urlSession.fetch(url).status == 204)

        var custom = MockResponse.plaintext("x", headers: ["Content-Type": "text/csv"])
        #expect(custom.contentType == "text/csv")
        custom.contentType = "text/markdown"
        #expect(custom.contentType == "text/markdown")
    }

    @Test func delays() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/slow", host: "api.example.com") {
            MockResponse.plaintext("slow", delivery: .delayed(0.2))
            MockResponse(body: Data(count: 1_024), delivery: .throttled(bytesPerSecond: 4_096, headersAfter: 0.1))
        }
        var start = Date()
        #expect(try await mock.urlSession.fetch("https://api.example.com/slow").text == "slow")
        #expect(Date().timeIntervalSince(start) >= 0.15)
        start = Date()
        let (data, _) = try await mock.urlSession.data(from: URL(string: "https://api.example.com/slow")!)
        #expect(data.count == 1_024)
        #expect(Date().timeIntervalSince(start) >= 0.3)
    }

    @Test func timeout() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/stuck", host: "api.example.com") {
            MockResponse.plaintext("too late", delivery: .delayed(5))
        }
        var request = URLRequest(url: URL(string: "https://api.example.com/stuck")!)
        request.timeoutInterval = 0.2
        await #expect(throws: URLError.self) { try await mock.urlSession.data(for: request) }
        #expect((mock.journal.last?.error as? URLError)?.code == .timedOut)
    }

    @Test func faults() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/feed", host: "api.example.com") {
            MockResponse.failure(URLError(.notConnectedToInternet))
            MockResponse.fault(.connectionLost)
            MockResponse.fault(.truncatedBody(MockResponse.plaintext(String(repeating: "x", count: 500)), after: 100))
            MockResponse.plaintext("finally")
        }
        let url = "https://api.example.com/feed"
        #expect((await mock.urlSession.failure(url) as? URLError)?.code == .notConnectedToInternet)
        #expect((await mock.urlSession.failure(url) as? URLError)?.code == .networkConnectionLost)
        #expect((await mock.urlSession.failure(url) as? URLError)?.code == .networkConnectionLost)
        #expect(try await mock.urlSession.fetch(url).text == "finally")
    }

    @Test func dynamic() async throws {
        let mock = HTTPMock()
        try mock.stub(.method(.post), .uriTemplate("/users/{id}/rename"), responses: [
            .dynamic(lifetime: .eternal) { request, captures in
                .plaintext("user \(captures["id"]!) is now \(request.bodyText ?? "")", status: .accepted)
            },
        ])
        let reply = try await mock.urlSession.fetch("https://api.example.com/users/7/rename", method: "POST", body: Data("Ann".utf8))
        #expect(reply.status == 202)
        #expect(reply.text == "user 7 is now Ann")
    }

    @Test func echo() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/echo"), responses: [.echo(lifetime: .eternal)])
        let reply = try await mock.urlSession.fetch("https://api.example.com/echo", method: "POST",
                                                    headers: ["X-Trace": "t1"], body: Data("ping".utf8))
        #expect(reply.text == "ping")
        #expect(reply.header("X-Trace") == "t1")
        #expect(reply.header("Content-Type") == "application/octet-stream")
    }

    @Test func redirects() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/old", host: "example.com", responses: [.redirect(to: "/new", status: .movedPermanently)])
        mock.addResponses(forPath: "/new", host: "example.com", responses: [.plaintext("here")])
        let reply = try await mock.urlSession.fetch("https://example.com/old")
        #expect(reply.text == "here")
        #expect(reply.url?.path == "/new")
        #expect(mock.journal.count == 2)
    }

    @Test func cookies() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/login"), responses: [.redirect(to: "/home", status: .seeOther, headers: ["Set-Cookie": "session=abc; Path=/"])])
        try mock.stub(.path("/home"), .header("Cookie", "session=abc"), responses: [.plaintext("welcome")])
        let reply = try await mock.urlSession.fetch("https://app.example.com/login", method: "POST")
        #expect(reply.text == "welcome")
    }
}
