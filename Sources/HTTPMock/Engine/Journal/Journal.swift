import Foundation

/// The requests a mock saw, oldest first, up to a capacity (older entries are dropped first).
struct Journal: Sendable {
    private(set) var entries: [JournalEntry] = []
    private var firstID = 0
    private var nextID = 0
    var capacity: Int

    init(capacity: Int = 10_000) { self.capacity = capacity }

    mutating func append(_ request: CapturedRequest, resolution: JournalEntry.Resolution) -> Int {
        let id = nextID
        nextID += 1
        entries.append(JournalEntry(id: id, request: request, receivedAt: Date(), resolution: resolution))
        trim()
        return id
    }

    mutating func complete(_ id: Int, with outcome: JournalEntry.Outcome) {
        let index = id - firstID
        guard entries.indices.contains(index), entries[index].id == id else { return }
        entries[index].outcome = outcome
        entries[index].completedAt = Date()
    }

    mutating func removeAll() {
        firstID = nextID
        entries.removeAll()
    }

    private mutating func trim() {
        let excess = entries.count - max(capacity, 0)
        guard excess > 0 else { return }
        entries.removeFirst(excess)
        firstID += excess
    }
}
