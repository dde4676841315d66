import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMockTesting

/// An app writing its journal and a test reading it, as separate processes: the fixture writes its journal, this process asserts on it.
@Suite(.disabled(if: runsUnderAddressSanitizer, "launches processes, which Foundation cannot do under AddressSanitizer"))
struct CrossProcessTests {
    @Test func aLaunchedProcessJournalIsReadAndAsserted() async throws {
        let directory = try Fixture.makeFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = JournalFolderReader(try JournalFolder(directory))

        let process = try Fixture.start(label: "solo", count: 3, folder: directory)
        // Waiting polls the folder: the other process cannot push.
        let first = await waitForResponse(url: "https://fixture.test/items/solo-0", in: app, timeout: 60)
        #expect(first?.statusCode == 200)
        try Fixture.finish(process)

        HTTPAssertRequested(urlPattern: #"https://fixture\.test/items/solo-\d+"#, count: .exactly(3), in: app)
        HTTPAssertRequested("https://fixture.test/items/solo-1", headers: ["X-Writer": "solo"], in: app)
        HTTPAssertNotRequested("https://fixture.test/items/solo-3", in: app)
        let missing = try #require(HTTPRequests(url: "https://fixture.test/missing", in: app).first)
        #expect(missing.statusCode == 404)
        guard case .unmatched(let reason) = missing.resolution else {
            Issue.record("expected an unmatched entry, got \(missing.resolution)")
            return
        }
        #expect(reason.contains("path: expected /items/*, got /missing"))
        // The shared context.
        #expect(app.retrieve("done-solo", as: Int.self) == 3)
        #expect(app.warnings.isEmpty)
    }

    @Test func secretsAreRedactedOnDisk() throws {
        let directory = try Fixture.makeFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Fixture.finish(try Fixture.start(label: "secret", count: 1, folder: directory))
        let entries = directory.appendingPathComponent("entries")
        let files = try FileManager.default.contentsOfDirectory(atPath: entries.path)
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: entries.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("secret-token"), "\(file) holds the Authorization value")
            #expect(!text.contains("secret-cookie"), "\(file) holds the Set-Cookie value")
        }
        let entry = try #require(HTTPRequests(url: "https://fixture.test/items/secret-0",
                                              in: JournalFolderReader(try JournalFolder(directory))).first)
        #expect(entry.request.headers["Authorization"] == "<redacted>")
        #expect(entry.responseHeaders?["Set-Cookie"] == "<redacted>")
    }

    @Test func severalWriterProcessesAtOnceLoseNothing() throws {
        let directory = try Fixture.makeFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let labels = ["w0", "w1", "w2", "w3"]
        let processes = try labels.map { try Fixture.start(label: $0, count: 25, folder: directory) }
        for process in processes { try Fixture.finish(process) }
        let app = JournalFolderReader(try JournalFolder(directory))
        let entries = app.journalEntries()
        #expect(entries.count == labels.count * 26)  // 25 items and one unmatched request each
        #expect(entries.allSatisfy { $0.isComplete })
        for label in labels {
            HTTPAssertRequested(urlPattern: #"https://fixture\.test/items/"# + label + #"-\d+"#, count: .exactly(25), in: app)
            #expect(app.retrieve("done-\(label)", as: Int.self) == 25)
        }
    }

    @Test func corruptAndHalfWrittenFilesAreSkippedWithAWarning() throws {
        let directory = try Fixture.makeFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Fixture.finish(try Fixture.start(label: "ok", count: 2, folder: directory))
        let entries = directory.appendingPathComponent("entries")
        let valid = try #require(try FileManager.default.contentsOfDirectory(atPath: entries.path).first { $0.hasSuffix("-c.json") })
        let whole = try Data(contentsOf: entries.appendingPathComponent(valid))
        try whole.prefix(whole.count / 2).write(to: entries.appendingPathComponent("other-m1-000000001-c.json"))
        try Data("not json".utf8).write(to: entries.appendingPathComponent("other-m1-000000002-a.json"))
        try Data("{\"format\": 1}".utf8).write(to: entries.appendingPathComponent("other-m1-000000003-a.json"))
        try Data("ignored".utf8).write(to: entries.appendingPathComponent(".other-m1-000000004-a.json.tmp"))

        let app = JournalFolderReader(try JournalFolder(directory))
        #expect(app.journalEntries().count == 3)
        #expect(app.journalEntries().count == 3)  // read again: still no crash, warned once per file
        #expect(app.warnings.count == 3)
        #expect(app.warnings.allSatisfy { $0.contains("skipped") && $0.contains("other-m1-") })
    }

    @Test func aFolderThatDoesNotExistOrIsAFileIsAClearError() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("httpmock-no-such-\(UUID().uuidString)")
        let error = #expect(throws: HTTPMockError.self) { try JournalFolder(missing) }
        #expect(error?.code == .invalidJournalFolder)
        #expect(error?.message.contains(missing.path) == true)
        #expect(error?.message.contains("does not exist") == true)

        let directory = try Fixture.makeFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("plain")
        try Data().write(to: file)
        let notFolder = #expect(throws: HTTPMockError.self) { try JournalFolder(file) }
        #expect(notFolder?.message.contains("is a file, not a folder") == true)
    }

    @Test func aFolderThatCannotBeWrittenIsAClearError() throws {
        let directory = try Fixture.makeFolder()
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
            try? FileManager.default.removeItem(at: directory)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.path)
        #if os(Linux)
        // Root writes through permissions; /proc cannot be written by anyone.
        let unwritable = getuid() == 0 ? URL(fileURLWithPath: "/proc") : directory
        #else
        let unwritable = directory
        #endif
        let error = #expect(throws: HTTPMockError.self) { try JournalFolder(unwritable) }
        #expect(error?.code == .invalidJournalFolder)
        #expect(error?.message.contains(unwritable.path) == true)
        #expect(error?.message.contains("cannot be written") == true)
    }

    @Test func aBadFolderInTheEnvironmentIsNamedByTheProcess() throws {
        let missing = "/tmp/httpmock-no-such-\(UUID().uuidString)"
        let process = Process()
        process.executableURL = try Fixture.executable()
        process.arguments = ["bad", "1"]
        process.environment = [JournalFolder.environmentVariable: missing]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 66)
        #expect(text.contains("journal folder \(missing): it does not exist"))
    }

    @Test func inProcessWriterAndContext() async throws {
        let directory = try Fixture.makeFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = try JournalFolder(directory)
        let mock = HTTPMock()
        mock.writeJournal(to: folder, redactingHeaders: [])
        #expect(mock.journalFolder == folder)
        mock.addResponses(forPath: "/a", host: "api.example.com") { MockResponse.plaintext("a") }
        try await mock.urlSession.fetch("https://api.example.com/a", headers: ["Authorization": "kept"])
        mock.stopWritingJournal()
        try await mock.urlSession.fetch("https://api.example.com/b")
        let reader = JournalFolderReader(folder)
        #expect(reader.journalEntries().map(\.request.path) == ["/a"])
        #expect(reader.journalEntries().first?.request.headers["Authorization"] == "kept")

        try folder.store("user_id", value: "12345")
        let userID: String? = reader.retrieve("user_id")
        #expect(userID == "12345")
        try folder.store("user_id", value: "67890")
        #expect(folder.retrieve("user_id", as: String.self) == "67890")
        #expect(folder.retrieve("user_id", as: Int.self) == nil)
        #expect(folder.retrieve("nothing", as: String.self) == nil)
        let badKey = #expect(throws: HTTPMockError.self) { try folder.store("../escape", value: 1) }
        #expect(badKey?.code == .invalidContext)
        folder.clearContext()
        #expect(folder.retrieve("user_id", as: String.self) == nil)
        reader.removeAllEntries()
        #expect(reader.journalEntries().isEmpty)
    }
}
