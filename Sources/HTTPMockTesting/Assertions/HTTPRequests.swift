/// The journaled requests to `url`, oldest first, with what answered them.
///
/// ```swift
/// let searches = HTTPRequests(url: "https://api.example.com/search")
/// #expect(searches.first?.request.queryValues(for: "q") == ["swift"])
/// ```
///
/// A URL that is not absolute is reported as a test failure and gives no entries.
///
/// `newestFirst: true` lists the newest entry first; `limit` keeps at most that many entries, the first ones in
/// that order (with `newestFirst`, the most recent ones). Default: every matching entry, oldest first.
public func HTTPRequests(
    url: String,
    method: HTTPMethod? = nil,
    headers: [String: String] = [:],
    queryParameters: [String: String] = [:],
    in journal: (any RequestJournal)? = nil,
    newestFirst: Bool = false,
    limit: Int? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> [JournalEntry] {
    let site = AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let filter = Verification.filter({ () throws(HTTPMockError) in
        try RequestExpectation(url: url, method: method, headers: headers, queryParameters: queryParameters)
    }, assertion: "HTTPRequests", site: site) else { return [] }
    return select((journal ?? HTTPMock.defaultJournal).journalEntries().filter(filter.matches), newestFirst: newestFirst, limit: limit)
}

/// The journaled requests whose URL matches the regular expression `urlPattern`, oldest first.
///
/// An invalid pattern is reported as a test failure and gives no entries.
///
/// `newestFirst: true` lists the newest entry first; `limit` keeps at most that many entries, the first ones in
/// that order (with `newestFirst`, the most recent ones). Default: every matching entry, oldest first.
public func HTTPRequests(
    urlPattern: String,
    method: HTTPMethod? = nil,
    headers: [String: String] = [:],
    queryParameters: [String: String] = [:],
    in journal: (any RequestJournal)? = nil,
    newestFirst: Bool = false,
    limit: Int? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> [JournalEntry] {
    let site = AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let filter = Verification.filter({ () throws(HTTPMockError) in
        try RequestExpectation(urlPattern: urlPattern, method: method, headers: headers, queryParameters: queryParameters)
    }, assertion: "HTTPRequests", site: site) else { return [] }
    return select((journal ?? HTTPMock.defaultJournal).journalEntries().filter(filter.matches), newestFirst: newestFirst, limit: limit)
}

/// The journaled requests that meet every one of `matchers`, oldest first.
///
/// ```swift
/// let uploads = HTTPRequests(.method(.put), .path("/files/*"))
/// ```
///
/// The three most recent requests to a host, newest first:
///
/// ```swift
/// let recent = HTTPRequests(.host("api.example.com"), newestFirst: true, limit: 3)
/// ```
///
/// An invalid matcher is reported as a test failure and gives no entries.
///
/// `newestFirst: true` lists the newest entry first; `limit` keeps at most that many entries, the first ones in
/// that order (with `newestFirst`, the most recent ones). Default: every matching entry, oldest first.
public func HTTPRequests(
    _ matchers: Match...,
    in journal: (any RequestJournal)? = nil,
    newestFirst: Bool = false,
    limit: Int? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> [JournalEntry] {
    let site = AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let expectation = Verification.filter({ () throws(HTTPMockError) in try RequestExpectation(matchers: matchers) },
                                                assertion: "HTTPRequests", site: site) else { return [] }
    return select((journal ?? HTTPMock.defaultJournal).journalEntries().filter(expectation.matches), newestFirst: newestFirst, limit: limit)
}

/// `entries` (oldest first) in the order asked for, cut to `limit`.
private func select(_ entries: [JournalEntry], newestFirst: Bool, limit: Int?) -> [JournalEntry] {
    let ordered = newestFirst ? Array(entries.reversed()) : entries
    guard let limit else { return ordered }
    return Array(ordered.prefix(max(limit, 0)))
}
