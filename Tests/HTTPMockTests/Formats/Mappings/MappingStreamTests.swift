import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

/// Streams written in mapping files: server-sent events with their fields, and faults part of the way through.
@Suite struct MappingStreamTests {
    /// A mock loaded from one mapping file holding `json`.
    private func load(_ json: String) throws -> HTTPMock {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mapping-streams-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("stream.mock.json")
        try Data(json.utf8).write(to: file)
        let mock = HTTPMock()
        try mock.loadMappings(from: file)
        return mock
    }

    private func loadError(_ json: String) -> String {
        do {
            _ = try load(json)
            return "loaded"
        } catch {
            return "\(error)"
        }
    }

    @Test func eventsAreServerSentEventsWithTheirFieldsAndTimes() async throws {
        let mock = try load(#"""
        {"mocks": [{"request": {"path": "/chat"}, "responses": [{"events": [
            {"data": "Hel", "event": "delta", "id": "1"},
            {"data": "lo", "id": "2", "after": 0.01},
            {"comment": "keep-alive", "retry": 3000, "after": 0.01}
        ]}]}]}
        """#)
        let client = StreamClient(mock: mock, url: "https://s.test/chat")
        await client.waitForEnd()
        #expect(client.pieces == ["event: delta\nid: 1\ndata: Hel\n\n", "id: 2\ndata: lo\n\n", ": keep-alive\nretry: 3000\n\n"])
        #expect(client.response?.value(forHTTPHeaderField: "Content-Type") == "text/event-stream")
        #expect(client.response?.value(forHTTPHeaderField: "Cache-Control") == "no-cache")
        #expect(mock.journal.last?.stream?.events.compactMap(\.data) == ["Hel", "lo"])
    }

    @Test func aStreamFaultDropsFailsOrStallsAfterItsParts() async throws {
        let mock = try load(#"""
        {"mocks": [
          {"request": {"path": "/drop"}, "responses": [{"events": [{"data": "1"}, {"data": "2"}, {"data": "3"}],
                                                        "streamFault": {"kind": "drop", "afterParts": 2}}]},
          {"request": {"path": "/fail"}, "responses": [{"parts": [{"text": "a"}, {"text": "b"}],
                                                        "streamFault": {"kind": "fail", "afterParts": 1, "error": "badServerResponse"}}]}
        ]}
        """#)
        let dropped = StreamClient(mock: mock, url: "https://s.test/drop")
        await dropped.waitForEnd()
        #expect(dropped.pieces == ["data: 1\n\n", "data: 2\n\n"])
        #expect((dropped.error as? URLError)?.code == .networkConnectionLost)
        let failed = StreamClient(mock: mock, url: "https://s.test/fail")
        await failed.waitForEnd()
        #expect(failed.pieces == ["a"])
        #expect((failed.error as? URLError)?.code == .badServerResponse)
    }

    @Test func aStallSendsNothingMoreUntilTheRequestTimesOut() async throws {
        let mock = try load(#"""
        {"mocks": [{"request": {"path": "/stall"}, "responses": [{"parts": [{"text": "a"}, {"text": "b"}],
                                                                  "streamFault": {"kind": "stall", "afterParts": 1}}]}]}
        """#)
        let client = StreamClient(mock: mock, url: "https://s.test/stall", timeout: 0.5)
        await client.waitForEnd()
        #expect(client.pieces == ["a"])
        #expect((client.error as? URLError)?.code == .timedOut)
    }

    @Test func badStreamsInFilesAreRefusedNamingTheKey() {
        let cases: [(String, String)] = [
            (#"{"events": [{"data": "a"}], "streamFault": {"kind": "drop", "afterParts": 2}}"#, "comes after 2 parts, but the stream has 1"),
            (#"{"text": "a", "streamFault": {"kind": "drop", "afterParts": 0}}"#, "give \"parts\" or \"events\""),
            (#"{"events": [{"data": "a"}], "streamFault": {"kind": "explode", "afterParts": 0}}"#, "\"explode\" is not a stream fault"),
            (#"{"events": [{"data": "a"}], "streamFault": {"kind": "drop", "afterParts": 0, "error": "timedOut"}}"#, "a \"drop\" fault has none"),
            (#"{"events": [{"data": "a"}], "streamFault": {"kind": "fail", "afterParts": 0, "error": "nope"}}"#, "\"nope\" is not a URLError code name"),
            (#"{"events": [{"after": 1}]}"#, "an event needs at least one of"),
            (#"{"events": [{"data": "a", "after": -1}]}"#, "\"after\" must be a number of seconds"),
            (#"{"events": [{"data": "a"}], "text": "b"}"#, "give one body"),
            (#"{"events": [{"data": "a", "colour": "red"}]}"#, "colour"),
        ]
        for (response, message) in cases {
            let error = loadError(#"{"mocks": [{"request": {"path": "/x"}, "responses": ["# + response + #"]}]}"#)
            #expect(error.contains(message), "\(response): \(error)")
            #expect(error.contains("stream.mock.json"), "\(response): \(error)")
        }
    }
}
