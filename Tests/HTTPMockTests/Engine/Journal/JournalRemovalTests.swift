import Foundation
import Testing
@testable import HTTPMock

/// Removing entries from the journal (WireMock's `DELETE /__admin/requests/{id}` and `requests/remove`): the others
/// keep their identifiers, the ring keeps its capacity, and a removed entry's completion changes nothing.
@Suite struct JournalRemovalTests {
    private func request(_ path: String) -> CapturedRequest {
        CapturedRequest(method: "GET", url: URL(string: "https://api.example.com\(path)")!)
    }

    @Test func removedEntriesGoAndTheOthersKeepTheirIdentifiers() {
        var journal = Journal(capacity: 4)
        let ids = ["/a", "/b", "/c"].map { journal.append(request($0), resolution: .passedThrough) }
        let removed = journal.remove { $0.request.url.path == "/b" }
        #expect(removed.map(\.id) == [ids[1]])
        #expect(journal.count == 2)
        #expect(journal.entries.map(\.id) == [ids[0], ids[2]])
        #expect(journal.entry(ids[1]) == nil)
        #expect(journal.entry(ids[2])?.request.url.path == "/c")
        #expect(journal.entries(from: ids[1]).map(\.id) == [ids[2]])
        // Completing a removed entry changes nothing.
        journal.complete(ids[1], with: .failure(URLError(.cancelled)))
        #expect(journal.entries.count == 2)
    }

    @Test func theRingDropsHolesAndEntriesOldestFirst() {
        var journal = Journal(capacity: 3)
        let first = ["/a", "/b", "/c"].map { journal.append(request($0), resolution: .passedThrough) }
        _ = journal.remove { $0.id == first[0] }
        // Full: the hole the removal left is the oldest slot, and goes first.
        let d = journal.append(request("/d"), resolution: .passedThrough)
        #expect(journal.entries.map(\.request.url.path) == ["/b", "/c", "/d"])
        #expect(journal.count == 3)
        let e = journal.append(request("/e"), resolution: .passedThrough)
        #expect(journal.entries.map(\.request.url.path) == ["/c", "/d", "/e"])
        #expect(journal.entry(d)?.request.url.path == "/d" && journal.entry(e)?.request.url.path == "/e")
        _ = journal.remove { $0.request.url.path == "/d" }
        journal.capacity = 2
        #expect(journal.entries.map(\.request.url.path) == ["/e"])
        #expect(journal.count == 1)
        journal.capacity = 5
        let f = journal.append(request("/f"), resolution: .passedThrough)
        #expect(journal.entries.map(\.request.url.path) == ["/e", "/f"])
        #expect(journal.entry(f)?.request.url.path == "/f")
    }

    @Test func theMockRemovesThroughTheEngine() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/x") { MockResponse.plaintext("x", lifetime: .eternal) }
        for _ in 0..<3 { _ = try await mock.urlSession.data(from: URL(string: "https://api.example.com/x")!) }
        let ids = mock.journal.map(\.id)
        let removed = mock.removeJournalEntries { $0.id == ids[0] || $0.id == ids[2] }
        #expect(removed.map(\.id) == [ids[0], ids[2]])
        #expect(mock.journal.map(\.id) == [ids[1]])
    }
}
