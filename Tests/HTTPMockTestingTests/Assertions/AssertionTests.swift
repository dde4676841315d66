import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMockTesting

/// The assertion samples of HTTPAssertion's README, each run against a real URLSession, passing and failing.
@Suite struct AssertionTests {
    /// A mock that answers everything under api.example.com and analytics.example.com.
    private func makeMock() -> HTTPMock {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/**", host: "api.example.com") { MockResponse.plaintext("ok", lifetime: .eternal) }
        mock.addResponses(forPath: "/**", host: "analytics.example.com") { MockResponse.empty(lifetime: .eternal) }
        return mock
    }

    @Test func requestedByURLWithAndWithoutMessage() async throws {
        let mock = makeMock()
        try await mock.urlSession.fetch("https://analytics.example.com/event", method: "POST")
        HTTPAssertRequested("https://analytics.example.com/event", in: mock)
        HTTPAssertRequested("https://analytics.example.com/event", in: mock,
                            "Analytics event should be sent when search button is tapped")
        let line = #line + 2
        await expectFailure(atLine: line, containing: ["expected at least 1 request to https://api.example.com/data, found 0", "Data API should be called during app startup"]) {
            HTTPAssertRequested("https://api.example.com/data", in: mock, "Data API should be called during app startup")
        }
    }

    /// A URL passed where the message goes must never make the assertion match any request.
    @Test func aURLCanNeverBeTakenForTheMessage() async throws {
        let mock = makeMock()
        try await mock.urlSession.fetch("https://api.example.com/b")
        // The first string is the URL; the second can only be the message. https://api.example.com/a was not requested.
        let line = #line + 2
        await expectFailure(atLine: line, containing: ["expected at least 1 request to https://api.example.com/a, found 0", "— https://api.example.com/b"]) {
            HTTPAssertRequested("https://api.example.com/a", in: mock, "https://api.example.com/b")
        }
        let line2 = #line + 1
        await expectFailure(atLine: line2, containing: ["found 0"]) { HTTPAssertRequested("https://api.example.com/a", in: mock) }
        // A string that is not an absolute URL is refused, never a match-all (or a match-nothing that passes).
        let line3 = #line + 2
        await expectFailure(atLine: line3, containing: ["\"Data API should be called\" is not an absolute URL"]) {
            HTTPAssertNotRequested("Data API should be called", in: mock)
        }
    }

    @Test func notRequested() async throws {
        let mock = makeMock()
        try await mock.urlSession.fetch("https://api.example.com/public")
        HTTPAssertNotRequested("https://api.example.com/sensitive", in: mock)
        HTTPAssertNotRequested("https://api.example.com/sensitive", in: mock,
                               "Sensitive API should never be called in this test scenario")
        try await mock.urlSession.fetch("https://api.example.com/sensitive")
        let line = #line + 2
        await expectFailure(atLine: line, containing: ["HTTPAssertNotRequested failed: expected no request to https://api.example.com/sensitive, found 1", "found 1", "Matching requests in this mock (1):", "#1 GET https://api.example.com/sensitive → 200"]) {
            HTTPAssertNotRequested("https://api.example.com/sensitive", in: mock, "Sensitive API should never be called")
        }
    }

    @Test func requestedOnce() async throws {
        let mock = makeMock()
        try await mock.urlSession.fetch("https://api.example.com/analytics")
        let entry = HTTPAssertRequestedOnce("https://api.example.com/analytics", in: mock,
                                            "Analytics should be sent exactly once per user action")
        #expect(entry?.statusCode == 200)
        try await mock.urlSession.fetch("https://api.example.com/analytics")
        let line = #line + 2
        await expectFailure(atLine: line, containing: ["expected exactly 1 request to https://api.example.com/analytics, found 2"]) {
            HTTPAssertRequestedOnce("https://api.example.com/analytics", in: mock)
        }
    }

    @Test func fetchingMatchingRequests() async throws {
        let mock = makeMock()
        try await mock.urlSession.fetch("https://api.example.com/search?q=swift")
        try await mock.urlSession.fetch("https://api.example.com/search?q=linux")
        try await mock.urlSession.fetch("https://api.example.com/other")
        let requests = HTTPRequests(url: "https://api.example.com/search", in: mock)
        #expect(requests.map { $0.request.queryValues(for: "q") } == [["swift"], ["linux"]])
        #expect(requests.allSatisfy { $0.statusCode == 200 })
        #expect(HTTPRequests(url: "https://api.example.com/search?q=linux", in: mock).count == 1)
        #expect(HTTPRequests(urlPattern: #"https://api\.example\.com/.*"#, in: mock).count == 3)
    }

    @Test func matchingByMethod() async throws {
        let mock = makeMock()
        try await mock.urlSession.fetch("https://api.example.com/data", method: "POST")
        HTTPAssertRequested("https://api.example.com/data", method: "POST", in: mock, "POST request should be made to data endpoint")
        let line = #line + 2
        await expectFailure(atLine: line, containing: ["expected at least 1 PUT request to https://api.example.com/data", "method: expected PUT, got POST"]) {
            HTTPAssertRequested("https://api.example.com/data", method: .put, in: mock)
        }
    }

    @Test func matchingByHeaders() async throws {
        let mock = makeMock()
        try await mock.urlSession.fetch("https://api.example.com/data", headers: ["Authorization": "Bearer token123"])
        HTTPAssertRequested("https://api.example.com/data", headers: ["authorization": "Bearer token123"], in: mock,
                            "Request should include proper authorization header")
        let line = #line + 2
        await expectFailure(atLine: line, containing: ["headers: expected Authorization: Bearer other, got"]) {
            HTTPAssertRequested("https://api.example.com/data", headers: ["Authorization": "Bearer other"], in: mock)
        }
    }

    @Test func matchingByQueryParameters() async throws {
        let mock = makeMock()
        try await mock.urlSession.fetch("https://api.example.com/search?q=swift&limit=10&page=2")
        HTTPAssertRequested("https://api.example.com/search", queryParameters: ["q": "swift", "limit": "10"], in: mock,
                            "Search request should include query and limit parameters")
        let line = #line + 2
        await expectFailure(atLine: line, containing: ["query: expected limit=20 (contains), got q=swift&limit=10&page=2"]) {
            HTTPAssertRequested("https://api.example.com/search", queryParameters: ["limit": "20"], in: mock)
        }
    }

    @Test func matchingByURLPattern() async throws {
        let mock = makeMock()
        try await mock.urlSession.fetch("https://api.example.com/users/42")
        HTTPAssertRequested(urlPattern: #"https://api\.example\.com/users/\d+"#, in: mock, "User API should be called with numeric user ID")
        // A regular expression matches anywhere in the URL, as Match.urlRegex does for stubs; `^` and `$` anchor it.
        HTTPAssertRequested(urlPattern: #"example\.com/users/"#, in: mock)
        let line = #line + 2
        await expectFailure(atLine: line, containing: ["URL matching /^https://api\\.example\\.com/users/$/", "got https://api.example.com/users/42"]) {
            HTTPAssertRequested(urlPattern: #"^https://api\.example\.com/users/$"#, in: mock)
        }
    }

    @Test func badPatternIsAClearFailureNamingIt() async throws {
        let mock = makeMock()
        try await mock.urlSession.fetch("https://api.example.com/users/42")
        let line = #line + 2
        await expectFailure(atLine: line, containing: ["invalid URL regular expression \"https://api.example.com/users/(\\d+\": it does not compile"]) {
            HTTPAssertNotRequested(urlPattern: #"https://api.example.com/users/(\d+"#, in: mock)
        }
        let line2 = #line + 2
        await expectFailure(atLine: line2, containing: ["HTTPRequests failed: invalid URL regular expression \"[\""]) {
            #expect(HTTPRequests(urlPattern: "[", in: mock).isEmpty)
        }
        let line3 = #line + 2
        await expectFailure(atLine: line3, containing: ["HTTPAssertRequested failed: invalid URL regular expression \"(\""]) {
            HTTPAssertRequested(.urlRegex("("), in: mock)
        }
    }

    @Test func countsExactlyAtLeastAtMostNever() async throws {
        let mock = makeMock()
        for _ in 0..<3 { try await mock.urlSession.fetch("https://api.example.com/ping") }
        HTTPAssertRequested("https://api.example.com/ping", count: .exactly(3), in: mock)
        HTTPAssertRequested("https://api.example.com/ping", count: .atLeast(2), in: mock)
        HTTPAssertRequested("https://api.example.com/ping", count: .atMost(3), in: mock)
        HTTPAssertRequested("https://api.example.com/pong", count: .never, in: mock)
        let failures = await recordedFailures {
            HTTPAssertRequested("https://api.example.com/ping", count: .exactly(2), in: mock)
            HTTPAssertRequested("https://api.example.com/ping", count: .atLeast(4), in: mock)
            HTTPAssertRequested("https://api.example.com/ping", count: .atMost(2), in: mock)
            HTTPAssertRequested("https://api.example.com/ping", count: .never, in: mock)
        }
        #expect(failures.count == 4)
        #expect(failures.map { $0.components(separatedBy: "\n")[0] } == [
            "HTTPAssertRequested failed: expected exactly 2 requests to https://api.example.com/ping, found 3",
            "HTTPAssertRequested failed: expected at least 4 requests to https://api.example.com/ping, found 3",
            "HTTPAssertRequested failed: expected at most 2 requests to https://api.example.com/ping, found 3",
            "HTTPAssertRequested failed: expected no request to https://api.example.com/ping, found 3",
        ])
    }

    @Test func failureListsTheClosestRequests() async throws {
        let mock = makeMock()
        try await mock.urlSession.fetch("https://api.example.com/log-in", method: "POST")
        try await mock.urlSession.fetch("https://api.example.com/login", method: "GET")
        let failures = await recordedFailures {
            HTTPAssertRequestedOnce("https://api.example.com/login", method: .post, in: mock, "Login API should be called exactly once")
        }
        let message = try #require(failures.first)
        #expect(message == """
            HTTPAssertRequestedOnce failed: expected exactly 1 POST request to https://api.example.com/login, found 0 — Login API should be called exactly once
            This mock saw 2 request(s); the closest:
              #0 POST https://api.example.com/log-in → 200 (stub #0 api.example.com/**)
                  url: expected https://api.example.com/login (ignoring query), got https://api.example.com/log-in
              #1 GET https://api.example.com/login → 200 (stub #0 api.example.com/**)
                  method: expected POST, got GET
            """)
    }

    /// Designed to use `HTTPMock.shared`: outside a `.httpMock` test, assertions read it by default.
    @Test func withoutATraitAssertionsReadTheSharedMock() async throws {
        let url = "https://shared-default-\(UUID().uuidString.lowercased()).test/x"
        try await HTTPMock.shared.urlSession.fetch(url)
        HTTPAssertRequestedOnce(url)
        #expect(HTTPMock.current == nil)
    }

    @Test func exactURLComparesLikeTheMock() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/**"), responses: [.empty(lifetime: .eternal)])
        for url in ["https://api.example.com/a/b", "https://api.example.com/a/b?x=1", "http://api.example.com/a/b",
                    "https://api.example.com/a/b/c", "https://api.example.com/s?a=1&b=2", "https://api.example.com/s?a=1"] {
            try await mock.urlSession.fetch(url)
        }
        let paths = { (entries: [JournalEntry]) in entries.map(\.request.url.absoluteString) }
        #expect(paths(HTTPRequests(url: "https://API.example.com:443/a/b/", in: mock))
                == ["https://api.example.com/a/b", "https://api.example.com/a/b?x=1"])
        #expect(paths(HTTPRequests(url: "https://api.example.com/s?b=2&a=1", in: mock)) == ["https://api.example.com/s?a=1&b=2"])
        // The same words as a stub's: the URL form is Match.url, ignoring the query when the URL has none.
        #expect(paths(HTTPRequests(.url("https://API.example.com:443/a/b/", options: .ignoreQuery), in: mock))
                == paths(HTTPRequests(url: "https://API.example.com:443/a/b/", in: mock)))
    }
}
