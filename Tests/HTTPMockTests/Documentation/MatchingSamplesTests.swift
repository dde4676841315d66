import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// The samples of the Matching Requests article, run against a real mock.
@Suite struct MatchingSamplesTests {
    struct HasAPIKey: RequestMatcher {
        let key: String
        func matches(_ request: CapturedRequest) -> Bool { request.queryValues(for: "key") == [key] }
        var matcherDescription: String { "key=\(key)" }
    }

    @Test func combined() async throws {
        let mock = HTTPMock()
        try mock.stub(.method(.post), .host("api.example.com"), .path("/orders"), .jsonContaining(["item": "book"]),
                      responses: [.plaintext("ordered", status: .created)])
        #expect(try await mock.urlSession.fetch("https://api.example.com/orders", method: "POST", body: Data(#"{"item":"pen"}"#.utf8)).status == 404)
        let reply = try await mock.urlSession.fetch("https://api.example.com/orders", method: "POST", body: Data(#"{"item":"book","n":1}"#.utf8))
        #expect(reply.status == 201)
        #expect(reply.text == "ordered")
    }

    @Test func inTheTree() async throws {
        let mock = HTTPMock()
        try mock.register {
            Host("api.example.com") {
                Match.header("Authorization")
                Path("/profile") { MockResponse.plaintext("signed in") }
            }
        }
        #expect(try await mock.urlSession.fetch("https://api.example.com/profile").status == 404)
        var request = URLRequest(url: URL(string: "https://api.example.com/profile")!)
        request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        let (data, _) = try await mock.urlSession.data(for: request)
        #expect(String(decoding: data, as: UTF8.self) == "signed in")
    }

    @Test func specificity() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/users/*", host: "api.example.com", responses: [.plaintext("someone", lifetime: .eternal)])
        mock.addResponses(forPath: "/users/me", host: "api.example.com", responses: [.plaintext("me", lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch("https://api.example.com/users/me").text == "me")
        #expect(try await mock.urlSession.fetch("https://api.example.com/users/42").text == "someone")
    }

    @Test func customClosure() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/feed"), .custom("beta client") { $0.headers["X-Beta"] == "1" },
                      responses: [.plaintext("beta feed")])
        #expect(try await mock.urlSession.fetch("https://api.example.com/feed").status == 404)
        #expect(mock.journal.last?.report?.description.contains("beta client") == true)
        var request = URLRequest(url: URL(string: "https://api.example.com/feed")!)
        request.setValue("1", forHTTPHeaderField: "X-Beta")
        let (data, _) = try await mock.urlSession.data(for: request)
        #expect(String(decoding: data, as: UTF8.self) == "beta feed")
    }

    @Test func customType() async throws {
        let mock = HTTPMock()
        try mock.stub(.host("api.example.com"), .custom(HasAPIKey(key: "secret")), responses: [.plaintext("ok")])
        #expect(try await mock.urlSession.fetch("https://api.example.com/a?key=wrong").status == 404)
        #expect(try await mock.urlSession.fetch("https://api.example.com/a?key=secret").text == "ok")
    }
}
