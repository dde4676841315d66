import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

/// A stub's regular expression that backtracks without end is stopped and named; one that runs in linear time is
/// never stopped, however long its input.
@Suite struct RegexBudgetTests {
    private func decide(_ mock: HTTPMock, _ url: String, body: Data? = nil) -> (status: Int?, text: String, resolution: JournalEntry.Resolution?) {
        let (decision, entry) = mock.core.engine.decide(CapturedRequest(method: body == nil ? "GET" : "POST", url: URL(string: url)!, body: body))
        guard case .respond(let response) = decision else { return (nil, "", nil) }
        let text = String(decoding: response.body ?? Data(), as: UTF8.self)
        return (response.status.code, text, mock.journal.first { $0.id == entry }?.resolution)
    }

    @Test func aBacktrackingURLRegexAnswers500NamingTheStub() throws {
        let mock = HTTPMock()
        try mock.stub(.urlRegex("/r/(a+)+$"), responses: [.plaintext("matched", lifetime: .eternal)])
        let answer = decide(mock, "http://example.com/r/" + String(repeating: "a", count: 30) + "b")
        #expect(answer.status == 500)
        #expect(answer.text.contains("/r/(a+)+$") && answer.text.contains("budget") && answer.text.contains("#"))
        #expect(answer.resolution?.isMatched == false)
        // The same expression still matches what it should.
        #expect(decide(mock, "http://example.com/r/aaaa").status == 200)
    }

    @Test func aLinearBodyRegexOnALongBodyIsNotStopped() throws {
        let mock = HTTPMock()
        try mock.stub(.body(matching: "x+end$"), responses: [.plaintext("matched", lifetime: .eternal)])
        let body = Data((String(repeating: "x", count: 256 << 10) + "end").utf8)
        #expect(decide(mock, "http://example.com/upload", body: body).status == 200)
    }

    @Test func aSearchThatFindsNothingInALongBodyIsNoOverrun() throws {
        // ICU reports its progress at every position a search starts from: a long body without a match is no
        // backtracking.
        let mock = HTTPMock()
        try mock.stub(.body(matching: "[0-9]+zzz"), responses: [.plaintext("matched", lifetime: .eternal)])
        let answer = decide(mock, "http://example.com/upload", body: Data(String(repeating: "a", count: 64 << 10).utf8))
        #expect(answer.status == 404, "\(answer.text.prefix(300))")
        #expect(decide(mock, "http://example.com/upload", body: Data((String(repeating: "a", count: 64 << 10) + "42zzz").utf8)).status == 200)
    }

    @Test func aPlainStubRankedAboveARegexAnswersWithoutUserCode() throws {
        let mock = HTTPMock()
        try mock.stub(.urlRegex("/r/(a+)+$"), responses: [.plaintext("matched", lifetime: .eternal)])
        mock.addResponses(forPath: "/ok") { MockResponse.plaintext("ok", lifetime: .eternal) }
        guard case .decided(.respond(let response), _) = mock.core.engine.attempt(CapturedRequest(url: URL(string: "http://example.com/ok")!)) else {
            Issue.record("the plain stub's request waited for user code")
            return
        }
        #expect(response.body == Data("ok".utf8))
        // A request the plain stub does not answer still goes to the regular expression.
        guard case .deferred = mock.core.engine.attempt(CapturedRequest(url: URL(string: "http://example.com/r/aa")!)) else {
            Issue.record("the regular expression's request was decided without it")
            return
        }
    }
}
