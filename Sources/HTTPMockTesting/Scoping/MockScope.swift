import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a test's mock checks when the test ends.
public struct MockScopeOptions: Sendable {
    /// Report stubs that answered no request. Default `true`.
    public var reportsUnusedStubs: Bool
    /// Report each request no stub answered, with its near-miss report. Default `true`.
    public var reportsUnmatchedRequests: Bool

    /// What the end of a scope reports: stubs never used, requests no stub answered.
    public init(reportsUnusedStubs: Bool = true, reportsUnmatchedRequests: Bool = true) {
        self.reportsUnusedStubs = reportsUnusedStubs
        self.reportsUnmatchedRequests = reportsUnmatchedRequests
    }
}

/// Runs a test body with its own mock: ``HTTPMock/current``, and `URLSession.shared` routed to it for the body's
/// tasks. At the end: unmatched requests and unused stubs are reported, and the mock stops answering.
enum MockScope {
    static func run<R>(
        _ mock: HTTPMock, testName: String, options: MockScopeOptions,
        report: @escaping @Sendable (String) -> Void,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> R
    ) async rethrows -> R {
        let result = try await HTTPMock.$current.withValue(mock) {
            try await mock.withMock(operation: body)
        }
        finish(mock, testName: testName, options: options, report: report)
        return result
    }

    static func finish(_ mock: HTTPMock, testName: String, options: MockScopeOptions, report: (String) -> Void) {
        for problem in problems(of: mock, options: options) { report(problem) }
        close(mock, testName: testName)
    }

    /// The end-of-test findings, one message each.
    static func problems(of mock: HTTPMock, options: MockScopeOptions) -> [String] {
        var problems: [String] = []
        if options.reportsUnmatchedRequests {
            for entry in mock.journal {
                guard case .unmatched(let reason) = entry.resolution else { continue }
                problems.append("Request #\(entry.id) was not answered by any stub (turn this report off with reportsUnmatchedRequests: false)\n"
                                + (entry.report?.description ?? reason))
            }
        }
        if options.reportsUnusedStubs {
            let unused = mock.unusedStubs
            if !unused.isEmpty {
                problems.append((["\(unused.count) stub(s) answered no request (turn this report off with reportsUnusedStubs: false):"]
                                 + unused.map { "  \($0.id) \($0.summary)" }).joined(separator: "\n"))
            }
        }
        return problems
    }

    /// After its test, a mock answers nothing: a request that escaped the test (an unawaited task) fails with an
    /// error naming the test, instead of reaching another test's stubs.
    static func close(_ mock: HTTPMock, testName: String) {
        mock.clearQueues()
        mock.unmockedPolicy = .fail(URLError(.resourceUnavailable, userInfo: [
            NSLocalizedDescriptionKey: "HTTPMock: this request arrived after its test \(testName) ended, so it was not answered. Await the work that sends it inside the test (waitForResponse helps).",
        ]))
    }
}

/// Runs `body` with a new mock of its own, for XCTest (Swift Testing has the `.httpMock` trait).
///
/// The mock is ``HTTPMock/HTTPMock/current`` inside `body`, and answers `URLSession.shared` for the tasks `body` starts.
/// When `body` returns, unmatched requests and unused stubs are reported as failures at the caller's line.
///
/// ```swift
/// func testProfile() async throws {
///     try await withHTTPMock { mock in
///         mock.addResponses(forPath: "/me", host: "api.example.com") { MockResponse.plaintext("Alice") }
///         let (data, _) = try await URLSession.shared.data(from: URL(string: "https://api.example.com/me")!)
///         XCTAssertEqual(String(decoding: data, as: UTF8.self), "Alice")
///     }
/// }
/// ```
public func withHTTPMock<R>(
    reportsUnusedStubs: Bool = true,
    reportsUnmatchedRequests: Bool = true,
    isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ body: (HTTPMock) async throws -> R
) async rethrows -> R {
    let mock = HTTPMock()
    let site = AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column)
    return try await MockScope.run(
        mock, testName: "at \(fileID):\(line)",
        options: MockScopeOptions(reportsUnusedStubs: reportsUnusedStubs, reportsUnmatchedRequests: reportsUnmatchedRequests),
        report: { FailureReporter.fail($0, at: site) }
    ) { try await body(mock) }
}
