import Foundation
import Testing
@testable import HTTPMock

/// The engine alone, without any URLSession.
@Suite struct EngineTests {
    let engine = Engine()

    private func add(_ host: String, _ path: String, method: String? = nil, _ responses: [MockResponse]) throws {
        try engine.register([Engine.Definition(
            host: try HostGlob(host), path: try PathGlob(path),
            conditions: method.map { [.method([$0])] } ?? [], responses: responses)])
    }

    private func answer(_ url: String, method: String = "GET") -> String {
        let (decision, _) = engine.decide(CapturedRequest(method: method, url: URL(string: url)!))
        guard case .respond(let response) = decision else { return "not a response" }
        if response.status == .notFound, response.headers["X-HTTPMock"] == "unmatched" { return "unmatched" }
        return String(decoding: response.body ?? Data(), as: UTF8.self)
    }

    @Test func readmeSpecificityTable() throws {
        try add("api.example.com", "/", [.plaintext("exact", lifetime: .eternal)])
        try add("*.example.com", "/", [.plaintext("single", lifetime: .eternal)])
        try add("**.example.com", "/", [.plaintext("multi", lifetime: .eternal)])
        #expect(answer("https://api.example.com/") == "exact")
        #expect(answer("https://api-test.example.com/") == "single")
        #expect(answer("https://api.staging.example.com/") == "multi")
    }

    @Test func readmeTieBreakerPrefersLongerLiteral() throws {
        try add("*.example.*", "/", [.plaintext("two singles", lifetime: .eternal)])
        try add("**.example.com", "/", [.plaintext("multi", lifetime: .eternal)])
        #expect(answer("https://api.example.com/") == "multi")
    }

    @Test func equallySpecificStubsPreferTheLaterRegistration() throws {
        try add("a.test", "/x/*", [.plaintext("first", lifetime: .eternal)])
        try add("a.test", "/*/y", [.plaintext("second", lifetime: .eternal)])
        for _ in 0..<20 { #expect(answer("https://a.test/x/y") == "second") }
    }

    @Test func exhaustedQueueFallsThroughToTheNextMatchingStub() throws {
        try add("a.test", "/users/*", [.plaintext("wildcard", lifetime: .eternal)])
        try add("a.test", "/users/1", [.plaintext("exact")])
        #expect(answer("https://a.test/users/1") == "exact")
        #expect(answer("https://a.test/users/1") == "wildcard")
    }

    @Test func methodIsPartOfTheMatch() throws {
        try add("a.test", "/item", method: "GET", [.plaintext("got", lifetime: .eternal)])
        try add("a.test", "/item", method: "DELETE", [.plaintext("deleted")])
        #expect(answer("https://a.test/item", method: "DELETE") == "deleted")
        #expect(answer("https://a.test/item", method: "DELETE") == "unmatched")
        #expect(answer("https://a.test/item", method: "GET") == "got")
    }

    @Test func lifetimesServeTheirCountThenMoveOn() throws {
        try add("a.test", "/l", [.plaintext("once"), .plaintext("thrice", lifetime: .multiple(3)),
                                 .plaintext("forever", lifetime: .eternal), .plaintext("never reached")])
        let answers = (0..<7).map { _ in answer("https://a.test/l") }
        #expect(answers == ["once", "thrice", "thrice", "thrice", "forever", "forever", "forever"])
    }

    @Test func sameRouteRegisteredTwiceSharesOneQueue() throws {
        try add("a.test", "/q", [.plaintext("1")])
        try add("A.TEST", "q/", [.plaintext("2")])
        #expect(answer("https://a.test/q") == "1")
        #expect(answer("https://a.test/q") == "2")
        #expect(engine.stubUsage.count == 1)
    }

    @Test func registrationIsAllOrNothing() throws {
        let missing = MockResponse.file(url: URL(fileURLWithPath: "/nonexistent/x.json"))
        #expect(throws: HTTPMockError.self) {
            try engine.register([
                Engine.Definition(host: try HostGlob("a.test"), path: try PathGlob("/ok"), conditions: [], responses: [.plaintext("ok")]),
                Engine.Definition(host: try HostGlob("a.test"), path: try PathGlob("/bad"), conditions: [], responses: [missing]),
            ])
        }
        #expect(answer("https://a.test/ok") == "unmatched")
    }

    @Test func multipleZeroIsRefused() throws {
        #expect {
            try add("a.test", "/z", [.plaintext("z", lifetime: .multiple(0))])
        } throws: { error in
            "\(error)".contains(".multiple(0)") && "\(error)".contains("a.test/z")
        }
    }

    @Test func unmatchedReasonNamesTheRequestAndTheExhaustedStub() throws {
        try add("a.test", "/once", [.plaintext("x")])
        _ = answer("https://a.test/once")
        let (decision, _) = engine.decide(CapturedRequest(url: URL(string: "https://a.test/once")!))
        guard case .respond(let response) = decision else { Issue.record("expected a 404"); return }
        let text = String(decoding: response.body ?? Data(), as: UTF8.self)
        #expect(response.status == .notFound)
        #expect(text.contains("GET https://a.test/once"))
        #expect(text.contains("already served"))
    }

    @Test func manyStubsStillResolveByIndex() throws {
        var definitions: [Engine.Definition] = []
        for index in 0..<5_000 {
            definitions.append(Engine.Definition(
                host: try HostGlob("h\(index % 50).test"), path: try PathGlob("/items/\(index)"),
                conditions: [], responses: [.plaintext("\(index)", lifetime: .eternal)]))
        }
        try engine.register(definitions)
        #expect(answer("https://h7.test/items/4007") == "4007")
        #expect(answer("https://h8.test/items/4007") == "unmatched")
        #expect(engine.candidateCount(for: CapturedRequest(url: URL(string: "https://h7.test/items/4007")!)) == 1)
    }

    @Test func missWithMoreStubsThanTheComparisonLimitComparesTheStubsOnItsHost() throws {
        var definitions: [Engine.Definition] = []
        for index in 0..<(NearMissFinder.comparisonLimit + 500) {
            definitions.append(Engine.Definition(
                host: try HostGlob("bulk\(index % 7).test"), path: try PathGlob("/items/\(index)"),
                conditions: [], responses: [.plaintext("\(index)")]))
        }
        definitions.append(Engine.Definition(host: try HostGlob("target.test"), path: try PathGlob("/users/1"),
                                             conditions: [.method(["POST"])], responses: [.plaintext("user")]))
        try engine.register(definitions)
        let (_, entry) = engine.decide(CapturedRequest(method: "GET", url: URL(string: "https://target.test/users/1")!))
        let report = try #require(engine.journalEntry(entry)?.report)
        #expect(report.closest.first?.differences.map(\.field) == [.method])
        #expect(report.notes.contains("compared with the 1 stub(s) registered for this host, of 1501 in all"))
    }
}
