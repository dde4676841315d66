import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock
import _HTTPMockJSON

/// Streams written to HAR (`_parts`) and to mapping files (`parts`), with their boundaries and timing, and replayed.
@Suite struct StreamRecordingTests {
    private func streamedMock() -> HTTPMock {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/chat", host: "llm.example.com") {
            MockResponse.chunks([
                .event(ServerSentEvent("{\"delta\":\"Hel\",\"token\":\"s3cr3t\"}")),
                .event(ServerSentEvent("{\"delta\":\"lo\"}"), after: 0.02),
                .event(ServerSentEvent("[DONE]"), after: 0.02),
            ], contentType: "text/event-stream")
        }
        return mock
    }

    @Test func aHARKeepsEachPartWithItsOffsetAndTheWholeBody() async throws {
        let mock = streamedMock()
        _ = try await mock.urlSession.fetch("https://llm.example.com/chat")
        let response = try #require(mock.exportHAR().log.entries.first?.response)
        let parts = try #require(response.parts)
        #expect(parts.map(\.text) == [
            "data: {\"delta\":\"Hel\",\"token\":\"REDACTED\"}\n\n", "data: {\"delta\":\"lo\"}\n\n", "data: [DONE]\n\n",
        ])
        #expect(parts.map(\.offset) == parts.map(\.offset).sorted())
        #expect(parts[2].offset > parts[0].offset)
        #expect(response.content.text == parts.map(\.text).joined())
        #expect(response.partsTruncated == nil)
        let json = String(decoding: mock.exportHAR().jsonData(), as: UTF8.self)
        #expect(json.contains("\"_parts\""))
        #expect(!json.contains("s3cr3t"))
    }

    @Test func aRecordedHARReplaysTheSameParts() async throws {
        let mock = streamedMock()
        _ = try await mock.urlSession.fetch("https://llm.example.com/chat")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stream-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: file) }
        try mock.writeHAR(to: file)

        let replay = HTTPMock()
        _ = try replay.loadHAR(at: file)
        let client = StreamClient(mock: replay, url: "https://llm.example.com/chat")
        await client.waitForEnd()
        #expect(client.pieces == [
            "data: {\"delta\":\"Hel\",\"token\":\"REDACTED\"}\n\n", "data: {\"delta\":\"lo\"}\n\n", "data: [DONE]\n\n",
        ])
        #expect(client.response?.value(forHTTPHeaderField: "Content-Type") == "text/event-stream")
    }

    @Test func aHARWrittenByHandReplaysItsPartsAtOnceOrOnTime() throws {
        let har = try JSONDecoder().decode(HAR.self, from: Data(Self.handWritten(parts: """
            [{"offset": 0.5, "text": "one"}, {"offset": 1.25, "text": "dHdv", "encoding": "base64"}]
            """).utf8))
        let immediate = try #require(try HAR.Entry.replayed(har, options: HARReplayOptions()))
        #expect(immediate.map(\.delay) == [0, 0])
        #expect(immediate.map { String(decoding: $0.data, as: UTF8.self) } == ["one", "two"])
        let timed = try #require(try HAR.Entry.replayed(har, options: HARReplayOptions(replaysTiming: true)))
        #expect(timed.map(\.delay) == [0.5, 0.75])
    }

    @Test func aStreamThatFailedFailsAgainAfterItsParts() async throws {
        let har = try JSONDecoder().decode(HAR.self, from: Data(Self.handWritten(parts: """
            [{"offset": 0, "text": "one"}]
            """, error: "networkConnectionLost").utf8))
        let mock = HTTPMock()
        _ = try mock.loadHAR(har)
        let client = StreamClient(mock: mock, url: "https://api.example.com/feed")
        await client.waitForEnd()
        #expect(client.pieces == ["one"])
        #expect((client.error as? URLError)?.code == .networkConnectionLost)
    }

    @Test func badPartsAreEachNamed() throws {
        let har = try JSONDecoder().decode(HAR.self, from: Data(Self.handWritten(parts: """
            [{"offset": 1, "text": "a"}, {"offset": 0.5, "text": "b"}, {"offset": 2, "text": "%%", "encoding": "base64"}]
            """).utf8))
        let error = #expect(throws: HTTPMockError.self) { try HTTPMock().loadHAR(har) }
        let message = error.map { "\($0)" } ?? ""
        #expect(message.contains("log.entries[0].response._parts[1].offset: 0.5 comes before the part before it (1.0)"))
        #expect(message.contains("log.entries[0].response._parts[2].text: not valid base64"))
    }

    @Test func aHARWithoutPartsOrWithTruncatedPartsIsServedWhole() async throws {
        for parts in [nil, "[{\"offset\": 0, \"text\": \"first only\"}]"] {
            let har = try JSONDecoder().decode(HAR.self, from: Data(Self.handWritten(parts: parts, truncated: parts != nil).utf8))
            let mock = HTTPMock()
            _ = try mock.loadHAR(har)
            let reply = try await mock.urlSession.fetch("https://api.example.com/feed")
            #expect(reply.text == "onetwo")
            #expect(mock.journal.last?.stream == nil)
        }
    }

    @Test func aMappingRecordingKeepsThePartsAndReplaysThem() async throws {
        let mock = streamedMock()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stream-mappings-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorded = MappingWriter.mocks(for: try await {
            _ = try await mock.urlSession.fetch("https://llm.example.com/chat")
            return mock.journal
        }(), redaction: .default)
        let text = String(decoding: JSONValue.array(recorded).data, as: UTF8.self)
        #expect(text.contains("\"parts\""))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try JSONValue.object(["mocks": .array(recorded)]).data.write(to: folder.appendingPathComponent("chat.mock.json"))
        let replay = HTTPMock()
        _ = try replay.loadMappings(from: folder)
        let client = StreamClient(mock: replay, url: "https://llm.example.com/chat")
        await client.waitForEnd()
        #expect(client.pieces.count == 3)
        #expect(client.pieces.last == "data: [DONE]\n\n")
    }

    /// A HAR of one `GET https://api.example.com/feed` answered "onetwo", with `_parts` if given.
    static func handWritten(parts: String?, error: String? = nil, truncated: Bool = false) -> String {
        """
        {"log": {"version": "1.2", "creator": {"name": "hand", "version": "1"}, "entries": [{
          "startedDateTime": "2026-11-24T10:00:00.000Z", "time": 1,
          "request": {"method": "GET", "url": "https://api.example.com/feed", "httpVersion": "HTTP/1.1",
                      "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
          "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                       "headers": [{"name": "Content-Type", "value": "text/plain"}], "cookies": [],
                       "content": {"size": 6, "mimeType": "text/plain", "text": "onetwo"},
                       "redirectURL": "", "headersSize": -1, "bodySize": 6
                       \(parts.map { ", \"_parts\": \($0)" } ?? "")\(error.map { ", \"_error\": \"\($0)\"" } ?? "")\(truncated ? ", \"_partsTruncated\": true" : "")},
          "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}
        }]}}
        """
    }
}

extension HAR.Entry {
    /// The parts the first entry of `har` replays as, read from the response its stub serves.
    static func replayed(_ har: HAR, options: HARReplayOptions) throws -> [StreamPart]? {
        let definitions = try har.definitions(options: options, name: "test.har")
        guard case .stream(let source) = definitions.first?.responses.first?.content,
              case .script(let parts, _) = source.kind else { return nil }
        return parts
    }
}
