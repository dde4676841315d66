import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// Ignore rules, passthrough / opt-out, and switching stubs and mocks off and on. The "real network" here is a
/// second mock, given as the passthrough session.
@Suite struct ModesTests {
    /// A mock standing in for the network, and a mock whose passthrough goes to it. Keep `network` alive while
    /// `mock` is used: a session whose mock is released answers nothing.
    static func pair() throws -> (mock: HTTPMock, network: HTTPMock) {
        let network = HTTPMock()
        try network.stub(.path("/**"), responses: [.dynamic(lifetime: .eternal) { request, _ in .plaintext("network \(request.path)") }])
        return (HTTPMock(passthroughSession: network.urlSession), network)
    }

    @Test func ignoredURLsGoToTheNetworkBeforeAnyStub() async throws {
        let (mock, network) = try Self.pair()
        try mock.stub(.host("www.apple.com"), responses: [.plaintext("mocked", lifetime: .eternal)])
        try mock.ignore(.url("http://www.apple.com", options: [.ignorePath, .ignoreQuery]))
        #expect(try await mock.urlSession.fetch("http://www.apple.com/mac?x=1").text == "network /mac")
        #expect(try await mock.urlSession.fetch("https://www.apple.com/mac").text == "mocked")
        #expect(network.journal.count == 1)
        #expect(mock.journal.first?.resolution == .passedThrough)
    }

    @Test func ignoreRulesTakeAnyMatcherAndCanBeSwitchedOff() async throws {
        let (mock, network) = try Self.pair()
        defer { withExtendedLifetime(network) {} }
        let rule = try mock.ignore(.urlRegex("/analytics/"), .method(.post))
        #expect(try await mock.urlSession.fetch("https://x.test/analytics/e", method: "POST").text == "network /analytics/e")
        #expect(try await mock.urlSession.fetch("https://x.test/analytics/e").status == 404)
        rule.isEnabled = false
        #expect(try await mock.urlSession.fetch("https://x.test/analytics/e", method: "POST").status == 404)
        rule.isEnabled = true
        mock.clearIgnoreRules()
        #expect(try await mock.urlSession.fetch("https://x.test/analytics/e", method: "POST").status == 404)
    }

    @Test func passthroughSendsUnmatchedRequestsToTheNetwork() async throws {
        let (mock, network) = try Self.pair()
        defer { withExtendedLifetime(network) {} }
        mock.unmockedPolicy = .passthrough
        try mock.stub(.path("/mocked"), responses: [.plaintext("mocked")])
        #expect(try await mock.urlSession.fetch("https://x.test/mocked").text == "mocked")
        #expect(try await mock.urlSession.fetch("https://x.test/other").text == "network /other")
    }

    @Test func optOutFailsUnmatchedRequestsWithTheReason() async throws {
        let (mock, network) = try Self.pair()
        mock.unmockedPolicy = .optOut
        try mock.stub(.path("/users"), .method(.get), responses: [.plaintext("users")])
        try mock.ignore(.host("cdn.test"))
        #expect(try await mock.urlSession.fetch("https://x.test/users").text == "users")
        #expect(try await mock.urlSession.fetch("https://cdn.test/logo.png").text == "network /logo.png")
        let error = await mock.urlSession.failure("https://x.test/users", method: "DELETE")
        #expect(error != nil)
        #if canImport(FoundationNetworking)
        let failure = try #require(error as? HTTPMockError)
        #expect(failure.code == .unmockedRequest)
        #expect(failure.message.contains("DELETE https://x.test/users"))
        #expect(failure.message.contains("method: expected GET, got DELETE"))
        #expect(mock.journal.last?.resolution == .unmatched(reason: failure.message))
        #endif
        #expect(network.journal.count == 1)
    }

    @Test func failGivesExactlyTheErrorItWasGiven() async throws {
        let mock = HTTPMock()
        mock.unmockedPolicy = .fail(URLError(.timedOut, userInfo: [NSLocalizedDescriptionKey: "the test's own timeout"]))
        let error = try #require(await mock.urlSession.failure("https://x.test/slow") as? URLError)
        #expect(error.code == .timedOut)
        #expect(error.localizedDescription == "the test's own timeout")
        #if canImport(FoundationNetworking)
        // Even an HTTPMockError of the opt-out kind is passed on as given, never replaced by a report.
        let own = HTTPMockError(.unmockedRequest, "the test's own message")
        mock.unmockedPolicy = .fail(own)
        #expect(await mock.urlSession.failure("https://x.test/other") as? HTTPMockError == own)
        #endif
    }

    @Test func aStubCanBeDisabledAndEnabledAgain() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/status"), responses: [.plaintext("normal", lifetime: .eternal)])
        let outage = try mock.stub(.path("/status"), .header("X-Region"), responses: [.empty(status: .serviceUnavailable, lifetime: .eternal)])
        let send = { try await mock.urlSession.fetch("https://x.test/status", headers: ["X-Region": "eu"]) }
        #expect(try await send().status == 503)
        outage.isEnabled = false
        #expect(outage.isEnabled == false)
        #expect(try await send().text == "normal")
        outage.isEnabled = true
        #expect(try await send().status == 503)
        #expect(outage.hitCount == 2)
        outage.remove()
        #expect(try await send().text == "normal")
    }

    @Test func perMethodHandleSwitchesEveryMethod() async throws {
        let mock = HTTPMock()
        let handle = try mock.stub(.path("/x"), byMethod: [.get: .plaintext("g", lifetime: .eternal), .post: .plaintext("p", lifetime: .eternal)])
        #expect(handle.ids.count == 2)
        handle.isEnabled = false
        #expect(try await mock.urlSession.fetch("https://x.test/x").status == 404)
        #expect(try await mock.urlSession.fetch("https://x.test/x", method: "POST").status == 404)
    }

    @Test func aDisabledMockLeavesEveryRequestToThePolicy() async throws {
        let (mock, network) = try Self.pair()
        defer { withExtendedLifetime(network) {} }
        try mock.stub(.path("/a"), responses: [.plaintext("mocked", lifetime: .eternal)])
        mock.isEnabled = false
        let disabled = try await mock.urlSession.fetch("https://x.test/a")
        #expect(disabled.status == 404)
        #expect(disabled.text.contains("disabled"))
        mock.unmockedPolicy = .passthrough
        #expect(try await mock.urlSession.fetch("https://x.test/a").text == "network /a")
        mock.isEnabled = true
        #expect(try await mock.urlSession.fetch("https://x.test/a").text == "mocked")
    }

    @Test func redirectIntoAnIgnoredURLPassesThroughAtTheFinalURL() async throws {
        let (mock, network) = try Self.pair()
        try mock.ignore(.host("real.test"))
        try mock.stub(.path("/go"), responses: [.redirect(to: "https://real.test/landing")])
        let reply = try await mock.urlSession.fetch("https://x.test/go")
        #expect(reply.text == "network /landing")
        #expect(network.requests.map(\.url.absoluteString) == ["https://real.test/landing"])
    }
}
