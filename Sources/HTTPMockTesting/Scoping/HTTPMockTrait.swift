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
/// `urlSession` to the code under test. When the test ends, each request no stub answered is reported
/// with its near-miss report, and each stub that answered nothing is reported (both on by default). Then the mock
/// stops answering: a request that escaped the test fails instead of reaching another test's stubs.
///
/// On a suite, every test in it gets its own mock, configured by the same closure.
public struct HTTPMockTrait: TestTrait, SuiteTrait, TestScoping {
    /// What is checked when the test ends.
    public var options: MockScopeOptions
    let configure: @Sendable (HTTPMock) async throws -> Void

    /// A trait whose mock `configure` prepares before the test runs.
    public init(options: MockScopeOptions = MockScopeOptions(), configure: @escaping @Sendable (HTTPMock) async throws -> Void = { _ in }) {
        self.options = options
        self.configure = configure
    }

    /// On a suite, applies to every test in it (each gets its own mock).
    public var isRecursive: Bool { true }

    /// Runs the test (each case of a parameterized test) with a new mock of its own.
    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard !test.isSuite else {
            try await function()
            return
        }
        let mock = HTTPMock()
        try await configure(mock)
        let location = test.sourceLocation
        try await MockScope.run(mock, testName: test.name, options: options, report: { message in
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
    public static func httpMock(
        reportsUnusedStubs: Bool = true,
        reportsUnmatchedRequests: Bool = true,
        _ configure: @escaping @Sendable (HTTPMock) async throws -> Void = { _ in }
    ) -> HTTPMockTrait {
        HTTPMockTrait(options: MockScopeOptions(reportsUnusedStubs: reportsUnusedStubs, reportsUnmatchedRequests: reportsUnmatchedRequests),
                      configure: configure)
    }
}
