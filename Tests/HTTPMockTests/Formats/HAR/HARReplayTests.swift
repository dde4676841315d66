import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

@Suite struct HARReplayTests {
    let poll = fixtures.appendingPathComponent("HAR/poll.har")
    let bad = fixtures.appendingPathComponent("BadInput/HAR")

    @Test func repeatedRequestsGetTheRecordedAnswersInOrderThenTheLastAgain() async throws {
        let mock = HTTPMock()
        try mock.loadHAR(at: poll)
        var states: [String] = []
        for _ in 0..<4 { states.append(try await mock.urlSession.fetch("https://api.example.com/jobs/7").text) }
        #expect(states == [#"{"state":"queued"}"#, #"{"state":"running"}"#, #"{"state":"done"}"#, #"{"state":"done"}"#])
    }

    @Test func strictReplayFallsThroughWhenUsedUp() async throws {
        let mock = HTTPMock()
        try mock.loadHAR(at: poll, options: HARReplayOptions(repeatsLast: false))
        for status in [202, 202, 200, 404] {
            #expect(try await mock.urlSession.fetch("https://api.example.com/jobs/7").status == status)
        }
    }

    @Test func wireHeadersAreDroppedAndTheBodyKeepsItsType() async throws {
        let mock = HTTPMock()
        try mock.loadHAR(at: poll)
        let reply = try await mock.urlSession.fetch("http://api.example.com/jobs/7")
        #expect(reply.header("Content-Encoding") == nil)
        #expect(reply.header("Content-Length") == String(reply.text.utf8.count))
        #expect(reply.header("Content-Type") == "application/json")
    }

    @Test func bodiesAreComparedAsJSONAndRedactedFieldsMatchAnything() async throws {
        let mock = HTTPMock()
        try mock.loadHAR(at: poll)
        let body = Data(#"{ "password": "hunter2", "user": "ann" }"#.utf8)
        let ok = try await mock.urlSession.fetch("https://api.example.com/login?client=ios", method: "POST", body: body)
        #expect(ok.text == #"{"ok":true}"#)
        let other = Data(#"{"password":"x","user":"bob"}"#.utf8)
        #expect(try await mock.urlSession.fetch("https://api.example.com/login?client=ios", method: "POST", body: other).status == 404)
    }

    @Test func bodiesCanBeIgnored() async throws {
        let mock = HTTPMock()
        try mock.loadHAR(at: poll, options: HARReplayOptions(matchesBody: false))
        let other = Data(#"{"user":"bob"}"#.utf8)
        #expect(try await mock.urlSession.fetch("https://api.example.com/login?client=ios", method: "POST", body: other).status == 200)
    }

    @Test func base64ContentIsDecodedAndRedactedQueryValuesMatchAnything() async throws {
        let mock = HTTPMock()
        try mock.loadHAR(at: poll)
        let (data, response) = try await mock.urlSession.data(from: URL(string: "https://cdn.example.com/pixel.png?token=abc")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(data == Data(base64Encoded: "iVBORw0KGgo="))
        // The parameter must still be there.
        #expect(try await mock.urlSession.fetch("https://cdn.example.com/pixel.png").status == 404)
    }

    @Test func recordedFailuresFailTheRequest() async throws {
        let mock = HTTPMock()
        try mock.loadHAR(at: poll)
        let error = await #expect(throws: URLError.self) {
            _ = try await mock.urlSession.data(from: URL(string: "https://offline.example.com/")!)
        }
        #expect(error?.code == .notConnectedToInternet)
    }

    @Test func removeTakesTheReplayAway() async throws {
        let mock = HTTPMock()
        let loaded = try mock.loadHAR(at: poll)
        #expect(loaded.stubCount == 4)
        loaded.remove()
        #expect(try await mock.urlSession.fetch("https://api.example.com/jobs/7").status == 404)
    }

    @Test func tenThousandEntriesLoadAndReplay() async throws {
        var entries: [HAR.Entry] = []
        for index in 0..<10_000 {
            let path = index % 2 == 0 ? "/items/\(index)" : "/poll"
            entries.append(HAR.Entry(
                startedDateTime: "", time: 0,
                request: HAR.Request(method: "GET", url: "https://bulk.example.com\(path)"),
                response: HAR.Response(status: 200, statusText: "OK", content: HAR.Content(mimeType: "text/plain", body: Data("\(index)".utf8))),
                timings: HAR.Timings(wait: 0)
            ))
        }
        let mock = HTTPMock()
        let loaded = try mock.loadHAR(HAR(log: HAR.Log(entries: entries)))
        #expect(loaded.stubCount == 5_001)
        #expect(try await mock.urlSession.fetch("https://bulk.example.com/items/9998").text == "9998")
        #expect(try await mock.urlSession.fetch("https://bulk.example.com/poll").text == "1")
        #expect(try await mock.urlSession.fetch("https://bulk.example.com/poll").text == "3")
    }

    // MARK: Bad input

    private func loadError(_ file: String) throws -> HTTPMockError {
        let mock = HTTPMock()
        return try #require(throws: HTTPMockError.self) { try mock.loadHAR(at: bad.appendingPathComponent(file)) }
    }

    @Test func malformedHARNamesLineAndColumn() throws {
        let error = try loadError("malformed.har")
        #expect(error.message.contains("malformed.har line 5, column"), "\(error.message)")
    }

    @Test func missingURLNamesTheKeyPath() throws {
        let error = try loadError("missing-url.har")
        #expect(error.message.contains("log.entries[1].request"), "\(error.message)")
        #expect(error.message.contains("\"url\""))
    }

    @Test func relativeURLAndBadStatusAndBadBase64NameTheEntry() throws {
        #expect(try loadError("relative-url.har").message.contains("log.entries[1].request.url"))
        #expect(try loadError("bad-status.har").message.contains("log.entries[1].response.status"))
        #expect(try loadError("bad-base64.har").message.contains("log.entries[0].response.content.text"))
    }

    @Test func aRefusedHARRegistersNothing() async throws {
        let mock = HTTPMock()
        #expect(throws: HTTPMockError.self) { try mock.loadHAR(at: self.bad.appendingPathComponent("bad-status.har")) }
        #expect(try await mock.urlSession.fetch("https://a.test/ok").status == 404)
    }
}
