import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

@Suite struct JournalTests {
    private func request(_ path: String, method: String = "GET") -> CapturedRequest {
        CapturedRequest(method: method, url: URL(string: "https://api.example.com\(path)")!)
    }

    @Test func ringBufferKeepsTheNewestEntriesInOrder() {
        var journal = Journal(capacity: 3)
        for index in 0..<7 { _ = journal.append(request("/\(index)"), resolution: .passedThrough) }
        #expect(journal.entries.map(\.id) == [4, 5, 6])
        #expect(journal.entries.map(\.request.path) == ["/4", "/5", "/6"])
        #expect(journal.entries(from: 5).map(\.id) == [5, 6])
        #expect(journal.entries(from: 0).map(\.id) == [4, 5, 6])
        #expect(journal.entry(3) == nil)
        #expect(journal.upcomingID == 7)
    }

    @Test func completingAnEntryAfterWrapAroundFindsTheRightSlot() {
        var journal = Journal(capacity: 2)
        let ids = (0..<5).map { journal.append(request("/\($0)"), resolution: .passedThrough) }
        journal.complete(ids[4], with: .response(status: 201, headers: [:], body: Data()))
        journal.complete(ids[0], with: .response(status: 500, headers: [:], body: Data()))  // dropped: ignored
        #expect(journal.entries.map(\.statusCode) == [nil, 201])
        #expect(journal.entry(4)?.completedAt != nil)
    }

    @Test func shrinkingAndGrowingTheCapacityKeepsTheNewest() {
        var journal = Journal(capacity: 5)
        for index in 0..<5 { _ = journal.append(request("/\(index)"), resolution: .passedThrough) }
        journal.capacity = 2
        #expect(journal.entries.map(\.id) == [3, 4])
        journal.capacity = 4
        for index in 5..<8 { _ = journal.append(request("/\(index)"), resolution: .passedThrough) }
        #expect(journal.entries.map(\.id) == [4, 5, 6, 7])
        journal.capacity = 0
        _ = journal.append(request("/x"), resolution: .passedThrough)
        #expect(journal.entries.isEmpty)
        #expect(journal.upcomingID == 9)
    }

    @Test func aHundredThousandEntriesStayCapped() {
        var journal = Journal(capacity: 1_000)
        let template = request("/bulk")
        for _ in 0..<100_000 { _ = journal.append(template, resolution: .passedThrough) }
        #expect(journal.count == 1_000)
        #expect(journal.entries.first?.id == 99_000)
        #expect(journal.entries.last?.id == 99_999)
    }

    @Test func mockJournalRecordsStubResponseAndOutcome() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/user", host: "api.example.com", method: .post) {
            MockResponse.plaintext("created", status: .created)
        }
        var request = URLRequest(url: URL(string: "https://api.example.com/user?x=1")!)
        request.httpMethod = "POST"
        request.httpBody = Data("name=Alice".utf8)
        request.setValue("yes", forHTTPHeaderField: "X-Test")
        _ = try await mock.urlSession.data(for: request)
        let entry = try #require(mock.journal.first)
        #expect(entry.request.method == "POST")
        #expect(entry.request.bodyText == "name=Alice")
        #expect(entry.request.headers["x-test"] == "yes")
        #expect(entry.resolution.isMatched)
        #expect(entry.report == nil)
        #expect(entry.statusCode == 201)
        #expect(entry.responseBody == Data("created".utf8))
        #expect(entry.completedAt != nil)
        #expect(mock.nextJournalID == 1)
    }

    @Test func observersHearAppendAndCompletion() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/ping", host: "api.example.com") { MockResponse.plaintext("pong") }
        let events = Locked<[String]>([])
        let observation = mock.observeJournal { event, entry in
            events.withLock { $0.append("\(event) #\(entry.id) \(entry.statusCode ?? 0)") }
        }
        _ = try await mock.urlSession.data(from: URL(string: "https://api.example.com/ping")!)
        observation.remove()
        _ = try await mock.urlSession.data(from: URL(string: "https://api.example.com/ping")!)
        #expect(events.current == ["appended #0 0", "completed #0 200"])
    }

    @Test func stubUsageCountsHits() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/used", host: "api.example.com") { MockResponse.plaintext("a", lifetime: .eternal) }
        mock.addResponses(forPath: "/unused", host: "api.example.com") { MockResponse.plaintext("b") }
        _ = try await mock.urlSession.data(from: URL(string: "https://api.example.com/used")!)
        _ = try await mock.urlSession.data(from: URL(string: "https://api.example.com/used")!)
        #expect(mock.stubUsage.map(\.hits) == [2, 0])
        #expect(mock.unusedStubs.map(\.summary) == ["api.example.com/unused"])
    }
}
