// The assertions take the URL first and the message last, after every matching parameter, so a URL can never be
// taken for the message: `HTTPAssertRequested("https://a", "https://b")` checks that https://a was requested.

/// Asserts that requests to `url` were made: at least one by default, or as many as `count` says.
///
/// ```swift
/// HTTPAssertRequested("https://api.example.com/data")
/// HTTPAssertRequested("https://api.example.com/data", method: .post, headers: ["Authorization": "Bearer token123"],
///                     "POST request should be made to data endpoint")
/// HTTPAssertRequested("https://api.example.com/search", queryParameters: ["q": "swift"], count: .exactly(2))
/// ```
///
/// - Parameters:
///   - url: An absolute URL. Without a query, the request's query is not compared (use `queryParameters`).
///   - method: Only requests with this method count.
///   - headers: Each header must be present with this value.
///   - queryParameters: Each query parameter must be present with this value.
///   - count: How many matching requests are expected. Default: at least one.
///   - journal: Where to look. Default: the current test's mock (`.httpMock` trait), else `HTTPMock.shared`.
///   - message: Added to the failure message.
///   - fileID: Where the failure is reported; leave the default.
///   - filePath: Where the failure is reported; leave the default.
///   - line: Where the failure is reported; leave the default.
///   - column: Where the failure is reported; leave the default.
/// - Returns: The matching journal entries.
@discardableResult
public func HTTPAssertRequested(
    _ url: String,
    method: HTTPMethod? = nil,
    headers: [String: String] = [:],
    queryParameters: [String: String] = [:],
    count: RequestCount = .atLeast(1),
    in journal: (any RequestJournal)? = nil,
    _ message: @autoclosure () -> String = "",
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> [JournalEntry] {
    Verification.verify("HTTPAssertRequested", { () throws(HTTPMockError) in
        try RequestExpectation(url: url, method: method, headers: headers, queryParameters: queryParameters)
    }, count: count, in: journal, message: message(), site: AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Asserts that requests whose URL contains a match of the regular expression `urlPattern` were made (anchor it
/// with `^` and `$` to match the whole URL, as `Match/urlRegex(_:options:)` does everywhere).
///
/// ```swift
/// HTTPAssertRequested(urlPattern: #"https://api\.example\.com/users/\d+"#, "User API should be called with an ID")
/// ```
@discardableResult
public func HTTPAssertRequested(
    urlPattern: String,
    method: HTTPMethod? = nil,
    headers: [String: String] = [:],
    queryParameters: [String: String] = [:],
    count: RequestCount = .atLeast(1),
    in journal: (any RequestJournal)? = nil,
    _ message: @autoclosure () -> String = "",
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> [JournalEntry] {
    Verification.verify("HTTPAssertRequested", { () throws(HTTPMockError) in
        try RequestExpectation(urlPattern: urlPattern, method: method, headers: headers, queryParameters: queryParameters)
    }, count: count, in: journal, message: message(), site: AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Asserts that no request to `url` was made.
///
/// ```swift
/// HTTPAssertNotRequested("https://api.example.com/sensitive", "Sensitive API should never be called")
/// ```
public func HTTPAssertNotRequested(
    _ url: String,
    method: HTTPMethod? = nil,
    headers: [String: String] = [:],
    queryParameters: [String: String] = [:],
    in journal: (any RequestJournal)? = nil,
    _ message: @autoclosure () -> String = "",
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    Verification.verify("HTTPAssertNotRequested", { () throws(HTTPMockError) in
        try RequestExpectation(url: url, method: method, headers: headers, queryParameters: queryParameters)
    }, count: .never, in: journal, message: message(), site: AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Asserts that no request whose URL matches `urlPattern` was made.
public func HTTPAssertNotRequested(
    urlPattern: String,
    method: HTTPMethod? = nil,
    headers: [String: String] = [:],
    queryParameters: [String: String] = [:],
    in journal: (any RequestJournal)? = nil,
    _ message: @autoclosure () -> String = "",
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    Verification.verify("HTTPAssertNotRequested", { () throws(HTTPMockError) in
        try RequestExpectation(urlPattern: urlPattern, method: method, headers: headers, queryParameters: queryParameters)
    }, count: .never, in: journal, message: message(), site: AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Asserts that exactly one request to `url` was made.
///
/// ```swift
/// HTTPAssertRequestedOnce("https://api.example.com/login", method: .post, "Login API should be called exactly once")
/// ```
@discardableResult
public func HTTPAssertRequestedOnce(
    _ url: String,
    method: HTTPMethod? = nil,
    headers: [String: String] = [:],
    queryParameters: [String: String] = [:],
    in journal: (any RequestJournal)? = nil,
    _ message: @autoclosure () -> String = "",
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> JournalEntry? {
    Verification.verify("HTTPAssertRequestedOnce", { () throws(HTTPMockError) in
        try RequestExpectation(url: url, method: method, headers: headers, queryParameters: queryParameters)
    }, count: .once, in: journal, message: message(), site: AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column)).first
}

/// Asserts that exactly one request whose URL matches `urlPattern` was made.
@discardableResult
public func HTTPAssertRequestedOnce(
    urlPattern: String,
    method: HTTPMethod? = nil,
    headers: [String: String] = [:],
    queryParameters: [String: String] = [:],
    in journal: (any RequestJournal)? = nil,
    _ message: @autoclosure () -> String = "",
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> JournalEntry? {
    Verification.verify("HTTPAssertRequestedOnce", { () throws(HTTPMockError) in
        try RequestExpectation(urlPattern: urlPattern, method: method, headers: headers, queryParameters: queryParameters)
    }, count: .once, in: journal, message: message(), site: AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column)).first
}

/// Asserts that requests meeting every one of `matchers` were made: at least one by default, or as many as
/// `count` says. The matchers are the ones stubs use, with the same meaning.
///
/// ```swift
/// HTTPAssertRequested(.method(.post), .path("/login"), .jsonContaining(["user": "ann"]))
/// HTTPAssertRequested(.host("api.example.com"), .header("Authorization"), count: .exactly(2))
/// ```
///
/// - Returns: The matching journal entries.
@discardableResult
public func HTTPAssertRequested(
    _ matchers: Match...,
    count: RequestCount = .atLeast(1),
    in journal: (any RequestJournal)? = nil,
    message: @autoclosure () -> String = "",
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> [JournalEntry] {
    Verification.verify("HTTPAssertRequested", { () throws(HTTPMockError) in try RequestExpectation(matchers: matchers) },
                        count: count, in: journal, message: message(),
                        site: AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Asserts that no request meeting every one of `matchers` was made.
///
/// ```swift
/// HTTPAssertNotRequested(.host("tracker.example.com"))
/// ```
public func HTTPAssertNotRequested(
    _ matchers: Match...,
    in journal: (any RequestJournal)? = nil,
    message: @autoclosure () -> String = "",
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    Verification.verify("HTTPAssertNotRequested", { () throws(HTTPMockError) in try RequestExpectation(matchers: matchers) },
                        count: .never, in: journal, message: message(),
                        site: AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Asserts that exactly one request meeting every one of `matchers` was made.
///
/// ```swift
/// let login = HTTPAssertRequestedOnce(.method(.post), .path("/login"))
/// ```
@discardableResult
public func HTTPAssertRequestedOnce(
    _ matchers: Match...,
    in journal: (any RequestJournal)? = nil,
    message: @autoclosure () -> String = "",
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> JournalEntry? {
    Verification.verify("HTTPAssertRequestedOnce", { () throws(HTTPMockError) in try RequestExpectation(matchers: matchers) },
                        count: .once, in: journal, message: message(),
                        site: AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column)).first
}
