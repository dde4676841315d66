extension HTTPMock {
    /// Every stub of this mock with how often it answered, in registration order.
    ///
    /// ```swift
    /// let unused = mock.stubUsage.filter { $0.hits == 0 }
    /// #expect(unused.isEmpty, "never called: \(unused.map(\.summary))")
    /// ```
    public var stubUsage: [StubUsage] {
        core.engine.stubUsage
    }

    /// Stubs that never answered a request.
    public var unusedStubs: [StubUsage] { stubUsage.filter { $0.hits == 0 } }
}

/// How much one stub was used.
public struct StubUsage: Sendable, Equatable, CustomStringConvertible {
    /// The stub.
    public let id: StubID
    /// The stub as registered (`api.example.com/users/* [method GET]`).
    public let summary: String
    /// How many requests it answered.
    public let hits: Int
    /// Responses still queued (an eternal response counts as one).
    public let remainingResponses: Int
    /// Whether an eternal response is queued, so the stub answers for as long as it is registered (HTTPMockTesting
    /// does not report such a stub left unused, unless asked to).
    package var servesForever = false

    public var description: String { "\(id) \(summary): \(hits) request(s) answered" }
}
