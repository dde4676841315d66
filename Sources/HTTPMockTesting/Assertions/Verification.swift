/// The one check behind every assertion: count the journal entries a filter matches and report a mismatch.
enum Verification {
    /// Builds the filter, reporting a bad URL or pattern as a failure at `site`.
    static func filter(_ build: () throws(HTTPMockError) -> RequestExpectation, assertion: String, site: AssertionSite) -> RequestExpectation? {
        do {
            return try build()
        } catch {
            FailureReporter.fail("\(assertion) failed: \(error.message)", at: site)
            return nil
        }
    }

    /// The entries of `journal` that `filter` matches; a failure at `site` when their number is not `count`.
    @discardableResult
    static func verify(_ assertion: String, _ build: () throws(HTTPMockError) -> RequestExpectation, count: RequestCount,
                       in journal: (any RequestJournal)?, message: String, site: AssertionSite) -> [JournalEntry] {
        guard let filter = filter(build, assertion: assertion, site: site) else { return [] }
        let named = journal
        let journal = journal ?? HTTPMock.defaultJournal
        let entries = journal.journalEntries()
        let matching = entries.filter(filter.matches)
        if !count.accepts(matching.count) {
            let failure = "\(assertion) failed: expected \(filter.phrase(count)), found \(matching.count)"
            let details = explain(matching: matching, all: entries, filter: filter, journal: journal) + whichMock(named: named)
            FailureReporter.fail(FailureReporter.compose(failure, message: message, details: details), at: site)
        }
        return matching
    }

    /// When no journal was named and no mock scope is active: which mock was read, and how to read another.
    static func whichMock(named journal: (any RequestJournal)?) -> [String] {
        guard journal == nil, HTTPMock.current == nil else { return [] }
        return ["No `in:` was given and no mock scope is active, so this read HTTPMock.shared. If the code under test "
                + "uses another mock, pass it with `in: mock`, or give the test a mock of its own with the .httpMock "
                + "trait (withHTTPMock in XCTest)."]
    }

    /// What the journal holds: the matching requests when there were too many, else the closest ones.
    static func explain(matching: [JournalEntry], all: [JournalEntry], filter: RequestExpectation, journal: any RequestJournal,
                        since: String = "") -> [String] {
        let name = journal.journalName.prefix(1).uppercased() + journal.journalName.dropFirst()
        let shown = 5
        if !matching.isEmpty {
            var lines = ["Matching requests in \(journal.journalName) (\(matching.count)):"]
            lines += matching.prefix(shown).map { "  " + line(for: $0) }
            if matching.count > shown { lines.append("  … and \(matching.count - shown) more") }
            return lines
        }
        if all.isEmpty { return ["\(name) saw no request\(since.isEmpty ? " at all" : since)."] }
        let ranked = all.map { (entry: $0, differences: filter.differences(from: $0.request)) }
            .sorted { $0.differences.count < $1.differences.count }
        var lines = ["\(name) saw \(all.count) request(s)\(since); the closest:"]
        for (entry, differences) in ranked.prefix(shown) {
            lines.append("  " + line(for: entry))
            lines += differences.map { "      \($0)" }
        }
        if all.count > shown { lines.append("  … and \(all.count - shown) more") }
        return lines
    }

    /// `#3 POST https://api.example.com/login → 404 (no stub answered)`
    static func line(for entry: JournalEntry) -> String {
        let outcome: String
        switch entry.outcome {
        case .response(let status, _, _): outcome = "\(status)"
        case .failure(let error): outcome = "error \(error)"
        case nil: outcome = "in flight"
        }
        let truncation = entry.bodyTruncation.map { " (\($0))" } ?? ""
        return "#\(entry.id) \(entry.request.method) \(entry.request.url.absoluteString) → \(outcome) (\(entry.resolution))\(truncation)"
    }
}
