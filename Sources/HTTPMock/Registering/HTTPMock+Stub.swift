extension HTTPMock {
    /// Queues responses for requests that meet every matcher, served first in, first out.
    ///
    /// ```swift
    /// try mock.stub(.method(.post), .url("https://api.example.com/login"), .form(["user": "ann", "password": .any]),
    ///               responses: [.dictionary(["token": "abc"])])
    /// ```
    ///
    /// Registering the same matchers again appends to the same queue (except for ``Match/custom(_:_:)``
    /// matchers, which make each registration its own stub). When several stubs match, the most specific
    /// answers (see ``HTTPMock``); a regular expression or template without a fixed host counts as "any host".
    ///
    /// - Throws: ``HTTPMockError`` naming the problem (an invalid regular expression, template, URL or
    ///   response, no matcher, no response); nothing is registered then.
    /// - Returns: A handle to switch the stub off and on, count its hits, or remove it.
    @discardableResult
    public func stub(_ matchers: Match..., responses: [MockResponse]) throws(HTTPMockError) -> StubHandle {
        try stub(matchers, responses: responses)
    }

    /// Queues responses for requests that meet every matcher, written as a list in a closure.
    ///
    /// ```swift
    /// try mock.stub(.uriTemplate("/users/{id}")) {
    ///     MockResponse.plaintext("first")
    ///     MockResponse.plaintext("second")
    /// }
    /// ```
    @discardableResult
    public func stub(_ matchers: Match..., @ResponseBuilder responses: () -> [MockResponse]) throws(HTTPMockError) -> StubHandle {
        try stub(matchers, responses: responses())
    }

    /// ``stub(_:responses:)`` with the matchers in an array.
    @discardableResult
    public func stub(_ matchers: [Match], responses: [MockResponse]) throws(HTTPMockError) -> StubHandle {
        guard !responses.isEmpty else {
            throw HTTPMockError(.invalidResponse, "response: the stub [\(Self.describe(matchers))] was given no responses; give at least one")
        }
        let compiled = try Self.compileForStub(matchers)
        let ids = try core.engine.register([
            Engine.Definition(host: compiled.host, path: compiled.path, conditions: compiled.conditions, responses: responses),
        ])
        return StubHandle(engine: core.engine, ids: ids, isIgnoreRule: false)
    }

    /// One response per method for requests that meet every matcher: each method has its own queue, and a
    /// method not listed is not answered by this stub.
    ///
    /// ```swift
    /// try mock.stub(.urlRegex(#"^https://api\.example\.com/items/[0-9]+$"#), byMethod: [
    ///     .get: .dictionary(["id": 1], lifetime: .eternal),
    ///     .post: .empty(status: .created, delivery: .delayed(0.2)),
    ///     .put: .failure(URLError(.notConnectedToInternet)),
    /// ])
    /// ```
    @discardableResult
    public func stub(_ matchers: Match..., byMethod responses: [HTTPMethod: MockResponse]) throws(HTTPMockError) -> StubHandle {
        guard !responses.isEmpty else {
            throw HTTPMockError(.invalidResponse, "response: the stub [\(Self.describe(matchers))] was given no method responses; give at least one")
        }
        let compiled = try Self.compileForStub(matchers)
        let definitions = responses.sorted { $0.key.rawValue < $1.key.rawValue }.map { method, response in
            Engine.Definition(host: compiled.host, path: compiled.path,
                              conditions: compiled.conditions + [.method([method.rawValue])], responses: [response])
        }
        let ids = try core.engine.register(definitions)
        return StubHandle(engine: core.engine, ids: ids, isIgnoreRule: false)
    }

    /// Sends requests that meet every matcher to the real network (the passthrough session), before any stub
    /// is asked and whatever the ``unmockedPolicy``.
    ///
    /// ```swift
    /// try mock.ignore(.url("https://telemetry.example.com", options: [.ignorePath, .ignoreQuery]))
    /// ```
    @discardableResult
    public func ignore(_ matchers: Match...) throws(HTTPMockError) -> StubHandle {
        let compiled = try Self.compileForStub(matchers)
        if let point = compiled.conditions.lazy.compactMap(\.scenario).first { throw RequestPredicate.scenarioRefusal(point) }
        let ids = core.engine.registerIgnoreRules([
            Engine.Definition(host: compiled.host, path: compiled.path, conditions: compiled.conditions, responses: []),
        ])
        return StubHandle(engine: core.engine, ids: ids, isIgnoreRule: true)
    }

    /// Removes every ignore rule. (``clearQueues()`` removes stubs and leaves ignore rules.)
    public func clearIgnoreRules() {
        core.engine.removeAllIgnoreRules()
    }

    private static func compileForStub(_ matchers: [Match]) throws(HTTPMockError) -> CompiledMatchers {
        guard !matchers.isEmpty else {
            throw HTTPMockError(.invalidPattern, "a stub needs at least one matcher; to answer any request, say so with .path(\"/**\")")
        }
        return try CompiledMatchers(matchers)
    }

    static func describe(_ matchers: [Match]) -> String {
        matchers.map(\.description).joined(separator: ", ")
    }
}
