import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMockTesting

/// HTTPAssertion's waiting and perform-then-assert samples, run against a real URLSession.
@Suite struct WaitingTests {
    private func makeMock() -> HTTPMock {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/**", host: "api.example.com") { MockResponse.plaintext("ok", lifetime: .eternal) }
        mock.addResponses(forPath: "/slow", host: "api.example.com") {
            MockResponse.plaintext("late", lifetime: .eternal, delivery: .delayed(0.3))
        }
        return mock
    }

    @Test func waitForRequestReturnsARequestMadeLater() async throws {
        let mock = makeMock()
        let sender = Task { try await mock.urlSession.fetch("https://api.example.com/login", method: "POST") }
        let entry = await waitForRequest(url: "https://api.example.com/login", method: "POST", in: mock, timeout: 30)
        #expect(entry?.request.method == "POST")
        _ = try await sender.value
    }

    @Test func waitForRequestFindsOneAlreadyMade() async throws {
        let mock = makeMock()
        try await mock.urlSession.fetch("https://api.example.com/data")
        let entry = await waitForRequest(url: "https://api.example.com/data", in: mock, timeout: 30)
        #expect(entry?.id == 0)
    }

    @Test func waitForResponseWaitsUntilTheAnswerIsDelivered() async throws {
        let mock = makeMock()
        let sender = Task { try await mock.urlSession.fetch("https://api.example.com/slow") }
        let requested = await waitForRequest(url: "https://api.example.com/slow", in: mock, timeout: 30)
        let answered = await waitForResponse(url: "https://api.example.com/slow", in: mock, timeout: 30)
        #expect(requested != nil)
        #expect(answered?.statusCode == 200)
        #expect(answered?.responseBody == Data("late".utf8))
        _ = try await sender.value
    }

    @Test func waitWithPatternAndMethod() async throws {
        let mock = makeMock()
        let sender = Task { try await mock.urlSession.fetch("https://api.example.com/analytics/tap?x=1", method: "POST") }
        await waitForRequest(urlPattern: #"https://api\.example\.com/analytics.*"#, method: "POST", in: mock, timeout: 30)
        _ = try await sender.value
    }

    @Test func timeoutIsAFailureAtTheCallerNamingTheRequest() async throws {
        let mock = makeMock()
        try await mock.urlSession.fetch("https://api.example.com/other")
        let line = #line + 2
        await expectFailure(atLine: line, containing: ["waitForRequest failed: no POST request to https://api.example.com/never within 0.2 s — should be sent", "#0 GET https://api.example.com/other"]) {
            let entry = await waitForRequest(url: "https://api.example.com/never", method: .post, in: mock, "should be sent", timeout: 0.2)
            #expect(entry == nil)
        }
    }

    @Test func performActionAndAssertRequestedHandsTheRequestOver() async throws {
        let mock = makeMock()
        // A request made before the action does not count.
        try await mock.urlSession.fetch("https://api.example.com/search?q=old")
        let seen = Locked<[String]>([])
        let entry = try await performActionAndAssertRequested(
            urlPattern: #"https://api\.example\.com/search.*"#,
            method: "GET",
            in: mock,
            "Search API should be called after tapping search button",
            timeout: 30
        ) {
            try await mock.urlSession.fetch("https://api.example.com/search?q=swift")
        } onRequested: { entry in
            seen.withLock { $0.append(entry.request.url.absoluteString) }
            #expect(entry.request.url.query?.contains("q=swift") == true)
        }
        #expect(entry?.id == 1)
        #expect(seen.current == ["https://api.example.com/search?q=swift"])

        // The simplified form, without inspection.
        try await performActionAndAssertRequested(url: "https://api.example.com/event", method: "POST", in: mock,
                                                  "Analytics event should be triggered by button tap", timeout: 30) {
            try await mock.urlSession.fetch("https://api.example.com/event", method: "POST")
        }
    }

    @Test func performActionWhoseRequestNeverComesFails() async throws {
        let mock = makeMock()
        try await mock.urlSession.fetch("https://api.example.com/event")  // before the action: not counted
        let line = #line + 2
        await expectFailure(atLine: line, containing: ["performActionAndAssertRequested failed: no request to https://api.example.com/event within 0.2 s", "This mock saw no request since the action started."]) {
            let entry = try? await performActionAndAssertRequested(url: "https://api.example.com/event", in: mock, timeout: 0.2) {
                // The action forgets to send.
            }
            #expect(entry == nil)
        }
    }

    @Test func performActionAndAssertResponseCallsBothCallbacks() async throws {
        let mock = makeMock()
        let calls = Locked<[String]>([])
        let entry = try await performActionAndAssertResponse(url: "https://api.example.com/slow", method: "GET", in: mock,
                                                             "Login request should complete successfully", timeout: 30) {
            Task { try await mock.urlSession.fetch("https://api.example.com/slow") }
        } onRequested: { entry in
            calls.withLock { $0.append("requested \(entry.request.path)") }
        } onResponse: { entry in
            calls.withLock { $0.append("response \(entry.statusCode ?? 0)") }
            #expect(entry.statusCode == 200)
        }
        #expect(entry?.statusCode == 200)
        #expect(calls.current == ["requested /slow", "response 200"])
    }

    @Test @MainActor func worksFromTheMainActor() async throws {
        let mock = makeMock()
        var tapped = false  // main-actor state, touched by the action and the callback
        try await performActionAndAssertRequested(url: "https://api.example.com/tap", in: mock, timeout: 30) {
            tapped = true
            try await mock.urlSession.fetch("https://api.example.com/tap")
        } onRequested: { _ in
            #expect(tapped)
        }
    }
}
