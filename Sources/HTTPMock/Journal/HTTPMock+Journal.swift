import Foundation

extension HTTPMock {
    /// The requests this mock saw, oldest first, with how each was answered.
    ///
    /// ```swift
    /// let posts = mock.journal.filter { $0.request.method == "POST" }
    /// #expect(posts.count == 1)
    /// #expect(posts[0].statusCode == 201)
    /// ```
    public var journal: [JournalEntry] {
        core.engine.journalEntries
    }

    /// A page of the journal, newest first (WireMock's `GET /__admin/requests`): of the entries received after
    /// `date`, `offset` skipped and at most `limit` kept; `total` counts every kept entry. Costs its page only.
    package func journalPage(receivedAfter date: Date, offset: Int, limit: Int) -> (entries: [JournalEntry], total: Int) {
        core.engine.journalPage(receivedAfter: date, offset: offset, limit: limit)
    }

    /// Journal entries whose ``JournalEntry/id`` is `id` or later, oldest first.
    ///
    /// Note ``nextJournalID`` before an action, then read what the action caused:
    ///
    /// ```swift
    /// let mark = mock.nextJournalID
    /// try await client.refresh()
    /// let caused = mock.journal(from: mark)
    /// ```
    public func journal(from id: Int) -> [JournalEntry] {
        core.engine.journalEntries(from: id)
    }

    /// The ``JournalEntry/id`` the next request will get.
    public var nextJournalID: Int {
        core.engine.upcomingJournalID
    }

    /// The requests this mock saw, oldest first.
    public var requests: [CapturedRequest] { journal.map(\.request) }

    /// How many journal entries are kept; older ones are dropped first (in constant time). Default 10,000.
    public var journalCapacity: Int {
        get { core.engine.journalCapacity }
        set { core.engine.journalCapacity = newValue }
    }

    /// How many bytes of request bodies the journal keeps whole, over all its entries. Default 64 MiB.
    ///
    /// Past it, a body longer than 1,024 bytes is kept in part: its first 1,024 bytes in the entry's
    /// ``JournalEntry/request``, with its full size and a digest in ``JournalEntry/bodyTruncation``. Bytes come
    /// back as old entries are dropped (``journalCapacity``, ``clearJournal()``). The matchers always see the
    /// whole body; only what the journal keeps is cut. So the journal holds at most this many bytes of bodies,
    /// plus 1,024 per entry.
    ///
    /// ```swift
    /// mock.journalBodyCapacity = 512 << 20     // keep up to 512 MiB of uploads whole
    /// ```
    public var journalBodyCapacity: Int {
        get { core.engine.journalBodyCapacity }
        set { core.engine.journalBodyCapacity = newValue }
    }

    /// The hosts whose requests are journaled; `nil`, the default, journals every request.
    ///
    /// Each is a host pattern, as ``Match/host(_:)`` and `addResponses(forPath:host:)` take them:
    ///
    /// ```swift
    /// mock.journaledHosts = ["api.example.com", "*.example.org"]
    /// ```
    ///
    /// A request to another host is answered as usual but left out of the journal: it is not in ``journal``, not
    /// written to a ``JournalFolder``, and not seen by observers, assertions or end-of-test reports. An invalid
    /// pattern changes nothing and is reported like a refused registration (see ``registrationErrors``).
    public var journaledHosts: [String]? {
        get { core.engine.journalHosts?.map(\.source) }
        set {
            reportingRefusal { () throws(HTTPMockError) in
                core.engine.journalHosts = try newValue.map { patterns throws(HTTPMockError) in
                    try patterns.map { pattern throws(HTTPMockError) in try compile { () throws(GlobError) in try HostGlob(pattern) } }
                }
            }
        }
    }

    /// Forgets the journal. Entry identifiers keep counting up.
    public func clearJournal() {
        core.engine.clearJournal()
    }

    /// Forgets the journal entries `shouldRemove` picks and returns them, oldest first; the others keep their
    /// identifiers (WireMock's `DELETE /__admin/requests/{id}` and `POST /__admin/requests/remove`).
    /// - Parameter shouldRemove: whether to forget an entry; it runs under the engine's lock, so it only reads the
    ///   entry (never calls back into the mock).
    package func removeJournalEntries(where shouldRemove: (JournalEntry) -> Bool) -> [JournalEntry] {
        core.engine.removeJournalEntries(where: shouldRemove)
    }

    /// Calls `handler` each time a request is journaled and each time its response or error is delivered.
    ///
    /// The handler runs on the thread that served the request (URLSession's work queue): keep it short and never
    /// block in it. Observation stops when the returned object is released or removed.
    ///
    /// ```swift
    /// let observation = mock.observeJournal { event, entry in
    ///     if event == .completed { print(entry.request.url, entry.statusCode ?? 0) }
    /// }
    /// ```
    public func observeJournal(_ handler: @escaping @Sendable (JournalEvent, JournalEntry) -> Void) -> JournalObservation {
        let events = core.engine.journalEvents
        let token = events.add(handler)
        return JournalObservation { events.remove(token) }
    }
}

/// Keeps a journal observer alive; releasing it or calling ``remove()`` stops the observation.
public final class JournalObservation: Sendable {
    private let stop: Locked<(@Sendable () -> Void)?>

    init(stop: @escaping @Sendable () -> Void) { self.stop = Locked(stop) }

    /// Removes the observer this observation added, so it is called no more. Safe to call more than once.
    ///
    /// A handle removes what it added; the mock clears a whole collection (``HTTPMock/clearJournal()``
    /// forgets the journal's entries and leaves observers in place).
    public func remove() {
        let stop = self.stop.withLock { current -> (@Sendable () -> Void)? in
            defer { current = nil }
            return current
        }
        stop?()
    }

    deinit { remove() }
}
