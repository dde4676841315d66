extension HTTPMock {
    /// The requests this mock saw, oldest first, with how each was answered.
    public var journal: [JournalEntry] {
        core.engine.state.withLock { $0.journal.entries }
    }

    /// The requests this mock saw, oldest first.
    public var requests: [CapturedRequest] { journal.map(\.request) }

    /// How many journal entries are kept; older ones are dropped first. Default 10,000.
    public var journalCapacity: Int {
        get { core.engine.state.withLock { $0.journal.capacity } }
        set { core.engine.state.withLock { $0.journal.capacity = newValue } }
    }

    /// Forgets the journal.
    public func clearJournal() {
        core.engine.state.withLock { $0.journal.removeAll() }
    }
}
