import Foundation

/// Waits until a request to `url` is journaled (one already there counts), or fails the test after `timeout`.
///
/// ```swift
/// await waitForRequest(url: "https://api.example.com/login", method: .post, timeout: 5)
/// ```
///
/// An in-process mock pushes each entry to the waiter (no polling); a ``JournalFolderReader`` is polled.
///
/// - Returns: The entry, or `nil` on timeout (after reporting the failure).
@discardableResult
public func waitForRequest(
    url: String,
    method: HTTPMethod? = nil,
    headers: [String: String] = [:],
    queryParameters: [String: String] = [:],
    in journal: (any RequestJournal)? = nil,
    _ message: @autoclosure () -> String = "",
    timeout: TimeInterval = 10,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) async -> JournalEntry? {
    await Waiting.wait("waitForRequest", { () throws(HTTPMockError) in
        try RequestExpectation(url: url, method: method, headers: headers, queryParameters: queryParameters)
    }, in: journal, completed: false, timeout: timeout, message: message(),
       site: AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Waits until a request whose URL matches the regular expression `urlPattern` is journaled.
///
/// ```swift
/// await waitForRequest(urlPattern: #"https://api\.example\.com/analytics.*"#, method: .post, timeout: 5)
/// ```
@discardableResult
public func waitForRequest(
    urlPattern: String,
    method: HTTPMethod? = nil,
    headers: [String: String] = [:],
    queryParameters: [String: String] = [:],
    in journal: (any RequestJournal)? = nil,
    _ message: @autoclosure () -> String = "",
    timeout: TimeInterval = 10,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) async -> JournalEntry? {
    await Waiting.wait("waitForRequest", { () throws(HTTPMockError) in
        try RequestExpectation(urlPattern: urlPattern, method: method, headers: headers, queryParameters: queryParameters)
    }, in: journal, completed: false, timeout: timeout, message: message(),
       site: AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Waits until a request to `url` has been answered (its response or error delivered), or fails after `timeout`.
///
/// ```swift
/// let entry = await waitForResponse(url: "https://api.example.com/data", timeout: 10)
/// #expect(entry?.statusCode == 200)
/// ```
@discardableResult
public func waitForResponse(
    url: String,
    method: HTTPMethod? = nil,
    headers: [String: String] = [:],
    queryParameters: [String: String] = [:],
    in journal: (any RequestJournal)? = nil,
    _ message: @autoclosure () -> String = "",
    timeout: TimeInterval = 10,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) async -> JournalEntry? {
    await Waiting.wait("waitForResponse", { () throws(HTTPMockError) in
        try RequestExpectation(url: url, method: method, headers: headers, queryParameters: queryParameters)
    }, in: journal, completed: true, timeout: timeout, message: message(),
       site: AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Waits until a request whose URL matches `urlPattern` has been answered.
@discardableResult
public func waitForResponse(
    urlPattern: String,
    method: HTTPMethod? = nil,
    headers: [String: String] = [:],
    queryParameters: [String: String] = [:],
    in journal: (any RequestJournal)? = nil,
    _ message: @autoclosure () -> String = "",
    timeout: TimeInterval = 10,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) async -> JournalEntry? {
    await Waiting.wait("waitForResponse", { () throws(HTTPMockError) in
        try RequestExpectation(urlPattern: urlPattern, method: method, headers: headers, queryParameters: queryParameters)
    }, in: journal, completed: true, timeout: timeout, message: message(),
       site: AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Waits until a request meeting every one of `matchers` is journaled (one already there counts), or fails the
/// test after `timeout`.
///
/// ```swift
/// await waitForRequest(.method(.post), .path("/analytics/*"), timeout: 5)
/// ```
@discardableResult
public func waitForRequest(
    _ matchers: Match...,
    in journal: (any RequestJournal)? = nil,
    message: @autoclosure () -> String = "",
    timeout: TimeInterval = 10,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) async -> JournalEntry? {
    await Waiting.wait("waitForRequest", { () throws(HTTPMockError) in try RequestExpectation(matchers: matchers) },
                       in: journal, completed: false, timeout: timeout, message: message(),
                       site: AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Waits until a request meeting every one of `matchers` has been answered, or fails the test after `timeout`.
@discardableResult
public func waitForResponse(
    _ matchers: Match...,
    in journal: (any RequestJournal)? = nil,
    message: @autoclosure () -> String = "",
    timeout: TimeInterval = 10,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) async -> JournalEntry? {
    await Waiting.wait("waitForResponse", { () throws(HTTPMockError) in try RequestExpectation(matchers: matchers) },
                       in: journal, completed: true, timeout: timeout, message: message(),
                       site: AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column))
}
