import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a test's mock checks when the test ends.
public struct MockScopeOptions: Sendable {
    /// Report stubs that answered no request, and stubs that answered but left queued responses unused. Default
    /// `true`.
    ///
    /// Stubs meant to outlive one test or one request are left out unless ``reportsEveryUnusedStub`` is set:
    /// those a suite's `.httpMock` trait registers for every test of the suite, and those with an `.eternal` response.
    public var reportsUnusedStubs: Bool
    /// Report unused stubs of every kind, including a suite trait's stubs and `.eternal` ones. Default `false`.
    /// Has no effect when ``reportsUnusedStubs`` is `false`.
    public var reportsEveryUnusedStub: Bool
    /// Report each request no stub answered, with its near-miss report, and each request a mock made from an
    /// OpenAPI document refused for breaking its contract, with every violation. Default `true`.
    public var reportsUnmatchedRequests: Bool
    /// A line added to each unmatched request's report: how to fix it where the mock came from (a cassette).
    var unmatchedHint: String?
    /// Where the HTML report looks for ``ReportFolder/environmentVariable``; `nil`: the process's environment.
    var reportEnvironment: [String: String]?

    /// What the end of a scope reports: stubs never used (every one of them, with `reportsEveryUnusedStub`),
    /// requests no stub answered.
    public init(reportsUnusedStubs: Bool = true, reportsEveryUnusedStub: Bool = false, reportsUnmatchedRequests: Bool = true) {
        self.reportsUnusedStubs = reportsUnusedStubs
        self.reportsEveryUnusedStub = reportsEveryUnusedStub
        self.reportsUnmatchedRequests = reportsUnmatchedRequests
    }
}

/// Runs a test body with its own mock: ``HTTPMock/current``, and `URLSession.shared` routed to it for the body's
/// tasks. At the end, whether the body returned or threw: unmatched requests and unused stubs are reported, and the
/// mock stops answering.
enum MockScope {
    /// How the innermost active scope reports a problem that has no source location of its own.
    @TaskLocal static var report: (@Sendable (String) -> Void)?

    /// `shared`: stubs registered for every test of a suite, not reported unused unless the options say so.
    static func run<R>(
        _ mock: HTTPMock, testName: String, options: MockScopeOptions, shared: Set<StubID> = [],
        report: @escaping @Sendable (String) -> Void,
        ending: () -> Void = {},
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> R
    ) async rethrows -> R {
        RefusalReporting.install()
        // Also when the body throws: the report (a request no stub answered) often explains the error thrown.
        defer {
            ending()
            finish(mock, testName: testName, options: options, shared: shared, report: report)
        }
        return try await $report.withValue(report) {
            try await HTTPMock.$current.withValue(mock) {
                try await mock.withMock(operation: body)
            }
        }
    }

    static func finish(_ mock: HTTPMock, testName: String, options: MockScopeOptions, shared: Set<StubID>, report: (String) -> Void) {
        let problems = problems(of: mock, options: options, shared: shared)
        for problem in problems { report(problem) }
        if !problems.isEmpty {
            // The journal as a page beside the text: attached to the test, and written where CI collects artifacts.
            let html = HTMLReport.render(testName: testName, findings: problems, journal: mock.journal)
            ReportFolder.publish(html, testName: testName, environment: options.reportEnvironment ?? ProcessInfo.processInfo.environment)
        }
        close(mock, testName: testName)
    }

    /// The end-of-test findings, one message each.
    static func problems(of mock: HTTPMock, options: MockScopeOptions, shared: Set<StubID>) -> [String] {
        var problems: [String] = []
        if options.reportsUnmatchedRequests {
            for entry in mock.journal {
                if let violation = entry.contractViolation {
                    problems.append("Request #\(entry.id) \(entry.request.method) \(entry.request.url.absoluteString) breaks the API's contract (turn this report off with reportsUnmatchedRequests: false):\n"
                                    + violation)
                    continue
                }
                guard case .unmatched(let reason) = entry.resolution else { continue }
                problems.append("Request #\(entry.id) was not answered by any stub (turn this report off with reportsUnmatchedRequests: false)\n"
                                + (entry.report?.description ?? reason) + (options.unmatchedHint.map { "\n" + $0 } ?? ""))
            }
        }
        if options.reportsUnusedStubs {
            let unused = mock.unusedStubs.filter {
                options.reportsEveryUnusedStub || !($0.servesForever || shared.contains($0.id))
            }
            if !unused.isEmpty {
                problems.append((["\(unused.count) stub(s) answered no request (turn this report off with reportsUnusedStubs: false):"]
                                 + unused.map { "  \($0.id) \($0.summary)" }).joined(separator: "\n"))
            }
            // A stub that answered, with responses still queued behind: the test expected more requests than came.
            let leftover = mock.stubUsage.filter {
                $0.hits > 0 && $0.remainingResponses > 0 && !$0.servesForever && (options.reportsEveryUnusedStub || !shared.contains($0.id))
            }
            if !leftover.isEmpty {
                problems.append((["\(leftover.count) stub(s) answered, but left queued responses unused (turn this report off with reportsUnusedStubs: false):"]
                                 + leftover.map { "  \($0.id) \($0.summary): \($0.remainingResponses) of \($0.hits + $0.remainingResponses) response(s) unused" })
                                .joined(separator: "\n"))
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
/// When `body` returns or throws, unmatched requests and unused stubs are reported as failures at the caller's line
/// (a stub with an `.eternal` response is left out unless `reportsEveryUnusedStub` is `true`). A registration the
/// mock refuses inside `body` is a failure at the registering call.
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
    reportsEveryUnusedStub: Bool = false,
    reportsUnmatchedRequests: Bool = true,
    isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ body: (HTTPMock) async throws -> R
) async rethrows -> R {
    let mock = HTTPMock()
    let site = AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column)
    return try await MockScope.run(
        mock, testName: "at \(fileID):\(line)",
        options: MockScopeOptions(reportsUnusedStubs: reportsUnusedStubs, reportsEveryUnusedStub: reportsEveryUnusedStub,
                                  reportsUnmatchedRequests: reportsUnmatchedRequests),
        report: { FailureReporter.fail($0, at: site) }
    ) { try await body(mock) }
}

/// Turns a registration refused inside a mock scope into a test failure at the registering call (or, for a
/// registration that captures no location, where the scope reports: the test, or the `withHTTPMock` call).
enum RefusalReporting {
    private static let installed: Void = {
        HTTPMock.refusalObserver = { error, site in
            guard let scopeReport = MockScope.report else { return }
            let message = "\(error.description) (nothing was registered)"
            if let site {
                FailureReporter.fail(message, at: AssertionSite(fileID: site.fileID, filePath: site.filePath,
                                                                line: site.line, column: site.column))
            } else {
                scopeReport(message)
            }
        }
    }()

    /// Sets `HTTPMock.refusalObserver`, once per process.
    static func install() { installed }
}
