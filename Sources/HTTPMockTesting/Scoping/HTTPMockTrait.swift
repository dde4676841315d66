import Testing

/// Gives each test (each case of a parameterized test) its own ``HTTPMock``, so tests running in parallel never
/// see each other's stubs, including through `URLSession.shared`.
///
/// ```swift
/// @Test(.httpMock { mock in
///     mock.addResponses(forPath: "/me", host: "api.example.com") { MockResponse.plaintext("Alice") }
/// })
/// func showsTheUser() async throws {
///     let (data, _) = try await URLSession.shared.data(from: URL(string: "https://api.example.com/me")!)
///     #expect(String(decoding: data, as: UTF8.self) == "Alice")
///     HTTPAssertRequestedOnce("https://api.example.com/me")   // reads HTTPMock.current
/// }
/// ```
///
/// Inside the test, ``HTTPMock/HTTPMock/current`` is the test's mock: register more stubs on it, or hand its
/// `urlSession` to the code under test. A registration the mock refuses (a bad pattern) is a test failure at the
/// registering call. When the test ends, whether it returned or threw, each request no stub answered is reported
/// with its near-miss report, and so is each stub that answered nothing or left queued responses unused (both on by
/// default; each report fails the test). Then the mock
/// stops answering: a request that escaped the test fails instead of reaching another test's stubs.
///
/// On a suite, every test in it gets its own mock, configured by the same closure. The stubs that closure
/// registers serve the whole suite, so a test that leaves them unused is not failed for it, and neither is one
/// that leaves a stub with an `.eternal` response unused; ``MockScopeOptions/reportsEveryUnusedStub`` reports them too.
public struct HTTPMockTrait: TestTrait, SuiteTrait, TestScoping {
    /// What is checked when the test ends.
    public var options: MockScopeOptions
    let configure: @Sendable (HTTPMock) async throws -> Void
    /// Copies of one trait share it: it tells a suite's trait, inherited by its tests, from a test's own.
    private let membership = SuiteMembership()

    /// A trait whose mock `configure` prepares before the test runs.
    public init(options: MockScopeOptions = MockScopeOptions(), configure: @escaping @Sendable (HTTPMock) async throws -> Void = { _ in }) {
        self.options = options
        self.configure = configure
    }

    /// On a suite, applies to every test in it (each gets its own mock).
    public var isRecursive: Bool { true }

    /// Notes that this trait is applied to a suite, so its stubs count as the suite's.
    public func prepare(for test: Test) async throws {
        guard test.isSuite else { return }
        membership.noteSuite()
    }

    /// Runs the test (each case of a parameterized test) with a new mock of its own.
    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard !test.isSuite else {
            try await function()
            return
        }
        let mock = HTTPMock()
        try await configure(mock)
        let onSuite = membership.isOnSuite
        let shared = onSuite ? Set(mock.stubUsage.map(\.id)) : []
        let location = test.sourceLocation
        try await MockScope.run(mock, testName: test.name, options: options, shared: shared, report: { message in
            Issue.record(Comment(rawValue: message), sourceLocation: location)
        }) {
            try await function()
        }
    }
}

extension Trait where Self == HTTPMockTrait {
    /// A mock of its own for each test. See ``HTTPMockTrait``.
    public static var httpMock: HTTPMockTrait { HTTPMockTrait() }

    /// A mock of its own for each test, configured by `configure` before the test runs.
    ///
    /// ```swift
    /// @Test(.httpMock(reportsUnusedStubs: false) { mock in
    ///     mock.addResponses(forPath: "/health", host: "api.example.com") { MockResponse.empty() }
    /// })
    /// ```
    ///
    /// - Parameters:
    ///   - reportsUnusedStubs: Report the stubs that answered no request. Default `true`.
    ///   - reportsEveryUnusedStub: Report them all, including a suite trait's stubs and `.eternal` ones.
    ///     Default `false`.
    ///   - reportsUnmatchedRequests: Report each request no stub answered. Default `true`.
    ///   - configure: Prepares the mock before the test runs.
    public static func httpMock(
        reportsUnusedStubs: Bool = true,
        reportsEveryUnusedStub: Bool = false,
        reportsUnmatchedRequests: Bool = true,
        _ configure: @escaping @Sendable (HTTPMock) async throws -> Void = { _ in }
    ) -> HTTPMockTrait {
        HTTPMockTrait(options: MockScopeOptions(reportsUnusedStubs: reportsUnusedStubs, reportsEveryUnusedStub: reportsEveryUnusedStub,
                                                reportsUnmatchedRequests: reportsUnmatchedRequests),
                      configure: configure)
    }
}
