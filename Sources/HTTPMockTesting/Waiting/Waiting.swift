import Foundation

/// Waits for a journal entry without polling an in-process mock: it listens to the journal's changes.
enum Waiting {
    /// The first entry `filter` matches (completed, if `completed`), after `mark` if given; `nil` after `timeout`.
    /// `until`, when given, is a further condition on the entry (a stream's progress).
    static func entry(matching filter: RequestExpectation, in journal: any RequestJournal, after mark: JournalMark?,
                      completed: Bool, until: (@Sendable (JournalEntry) -> Bool)? = nil,
                      timeout: TimeInterval) async -> JournalEntry? {
        let accepts: @Sendable (JournalEntry) -> Bool = { entry in
            filter.matches(entry) && (!completed || entry.isComplete) && (until?(entry) ?? true)
                && (mark.map { journal.journalEntry(entry, isAfter: $0) } ?? true)
        }
        // Listen first, then look at what is already there, so nothing slips between the two.
        let changes = journal.journalChanges()
        let existing = mark.map { journal.journalEntries(after: $0) } ?? journal.journalEntries()
        if let found = existing.first(where: accepts) { return found }
        let nanoseconds = UInt64(max(timeout, 0) * 1_000_000_000)
        return await withTaskGroup(of: JournalEntry?.self) { group in
            group.addTask {
                for await entry in changes where accepts(entry) { return entry }
                return nil
            }
            group.addTask {
                try? await Task.sleep(nanoseconds: nanoseconds)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Waits, and reports a failure at `site` on timeout.
    static func wait(_ function: String, _ build: () throws(HTTPMockError) -> RequestExpectation, in journal: (any RequestJournal)?,
                     after mark: JournalMark? = nil, completed: Bool,
                     until: (condition: @Sendable (JournalEntry) -> Bool, what: String)? = nil,
                     timeout: TimeInterval, message: String, site: AssertionSite) async -> JournalEntry? {
        guard let filter = Verification.filter(build, assertion: function, site: site) else { return nil }
        let named = journal
        let journal = journal ?? HTTPMock.defaultJournal
        if let found = await entry(matching: filter, in: journal, after: mark, completed: completed,
                                   until: until?.condition, timeout: timeout) {
            return found
        }
        let target = String(filter.phrase(.exactly(1)).dropFirst("exactly 1 ".count))
        var what = completed ? "answer to a \(target)" : target
        if let until {
            what = "\(target) whose \(until.what)"
            if let streaming = (mark.map { journal.journalEntries(after: $0) } ?? journal.journalEntries())
                .last(where: filter.matches) {
                let record = streaming.stream.map { "\($0.partCount) part(s), \($0.ending.map { "\($0)" } ?? "still open")" }
                    ?? "no streamed response"
                FailureReporter.fail(FailureReporter.compose(
                    "\(function) failed: no \(what) within \(format(timeout)) s",
                    message: message,
                    details: ["The latest matching request's stream: " + record + ": " + Verification.line(for: streaming)]
                        + Verification.whichMock(named: named)), at: site)
                return nil
            }
        }
        let all = mark.map { journal.journalEntries(after: $0) } ?? journal.journalEntries()
        var details = Verification.explain(matching: [], all: all, filter: filter, journal: journal,
                                          since: mark == nil ? "" : " since the action started")
        if completed, let pending = all.first(where: filter.matches) {
            details = ["A matching request arrived but was not answered in time: " + Verification.line(for: pending)]
        }
        FailureReporter.fail(FailureReporter.compose("\(function) failed: no \(what) within \(format(timeout)) s",
                                                     message: message, details: details + Verification.whichMock(named: named)),
                             at: site)
        return nil
    }

    static func format(_ seconds: TimeInterval) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
