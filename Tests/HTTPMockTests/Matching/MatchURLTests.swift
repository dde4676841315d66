import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// URL regular expressions, URL equality with options, host and path matchers (the URL matchers of `Match`).
@Suite struct MatchURLTests {
    @Test func urlRegexMatchesAnyHostAndRefusesOthers() async throws {
        let mock = HTTPMock()
        try mock.stub(.urlRegex(#"^https://www\.google\.com/.+"#), responses: [.plaintext("google", lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch("https://www.google.com/search?q=x").text == "google")
        #expect(try await mock.urlSession.fetch("https://www.google.com/maps").text == "google")
        #expect(try await mock.urlSession.fetch("https://www.google.com/").status == 404)
        #expect(try await mock.urlSession.fetch("https://www.bing.com/search").status == 404)
    }

    @Test func invalidRegexIsRefusedNamingIt() throws {
        let mock = HTTPMock()
        let error = #expect(throws: HTTPMockError.self) {
            try mock.stub(.urlRegex("https://([a-z"), responses: [.plaintext("never")])
        }
        #expect(error?.code == .invalidPattern)
        #expect(error?.message.contains("https://([a-z") == true)
        #expect(error?.message.contains("URL regular expression") == true)
    }

    @Test func emptyRegexIsRefusedRatherThanMatchingEverything() throws {
        let mock = HTTPMock()
        let error = #expect(throws: HTTPMockError.self) { try mock.stub(.urlRegex(""), responses: [.plaintext("x")]) }
        #expect(error?.message.contains("match everything") == true)
    }

    @Test func regexStubLosesToAMoreSpecificRoute() async throws {
        let mock = HTTPMock()
        try mock.stub(.urlRegex("example"), responses: [.plaintext("regex", lifetime: .eternal)])
        mock.addResponses(forPath: "/exact", host: "api.example.com", responses: [.plaintext("exact")])
        #expect(try await mock.urlSession.fetch("https://api.example.com/exact").text == "exact")
        #expect(try await mock.urlSession.fetch("https://api.example.com/exact").text == "regex")
        #expect(try await mock.urlSession.fetch("https://api.example.com/other").text == "regex")
    }

    @Test func urlEqualityWithIgnoreQuery() async throws {
        let mock = HTTPMock()
        try mock.stub(.url("http://myws.com/login", options: [.ignoreQuery]), responses: [.plaintext("login", lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch("http://myws.com/login?username=xxxx").text == "login")
        #expect(try await mock.urlSession.fetch("http://myws.com/login?username=yyyy&lock=1").text == "login")
        #expect(try await mock.urlSession.fetch("http://myws.com/login/").text == "login")
        #expect(try await mock.urlSession.fetch("http://myws.com/logout").status == 404)
        #expect(try await mock.urlSession.fetch("https://myws.com/login").status == 404)
    }

    @Test func urlEqualityComparesQueryInAnyOrder() async throws {
        let mock = HTTPMock()
        try mock.stub(.url("https://example.com/a?x=1&y=2"), responses: [.plaintext("a", lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch("https://example.com/a?y=2&x=1").text == "a")
        #expect(try await mock.urlSession.fetch("https://example.com/a?x=1").status == 404)
        #expect(try await mock.urlSession.fetch("https://example.com/a?x=1&y=2&z=3").status == 404)
    }

    @Test func urlEqualityWithIgnorePathSchemeAndPort() async throws {
        let mock = HTTPMock()
        try mock.stub(.url("http://www.apple.com:8080", options: [.ignorePath, .ignoreQuery, .ignoreScheme, .ignorePort]),
                      responses: [.plaintext("apple", lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch("https://www.apple.com/mac?x=1").text == "apple")
        #expect(try await mock.urlSession.fetch("http://www.apple.com:9000/").text == "apple")
        #expect(try await mock.urlSession.fetch("https://apple.com/").status == 404)
    }

    @Test func urlEqualityTreatsTheDefaultPortAsWritten() async throws {
        let mock = HTTPMock()
        try mock.stub(.url("https://example.com:443/p"), responses: [.plaintext("p", lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch("https://example.com/p").text == "p")
        #expect(try await mock.urlSession.fetch("https://example.com:8443/p").status == 404)
    }

    @Test func invalidURLIsRefusedNamingIt() {
        let mock = HTTPMock()
        let error = #expect(throws: HTTPMockError.self) { try mock.stub(.url("/relative/only"), responses: [.plaintext("x")]) }
        #expect(error?.message.contains("/relative/only") == true)
    }

    @Test func hostAndPathMatchersUseGlobs() async throws {
        let mock = HTTPMock()
        try mock.stub(.host("*.example.com"), .path("/v1/**"), responses: [.plaintext("v1", lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch("https://api.example.com/v1/users/3").text == "v1")
        #expect(try await mock.urlSession.fetch("https://api.example.com/v2/users").status == 404)
        let error = #expect(throws: HTTPMockError.self) { try mock.stub(.host("https://x.com"), responses: [.plaintext("x")]) }
        #expect(error?.message.contains("https://x.com") == true)
    }

    @Test func methodsSelectAmongStubs() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/items"), .method(.get, .head), responses: [.plaintext("read", lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch("https://example.com/items").text == "read")
        #expect(try await mock.urlSession.fetch("https://example.com/items", method: "DELETE").status == 404)
    }

    @Test func perMethodResponsesOnOneStub() async throws {
        let mock = HTTPMock()
        try mock.stub(.urlRegex(#"^https://www\.google\.com/.+"#), byMethod: [
            .get: .plaintext("A", lifetime: .eternal),
            .post: .dictionary(["created": true], status: .created, lifetime: .eternal, delivery: .delayed(0.05)),
            .put: .failure(URLError(.cannotConnectToHost), lifetime: .eternal),
        ])
        let url = "https://www.google.com/doc"
        #expect(try await mock.urlSession.fetch(url).text == "A")
        let post = try await mock.urlSession.fetch(url, method: "POST")
        #expect(post.status == 201)
        #expect(post.text == #"{"created":true}"#)
        let error = await mock.urlSession.failure(url, method: "PUT")
        #expect((error as? URLError)?.code == .cannotConnectToHost)
        #expect(try await mock.urlSession.fetch(url, method: "DELETE").status == 404)
    }

    @Test func stubRefusesNoMatchersAndNoResponses() {
        let mock = HTTPMock()
        let none = #expect(throws: HTTPMockError.self) { try mock.stub(responses: [.plaintext("x")]) }
        #expect(none?.message.contains("at least one matcher") == true)
        let empty = #expect(throws: HTTPMockError.self) { try mock.stub(.path("/x"), responses: []) }
        #expect(empty?.message.contains("no responses") == true)
    }
}
