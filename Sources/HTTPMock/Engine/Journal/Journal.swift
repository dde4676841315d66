import Foundation

/// The requests a mock saw, oldest first, up to a capacity (older entries are dropped first).
///
/// A ring buffer: appending, completing and dropping the oldest entry are O(1), whatever the capacity.
struct Journal: Sendable {
    /// Slots of the ring; `start` is the oldest slot, `occupied` slots follow it (wrapping around). A slot is `nil`
    /// once its entry was removed (``remove(where:)``): identifiers stay where they are, so the slots after it keep
    /// theirs; the hole goes when the ring drops the oldest slots.
    private var slots: [JournalEntry?] = []
    private var start = 0
    private var occupied = 0
    /// The entries kept (holes left by removals not counted).
    private(set) var count = 0
    /// The identifier of the oldest entry kept.
    private var firstID = 0
    private var nextID = 0

    /// How many entries are kept. Setting it drops the oldest entries beyond it.
    var capacity: Int {
        didSet {
            capacity = max(capacity, 0)
            guard capacity != oldValue else { return }
            let kept = Array(orderedSlots.suffix(capacity))
            bodyBytes = kept.reduce(0) { $0 + ($1?.request.body?.count ?? 0) }
            firstID += occupied - kept.count
            slots = kept
            start = 0
            occupied = kept.count
            count = kept.reduce(0) { $0 + ($1 == nil ? 0 : 1) }
        }
    }

    /// Only requests to these hosts are journaled; `nil`: every request.
    var hosts: [HostGlob]?

    /// The most bytes of request bodies kept whole, over every entry. A body that would go past it is kept in
    /// part: its first ``truncatedPrefix`` bytes, with its size and digest (``JournalEntry/bodyTruncation``).
    var bodyCapacity: Int = Journal.defaultBodyCapacity {
        didSet { bodyCapacity = max(bodyCapacity, 0) }
    }
    /// Bytes of request bodies the kept entries hold.
    private(set) var bodyBytes = 0

    static let defaultBodyCapacity = 64 << 20
    /// How much of a body past ``bodyCapacity`` is kept.
    static let truncatedPrefix = 1_024

    /// What ``append(_:resolution:report:)`` returns for a request it leaves out: no entry has it.
    static let notJournaled = -1

    init(capacity: Int = 10_000) { self.capacity = max(capacity, 0) }

    /// Every entry kept, oldest first.
    var entries: [JournalEntry] {
        var result: [JournalEntry] = []
        result.reserveCapacity(count)
        for offset in 0..<occupied { if let entry = slots[(start + offset) % slots.count] { result.append(entry) } }
        return result
    }

    /// Every slot, oldest first, holes included.
    private var orderedSlots: [JournalEntry?] {
        (0..<occupied).map { slots[(start + $0) % slots.count] }
    }

    /// Newest first, those `keep` picks: `offset` of them skipped, then at most `limit`. Only the page is copied.
    func newestFirst(offset: Int, limit: Int, where keep: (JournalEntry) -> Bool) -> [JournalEntry] {
        var page: [JournalEntry] = []
        page.reserveCapacity(min(limit, count))
        var skipped = 0
        var position = occupied
        while position > 0, page.count < limit {
            position -= 1
            guard let entry = slots[(start + position) % slots.count], keep(entry) else { continue }
            if skipped < offset { skipped += 1 } else { page.append(entry) }
        }
        return page
    }

    /// Entries whose identifier is `id` or later, oldest first.
    func entries(from id: Int) -> [JournalEntry] {
        let skip = min(max(id - firstID, 0), occupied)
        var result: [JournalEntry] = []
        result.reserveCapacity(occupied - skip)
        for offset in skip..<occupied { if let entry = slots[(start + offset) % slots.count] { result.append(entry) } }
        return result
    }

    /// Removes the entries `shouldRemove` picks and returns them, oldest first; the others keep their identifiers.
    mutating func remove(where shouldRemove: (JournalEntry) -> Bool) -> [JournalEntry] {
        var removed: [JournalEntry] = []
        for offset in 0..<occupied {
            let slot = (start + offset) % slots.count
            guard let entry = slots[slot], shouldRemove(entry) else { continue }
            removed.append(entry)
            bodyBytes -= entry.request.body?.count ?? 0
            slots[slot] = nil
            count -= 1
        }
        return removed
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
        guard capacity > 0 else {
            firstID = nextID
            return id
        }
        // When full, the oldest entry's bytes go with it before the new body is weighed.
        let freed = occupied == capacity ? slots[start]?.request.body?.count ?? 0 : 0
        let entry: JournalEntry
        if let body = request.body, bodyBytes - freed + body.count > bodyCapacity, body.count > Self.truncatedPrefix {
            let kept = CapturedRequest(method: request.method, url: request.url, headers: request.headers,
                                       body: Data(body.prefix(Self.truncatedPrefix)))
            entry = JournalEntry(id: id, request: kept,
                                 bodyTruncation: .init(fullSize: body.count, digest: FNV1a.digest(of: body)),
                                 receivedAt: Date(), resolution: resolution, report: report)
        } else if request.sentBody != nil {
            // A body that came compressed is kept as read (inflated), its bytes counted: the compressed ones only
            // went on with the live request.
            var kept = request
            kept.sentBody = nil
            entry = JournalEntry(id: id, request: kept, bodyTruncation: nil, receivedAt: Date(), resolution: resolution, report: report)
        } else {
            // The request itself, not a copy of a copy: most entries keep it whole.
            entry = JournalEntry(id: id, request: request, bodyTruncation: nil, receivedAt: Date(),
                                 resolution: resolution, report: report)
        }
        bodyBytes += entry.request.body?.count ?? 0
        if occupied < capacity {
            if slots.count < capacity, start == 0, occupied == slots.count {
                slots.append(consume entry)
            } else {
                slots[(start + occupied) % slots.count] = consume entry
            }
            occupied += 1
            count += 1
        } else {
            // Full: the new entry takes the oldest slot (an entry, or a hole a removal left).
            bodyBytes -= slots[start]?.request.body?.count ?? 0
            if slots[start] != nil { count -= 1 }
            count += 1
            slots[start] = consume entry
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

    /// Changes the stream record of entry `id`, if the journal still has it.
    mutating func updateStream(_ id: Int, _ change: (inout StreamRecord?) -> Void) {
        guard let slot = slot(of: id), slots[slot] != nil else { return }
        change(&slots[slot]!.stream)
    }

    /// Adds a webhook that entry `id`'s stub sent, if the journal still has the entry.
    mutating func addWebhook(_ id: Int, _ record: WebhookRecord) {
        guard let slot = slot(of: id), slots[slot] != nil else { return }
        slots[slot]!.webhooks.append(record)
    }

    /// Changes the WebSocket record of entry `id`, if the journal still has it.
    mutating func updateWebSocket(_ id: Int, _ change: (inout WebSocketRecord?) -> Void) {
        guard let slot = slot(of: id), slots[slot] != nil else { return }
        change(&slots[slot]!.webSocket)
    }

    mutating func removeAll() {
        firstID = nextID
        bodyBytes = 0
        slots = []
        start = 0
        occupied = 0
        count = 0
    }

    private func slot(of id: Int) -> Int? {
        let offset = id - firstID
        guard offset >= 0, offset < occupied else { return nil }
        return (start + offset) % slots.count
    }
}

/// FNV-1a, 64 bits: a short, fast, non-cryptographic digest of a body the journal kept only in part, enough to
/// tell two bodies apart in a report (CryptoKit is not on Linux). Written `fnv1a64:` and 16 hexadecimal digits.
enum FNV1a {
    static func hash(of data: Data) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        // Over the raw bytes: `Data`'s own iterator costs about 60 instructions a byte, this loop about 4.
        data.withUnsafeBytes { bytes in
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
        }
        return hash
    }

    static func digest(of data: Data) -> String {
        let hex = String(hash(of: data), radix: 16)
        return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
