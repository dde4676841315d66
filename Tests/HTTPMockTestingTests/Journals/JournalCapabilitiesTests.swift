import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMockTesting

/// What users of HTTPAssertion rely on: an allow-list of journaled hosts, the shared context's keys, waiting for a
/// context value, attaching an exchange to a test, and the most recent requests first.
@Suite struct JournalCapabilitiesTests {
    private func makeMock() -> HTTPMock {
        let mock = HTTPMock()
        mock.unmockedPolicy = .mock(.empty(status: .noContent))
        return mock
    }

    @Test func onlyAllowedHostsAreJournaled() async throws {
        let mock = makeMock()
        mock.journaledHosts = ["api.example.com", "*.example.org"]
        for url in ["https://api.example.com/a", "https://cdn.example.org/b", "https://tracker.example.net/c", "https://example.org/d"] {
            #expect(try await mock.urlSession.fetch(url).status == 204)   // answered either way
        }
        #expect(mock.journal.map(\.request.url.absoluteString) == ["https://api.example.com/a", "https://cdn.example.org/b"])
        #expect(mock.journaledHosts == ["api.example.com", "*.example.org"])
    }

    @Test func onlyAllowedHostsAreWrittenToTheJournalFolder() async throws {
        let directory = try Fixture.makeFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mock = makeMock()
        mock.journaledHosts = ["api.example.com"]
        mock.writeJournal(to: try JournalFolder(directory))
        try await mock.urlSession.fetch("https://api.example.com/a")
        try await mock.urlSession.fetch("https://tracker.example.net/c")
        let reader = JournalFolderReader(try JournalFolder(directory))
        #expect(reader.journalEntries().map(\.request.host) == ["api.example.com"])
    }

    @Test func anInvalidHostPatternChangesNothingAndIsReported() {
        let mock = makeMock()
        mock.journaledHosts = ["api.example.com"]
        mock.journaledHosts = ["api..example.com"]
        #expect(mock.journaledHosts == ["api.example.com"])
        #expect(mock.registrationErrors.count == 1)
        mock.journaledHosts = nil
        #expect(mock.journaledHosts == nil)
    }

    @Test func contextKeysAreListed() throws {
        let directory = try Fixture.makeFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = try JournalFolder(directory)
        #expect(folder.contextKeys.isEmpty)
        try folder.store("user_id", value: "12345")
        try folder.store("session", value: ["token": "abc"])
        #expect(folder.contextKeys == ["session", "user_id"])
        #expect(JournalFolderReader(folder).contextKeys == ["session", "user_id"])
        folder.clearContext()
        #expect(folder.contextKeys.isEmpty)
    }

    @Test func waitingForAContextValueToChange() async throws {
        let directory = try Fixture.makeFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = try JournalFolder(directory)
        try folder.store("session", value: "s-1")
        let reader = JournalFolderReader(folder)
        let changed = try await waitForContextChange("session", as: String.self, in: reader) {
            try folder.store("session", value: "s-2")
        }
        #expect(changed == "s-2")
        let appeared = try await waitForContextChange("user_id", as: Int.self, in: reader) {
            try folder.store("user_id", value: 42)
        }
        #expect(appeared == 42)
    }

    @Test func aContextValueThatDoesNotChangeFailsTheWait() async throws {
        let directory = try Fixture.makeFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = try JournalFolder(directory)
        try folder.store("session", value: "s-1")
        let reader = JournalFolderReader(folder)
        let line = #line + 2
        await expectFailure(atLine: line, containing: ["context value \"session\"", "did not change", "Keys with a value: session"]) {
            let value = try? await waitForContextChange("session", as: String.self, in: reader, timeout: 0) {
                try folder.store("session", value: "s-1")   // the same value again is no change
            }
            #expect(value == nil)
        }
    }

    @Test func anEntryAsAttachedText() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/login", host: "api.example.com", method: .post) {
            MockResponse.plaintext("welcome", headers: ["Set-Cookie": "id=1"])
        }
        try await mock.urlSession.fetch("https://api.example.com/login", method: "POST",
                                         headers: ["Authorization": "Bearer secret", "Accept": "text/plain"],
                                         body: Data("user=ann".utf8))
        let entry = try #require(mock.journal.first)
        let text = EntryText.render(entry)
        #expect(text.hasPrefix("POST https://api.example.com/login\n"))
        #expect(text.contains("Authorization: <redacted>"))
        #expect(text.contains("Accept: text/plain"))
        #expect(text.contains("\n\nuser=ann\n"))
        #expect(text.contains("Resolution: stub #0 api.example.com/login"))
        #expect(text.contains("Status 200"))
        #expect(text.contains("Set-Cookie: <redacted>"))
        #expect(text.hasSuffix("\n\nwelcome\n"))
        #expect(EntryText.name(of: entry) == "request 0 POST api.example.com")
        entry.attach()   // in a Swift Testing test: an attachment, never an issue
    }

    @Test func theMostRecentRequestsFirst() async throws {
        let mock = makeMock()
        for page in 1...5 { try await mock.urlSession.fetch("https://api.example.com/items?page=\(page)") }
        try await mock.urlSession.fetch("https://other.example.com/x")
        let recent = HTTPRequests(.host("api.example.com"), in: mock, newestFirst: true, limit: 3)
        #expect(recent.map { $0.request.queryValues(for: "page") } == [["5"], ["4"], ["3"]])
        #expect(HTTPRequests(url: "https://api.example.com/items", in: mock, limit: 2).map { $0.request.queryValues(for: "page") } == [["1"], ["2"]])
        #expect(HTTPRequests(urlPattern: "other", in: mock, newestFirst: true).count == 1)
        #expect(HTTPRequests(.host("api.example.com"), in: mock, newestFirst: true).count == 5)
    }
}
