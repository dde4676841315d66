import Foundation

/// The requests a mock saw, oldest first, up to a capacity (older entries are dropped first).
///
/// A ring buffer: appending, completing and dropping the oldest entry are O(1), whatever the capacity.
struct Journal: Sendable {
    /// Slots of the ring; `start` is the oldest entry, `count` entries follow it (wrapping around).
    private var slots: [JournalEntry?] = []
    private var start = 0
    private(set) var count = 0
    /// The identifier of the oldest entry kept.
    private var firstID = 0
    private var nextID = 0

    /// How many entries are kept. Setting it drops the oldest entries beyond it.
    var capacity: Int {
        didSet {
            capacity = max(capacity, 0)
            guard capacity != oldValue else { return }
            let kept = entries.suffix(capacity)
            firstID += count - kept.count
            slots = Array(kept)
            start = 0
            count = kept.count
        }
    }

    /// Only requests to these hosts are journaled; `nil`: every request.
    var hosts: [HostGlob]?

    /// What ``append(_:resolution:report:)`` returns for a request it leaves out: no entry has it.
    static let notJournaled = -1

    init(capacity: Int = 10_000) { self.capacity = max(capacity, 0) }

    /// Every entry kept, oldest first.
    var entries: [JournalEntry] {
        var result: [JournalEntry] = []
        result.reserveCapacity(count)
        for offset in 0..<count { result.append(slots[(start + offset) % slots.count]!) }
        return result
    }

    /// Entries whose identifier is `id` or later, oldest first.
    func entries(from id: Int) -> [JournalEntry] {
        let skip = min(max(id - firstID, 0), count)
        var result: [JournalEntry] = []
        result.reserveCapacity(count - skip)
        for offset in skip..<count { result.append(slots[(start + offset) % slots.count]!) }
        return result
    }

    /// The identifier the next entry will get.
    var upcomingID: Int { nextID }

    func entry(_ id: Int) -> JournalEntry? {
        guard let slot = slot(of: id) else { return nil }
        return slots[slot]
    }

    mutating func append(_ request: CapturedRequest, resolution: JournalEntry.Resolution,
                         report: UnmatchedReport? = nil) -> Int {
        if let hosts, !hosts.contains(where: { Condition.host($0).test(request) }) { return Self.notJournaled }
        let id = nextID
        nextID += 1
        let entry = JournalEntry(id: id, request: request, receivedAt: Date(), resolution: resolution, report: report)
        guard capacity > 0 else {
            firstID = nextID
            return id
        }
        if count < capacity {
            if slots.count < capacity, start == 0, count == slots.count {
                slots.append(entry)
            } else {
                slots[(start + count) % slots.count] = entry
            }
            count += 1
        } else {
            // Full: the new entry takes the oldest one's slot.
            slots[start] = entry
            start = (start + 1) % slots.count
            firstID += 1
        }
        return id
    }

    mutating func complete(_ id: Int, with outcome: JournalEntry.Outcome) {
        guard let slot = slot(of: id) else { return }
        slots[slot]?.outcome = outcome
        slots[slot]?.completedAt = Date()
    }

    mutating func removeAll() {
        firstID = nextID
        slots = []
        start = 0
        count = 0
    }

    private func slot(of id: Int) -> Int? {
        let offset = id - firstID
        guard offset >= 0, offset < count else { return nil }
        return (start + offset) % slots.count
    }
}
