import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// The samples of the Reading the Journal article, run against a real mock.
@Suite struct ReadingTheJournalSamplesTests {
    @Test func entries() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/users", host: "api.example.com") { MockResponse.plaintext("users") }
        try await mock.urlSession.fetch("https://api.example.com/users")
        try await mock.urlSession.fetch("https://api.example.com/other")
        var lines: [String] = []
        for entry in mock.journal {
            print(entry.request.method, entry.request.url, entry.statusCode ?? 0, entry.resolution)
            lines.append("\(entry.request.method) \(entry.statusCode ?? 0) \(entry.resolution)")
        }
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("GET 200 stub"))
        #expect(lines[1] == "GET 404 no stub answered")
        #expect(mock.journal[0].completedAt != nil)
        #expect(mock.journal[0].responseBody == Data("users".utf8))
    }

    @Test func nearMissReport() async throws {
        let mock = HTTPMock()
        var postUsers = URLRequest(url: URL(string: "https://api.example.com/users")!)
        postUsers.httpMethod = "POST"
        mock.addResponses(forPath: "/users", host: "api.example.com", method: .get) { MockResponse.plaintext("users") }
        _ = try await mock.urlSession.data(for: postUsers)
        let report = try #require(mock.journal.last?.report)
        #expect(report.closest.first?.differences.first?.field == .method)
        #expect(report.description.contains("method: expected GET, got POST"))
    }

    @Test func newEntries() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/users", host: "api.example.com") { MockResponse.plaintext("users", lifetime: .eternal) }
        try await mock.urlSession.fetch("https://api.example.com/users")
        let mark = mock.nextJournalID
        _ = try await mock.urlSession.data(from: URL(string: "https://api.example.com/users")!)
        let since = mock.journal(from: mark)
        #expect(since.count == 1)
        #expect(mock.journal.count == 2)
        mock.clearJournal()
        #expect(mock.journal.isEmpty)
    }

    @Test func observe() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/users", host: "api.example.com") { MockResponse.plaintext("users") }
        let completed = SampleCounter(0)
        let observation = mock.observeJournal { event, entry in
            if event == .completed { print(entry.request.url, entry.statusCode ?? 0) }
            if event == .completed { completed.withLock { $0 += 1 } }
        }
        try await mock.urlSession.fetch("https://api.example.com/users")
        #expect(completed.withLock { $0 } == 1)
        observation.remove()
        try await mock.urlSession.fetch("https://api.example.com/users")
        #expect(completed.withLock { $0 } == 1)
    }

    @Test func small() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/a", host: "**") { MockResponse.empty(lifetime: .eternal) }
        mock.journalCapacity = 500
        mock.journaledHosts = ["api.example.com", "*.example.org"]
        try await mock.urlSession.fetch("https://api.example.com/a")
        try await mock.urlSession.fetch("https://cdn.example.org/a")
        try await mock.urlSession.fetch("https://elsewhere.test/a")
        #expect(mock.journal.map(\.request.url.host) == ["api.example.com", "cdn.example.org"])
        #expect(mock.journalCapacity == 500)
    }
}

/// A value behind a lock, for the observation sample's counter.
final class SampleCounter<Value: Sendable>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
