import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock
import HTTPMockTesting

/// A damaged completion record must not hide the request it completes: the reader lists the request from its
/// arrival record, with no outcome, and warns.
@Suite struct JournalDamageTests {
    @Test func aRequestWhoseCompletionRecordIsCorruptIsStillListed() async throws {
        let directory = try Fixture.makeFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mock = HTTPMock()
        mock.writeJournal(to: try JournalFolder(directory))
        mock.addResponses(forPath: "/secret", host: "damage.test", responses: [.plaintext("ok")])
        _ = try await mock.urlSession.data(from: URL(string: "https://damage.test/secret")!)
        mock.stopWritingJournal()

        let entries = directory.appendingPathComponent("entries")
        let names = try FileManager.default.contentsOfDirectory(atPath: entries.path)
        let completion = try #require(names.first { $0.hasSuffix("-c.json") }, "no completion record in \(names)")
        #expect(names.contains(String(completion.dropLast("-c.json".count)) + "-a.json"))
        try Data("{\"format\": 1, \"damaged".utf8).write(to: entries.appendingPathComponent(completion))

        let app = JournalFolderReader(try JournalFolder(directory))
        let listed = HTTPRequests(url: "https://damage.test/secret", in: app)
        #expect(listed.count == 1)
        #expect(listed.first?.outcome == nil)
        #expect(app.warnings.count == 1)
        #expect(app.warnings.first?.contains(completion) == true)
        #expect(app.warnings.first?.contains("no outcome") == true)
        _ = app.journalEntries()
        #expect(app.warnings.count == 1)  // warned once
    }
}
