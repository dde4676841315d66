import Foundation

/// Runs an action, then waits for the request it should cause (only requests that arrive after the action
/// starts count) and hands it to `onRequested`. Fails the test if none arrives within `timeout`.
///
/// ```swift
/// try await performActionAndAssertRequested(
///     urlPattern: #"https://api\.example\.com/search.*"#, method: .get,
///     "Search API should be called after tapping search", timeout: 5
/// ) {
///     try await viewModel.search("swift")
/// } onRequested: { entry in
///     #expect(entry.request.queryValues(for: "q") == ["swift"])
/// }
/// ```
///
/// - Returns: The request's entry, or `nil` after a timeout.
@discardableResult
public func performActionAndAssertRequested(
    url: String,
    method: HTTPMethod? = nil,
    headers: [String: String] = [:],
    queryParameters: [String: String] = [:],
    in journal: (any RequestJournal)? = nil,
    _ message: @autoclosure () -> String = "",
    timeout: TimeInterval = 10,
    isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ action: () async throws -> Void,
    onRequested: (JournalEntry) throws -> Void = { _ in }
) async throws -> JournalEntry? {
    try await ActionThenAssert.run("performActionAndAssertRequested", { () throws(HTTPMockError) in
        try RequestExpectation(url: url, method: method, headers: headers, queryParameters: queryParameters)
    }, in: journal, message: message(), timeout: timeout, site: AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column),
       action: action, onRequested: onRequested, waitsForResponse: false, onResponse: { _ in })
}

/// ``performActionAndAssertRequested(url:method:headers:queryParameters:in:_:timeout:isolation:fileID:filePath:line:column:_:onRequested:)``
/// with a regular expression that the URL must contain a match of (anchor it with `^` and `$` for the whole URL).
@discardableResult
public func performActionAndAssertRequested(
    urlPattern: String,
    method: HTTPMethod? = nil,
    headers: [String: String] = [:],
    queryParameters: [String: String] = [:],
    in journal: (any RequestJournal)? = nil,
    _ message: @autoclosure () -> String = "",
    timeout: TimeInterval = 10,
    isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ action: () async throws -> Void,
    onRequested: (JournalEntry) throws -> Void = { _ in }
) async throws -> JournalEntry? {
    try await ActionThenAssert.run("performActionAndAssertRequested", { () throws(HTTPMockError) in
        try RequestExpectation(urlPattern: urlPattern, method: method, headers: headers, queryParameters: queryParameters)
    }, in: journal, message: message(), timeout: timeout, site: AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column),
       action: action, onRequested: onRequested, waitsForResponse: false, onResponse: { _ in })
}

/// Runs an action, waits for the request it causes (`onRequested`), then for its answer (`onResponse`).
///
/// ```swift
/// try await performActionAndAssertResponse(url: "https://api.example.com/login", method: .post,
///                                          "Login request should complete") {
///     try await session.login()
/// } onResponse: { entry in
///     #expect(entry.statusCode == 200)
/// }
/// ```
@discardableResult
public func performActionAndAssertResponse(
    url: String,
    method: HTTPMethod? = nil,
    headers: [String: String] = [:],
    queryParameters: [String: String] = [:],
    in journal: (any RequestJournal)? = nil,
    _ message: @autoclosure () -> String = "",
    timeout: TimeInterval = 10,
    isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ action: () async throws -> Void,
    onRequested: (JournalEntry) throws -> Void = { _ in },
    onResponse: (JournalEntry) throws -> Void = { _ in }
) async throws -> JournalEntry? {
    try await ActionThenAssert.run("performActionAndAssertResponse", { () throws(HTTPMockError) in
        try RequestExpectation(url: url, method: method, headers: headers, queryParameters: queryParameters)
    }, in: journal, message: message(), timeout: timeout, site: AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column),
       action: action, onRequested: onRequested, waitsForResponse: true, onResponse: onResponse)
}

/// ``performActionAndAssertResponse(url:method:headers:queryParameters:in:_:timeout:isolation:fileID:filePath:line:column:_:onRequested:onResponse:)``
/// with a regular expression that the URL must contain a match of (anchor it with `^` and `$` for the whole URL).
@discardableResult
public func performActionAndAssertResponse(
    urlPattern: String,
    method: HTTPMethod? = nil,
    headers: [String: String] = [:],
    queryParameters: [String: String] = [:],
    in journal: (any RequestJournal)? = nil,
    _ message: @autoclosure () -> String = "",
    timeout: TimeInterval = 10,
    isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ action: () async throws -> Void,
    onRequested: (JournalEntry) throws -> Void = { _ in },
    onResponse: (JournalEntry) throws -> Void = { _ in }
) async throws -> JournalEntry? {
    try await ActionThenAssert.run("performActionAndAssertResponse", { () throws(HTTPMockError) in
        try RequestExpectation(urlPattern: urlPattern, method: method, headers: headers, queryParameters: queryParameters)
    }, in: journal, message: message(), timeout: timeout, site: AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column),
       action: action, onRequested: onRequested, waitsForResponse: true, onResponse: onResponse)
}

/// Runs an action, then waits for a request meeting every one of `matchers` that arrives after the action starts,
/// and hands it to `onRequested`. Fails the test if none arrives within `timeout`.
///
/// ```swift
/// try await performActionAndAssertRequested(.method(.get), .path("/search"), .query(["q": "swift"])) {
///     try await viewModel.search("swift")
/// }
/// ```
@discardableResult
public func performActionAndAssertRequested(
    _ matchers: Match...,
    in journal: (any RequestJournal)? = nil,
    message: @autoclosure () -> String = "",
    timeout: TimeInterval = 10,
    isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    action: () async throws -> Void,
    onRequested: (JournalEntry) throws -> Void = { _ in }
) async throws -> JournalEntry? {
    try await ActionThenAssert.run("performActionAndAssertRequested", { () throws(HTTPMockError) in
        try RequestExpectation(matchers: matchers)
    }, in: journal, message: message(), timeout: timeout, site: AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column),
       action: action, onRequested: onRequested, waitsForResponse: false, onResponse: { _ in })
}

/// Runs an action, waits for a request meeting every one of `matchers` (`onRequested`), then for its answer
/// (`onResponse`).
@discardableResult
public func performActionAndAssertResponse(
    _ matchers: Match...,
    in journal: (any RequestJournal)? = nil,
    message: @autoclosure () -> String = "",
    timeout: TimeInterval = 10,
    isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    action: () async throws -> Void,
    onRequested: (JournalEntry) throws -> Void = { _ in },
    onResponse: (JournalEntry) throws -> Void = { _ in }
) async throws -> JournalEntry? {
    try await ActionThenAssert.run("performActionAndAssertResponse", { () throws(HTTPMockError) in
        try RequestExpectation(matchers: matchers)
    }, in: journal, message: message(), timeout: timeout, site: AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column),
       action: action, onRequested: onRequested, waitsForResponse: true, onResponse: onResponse)
}

enum ActionThenAssert {
    static func run(
        _ function: String, _ build: () throws(HTTPMockError) -> RequestExpectation, in journal: (any RequestJournal)?,
        message: String, timeout: TimeInterval, site: AssertionSite,
        isolation: isolated (any Actor)? = #isolation,
        action: () async throws -> Void, onRequested: (JournalEntry) throws -> Void,
        waitsForResponse: Bool, onResponse: (JournalEntry) throws -> Void
    ) async throws -> JournalEntry? {
        guard let filter = Verification.filter(build, assertion: function, site: site) else { return nil }
        let mark = (journal ?? HTTPMock.defaultJournal).journalMark()
        try await action()
        guard let requested = await Waiting.wait(function, { filter }, in: journal, after: mark, completed: false,
                                                 timeout: timeout, message: message, site: site)
        else { return nil }
        try onRequested(requested)
        guard waitsForResponse else { return requested }
        guard let answered = await Waiting.wait(function, { filter }, in: journal, after: mark, completed: true,
                                                timeout: timeout, message: message, site: site)
        else { return nil }
        try onResponse(answered)
        return answered
    }
}
