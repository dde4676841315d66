import Foundation

/// Something assertions can read requests from: an ``HTTPMock`` in this process, or a ``JournalFolderReader``
/// over the journals other processes wrote.
public protocol RequestJournal: Sendable {
    /// Every entry, oldest first.
    func journalEntries() -> [JournalEntry]
    /// Where "after now" starts, for the perform-an-action forms.
    func journalMark() -> JournalMark
    /// Entries that arrived after `mark`, oldest first.
    func journalEntries(after mark: JournalMark) -> [JournalEntry]
    /// Yields entries as they are appended or completed, until the consumer stops iterating.
    func journalChanges() -> AsyncStream<JournalEntry>
    /// How failure messages name this journal (`this mock`, `journal folder /tmp/x`).
    var journalName: String { get }
    /// Whether `entry` arrived after `mark`. Default: by time.
    func journalEntry(_ entry: JournalEntry, isAfter mark: JournalMark) -> Bool
}

extension RequestJournal {
    /// Whether `entry` came after `mark`.
    public func journalEntry(_ entry: JournalEntry, isAfter mark: JournalMark) -> Bool { entry.receivedAt >= mark.time }
}

/// A point in a journal: entries after it arrived after it was taken.
public struct JournalMark: Sendable {
    /// The next entry identifier, for an in-process mock.
    public let position: Int
    /// The time, for journals written by other processes.
    public let time: Date

    /// A mark at this journal position and time.
    public init(position: Int, time: Date) {
        self.position = position
        self.time = time
    }
}

extension HTTPMock: RequestJournal {
    /// The mock's journal.
    public func journalEntries() -> [JournalEntry] { journal }

    /// A mark after the mock's last entry.
    public func journalMark() -> JournalMark { JournalMark(position: nextJournalID, time: Date()) }

    /// The mock's entries after `mark`.
    public func journalEntries(after mark: JournalMark) -> [JournalEntry] { journal(from: mark.position) }

    /// Pushed by the mock as requests are journaled: no polling.
    public func journalChanges() -> AsyncStream<JournalEntry> {
        let (stream, continuation) = AsyncStream.makeStream(of: JournalEntry.self)
        let observation = observeJournal { _, entry in continuation.yield(entry) }
        continuation.onTermination = { _ in observation.remove() }
        return stream
    }

    /// `this mock`, in failure messages.
    public var journalName: String { "this mock" }

    /// Whether `entry` came after `mark`.
    public func journalEntry(_ entry: JournalEntry, isAfter mark: JournalMark) -> Bool { entry.id >= mark.position }
}

extension HTTPMock {
    /// The mock of the running test, set by the `.httpMock` trait (and by `withHTTPMock`).
    ///
    /// ```swift
    /// @Test(.httpMock) func loadsProfile() async throws {
    ///     let mock = try #require(HTTPMock.current)
    ///     mock.addResponses(forPath: "/me", host: "api.example.com") { MockResponse.plaintext("Alice") }
    /// }
    /// ```
    @TaskLocal public static var current: HTTPMock?

    /// The journal assertions read when none is given: the current test's mock, else ``shared``.
    static var defaultJournal: any RequestJournal { current ?? shared }
}
