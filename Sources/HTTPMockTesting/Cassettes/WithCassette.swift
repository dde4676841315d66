import Foundation

/// Runs `body` with a mock of its own that plays the cassette `name`, for XCTest (Swift Testing has the
/// `.cassette` trait, ``CassetteTrait``) or for several cassettes in one test.
///
/// ```swift
/// func testLogin() async throws {
///     try await withCassette("login") { mock in
///         let user = try await LoginClient(session: mock.urlSession).logIn(name: "alice", password: "secret")
///         XCTAssertEqual(user.name, "Alice")
///     }
/// }
/// ```
///
/// The cassette is `<folder>/<name>.har` beside the caller's source file. What is recorded is written, redacted, when
/// `body` returns or throws; then unmatched requests and (with `reportsUnusedEntries`) unused recorded answers are
/// reported as failures at the caller's line, as ``withHTTPMock(reportsUnusedStubs:reportsEveryUnusedStub:reportsUnmatchedRequests:isolation:fileID:filePath:line:column:_:)`` reports.
///
/// - Throws: ``CassetteError`` before `body` runs when the cassette cannot be used (missing in mode
///   ``CassetteMode/none``, unreadable, being recorded by another test), and what `body` throws.
public func withCassette<R>(
    _ name: String,
    mode: CassetteMode = .automatic,
    folder: String = "Cassettes",
    format: CassetteFormat = .har,
    redaction: Redaction = .default,
    matchesBody: Bool = true,
    reportsUnusedEntries: Bool = false,
    isolation: isolated (any Actor)? = #isolation,
    function: String = #function,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ body: (HTTPMock) async throws -> R
) async throws -> R {
    let site = AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let cassette = Cassette(name, folder: folder, mode: mode, format: format, redaction: redaction,
                            matchesBody: matchesBody, reportsUnusedEntries: reportsUnusedEntries)
    let test = function.firstIndex(of: "(").map { String(function[..<$0]) } ?? function
    return try await withCassette(cassette, environment: ProcessInfo.processInfo.environment, testName: test, site: site, body)
}

/// ``withCassette(_:mode:folder:format:redaction:matchesBody:reportsUnusedEntries:isolation:function:fileID:filePath:line:column:_:)``
/// with the environment given (the tests' way to try `CI` and the mode variable).
func withCassette<R>(
    _ cassette: Cassette, environment: [String: String], testName: String, site: AssertionSite,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (HTTPMock) async throws -> R
) async throws -> R {
    try await CassetteScope.run(cassette, sourceFile: "\(site.filePath)", testName: testName, environment: environment,
                                report: { FailureReporter.fail($0, at: site) }, configure: { _ in }, body)
}
