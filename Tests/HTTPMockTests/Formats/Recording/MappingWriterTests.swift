import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

/// What a recording writes in the mapping format loads back and answers the same, without a server.
@Suite struct MappingWriterTests {
    private func entry(_ id: Int, _ url: String, method: String = "GET", headers: HeaderFields = [:], body: Data? = nil,
                       outcome: JournalEntry.Outcome) -> JournalEntry {
        var entry = JournalEntry(id: id, request: CapturedRequest(method: method, url: URL(string: url)!, headers: headers, body: body),
                                 receivedAt: Date(), resolution: .passedThrough)
        entry.outcome = outcome
        entry.completedAt = Date()
        return entry
    }

    @Test func writtenMappingsReplayInOrderWithRedactedValuesMatchingAnything() async throws {
        let entries = [
            entry(0, "http://127.0.0.1:8080/n?token=abc&flag", outcome: .response(status: 200, headers: ["Content-Type": "text/plain"], body: Data("1".utf8))),
            entry(1, "http://127.0.0.1:8080/n?token=abc&flag", outcome: .response(status: 200, headers: ["Content-Type": "text/plain", "Content-Encoding": "gzip"], body: Data("2".utf8))),
            entry(2, "http://127.0.0.1:8080/login", method: "POST", headers: ["Content-Type": "application/json"],
                  body: Data(#"{"user":"ann","password":"p"}"#.utf8),
                  outcome: .response(status: 200, headers: ["Content-Type": "application/json", "Set-Cookie": "sid=s"], body: Data(#"{"token":"t","ok":true}"#.utf8))),
            entry(3, "http://127.0.0.1:8080/bytes", outcome: .response(status: 200, headers: [:], body: Data([0xFF, 0x00]))),
            entry(4, "http://127.0.0.1:8080/down", outcome: .failure(URLError(.timedOut))),
        ]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("httpmock-writer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try MappingWriter.write(entries, to: folder, redaction: .default, appending: false)
        let written = try String(contentsOf: folder.appendingPathComponent("recorded.mock.json"), encoding: .utf8)
        #expect(!written.contains("abc") && !written.contains("\"p\"") && !written.contains("sid=s") && !written.contains("gzip"))

        let mock = HTTPMock()
        try mock.loadMappings(from: folder)
        let session = mock.urlSession
        #expect(try await session.fetch("http://127.0.0.1:8080/n?token=other&flag").text == "1")
        #expect(try await session.fetch("http://127.0.0.1:8080/n?flag&token=x").text == "2")
        #expect(try await session.fetch("http://127.0.0.1:8080/n?flag&token=x").text == "2")
        #expect(try await session.fetch("http://127.0.0.1:8080/n?token=x").status == 404)
        let login = try await session.fetch("http://127.0.0.1:8080/login", method: "POST", body: Data(#"{"password":"new","user":"ann"}"#.utf8))
        #expect(login.text == #"{"ok":true,"token":"REDACTED"}"#)
        let (bytes, _) = try await session.data(from: URL(string: "http://127.0.0.1:8080/bytes")!)
        #expect(bytes == Data([0xFF, 0x00]))
        let error = await #expect(throws: URLError.self) { _ = try await session.data(from: URL(string: "http://127.0.0.1:8080/down")!) }
        #expect(error?.code == .timedOut)
        // Another port is another server.
        #expect(try await session.fetch("http://127.0.0.1:9090/bytes").status == 404)
    }
}
