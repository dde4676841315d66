extension Match {
    /// The stub answers only while scenario `name` is in `state`; otherwise it is not a candidate, and the next
    /// matching stub answers.
    ///
    /// Every scenario starts in `"Started"`. A response moves it with ``MockResponse/movingScenario(_:to:)``,
    /// and the mock reads, sets and resets it (``HTTPMock/HTTPMock/scenarios``).
    ///
    /// ```swift
    /// try mock.stub(.method(.get), .path("/todo/items"), .scenario("To do list", state: "Item added"),
    ///               responses: [.dictionary(["items": ["Buy milk"]], lifetime: .eternal)])
    /// ```
    ///
    /// The state is the mock's, not the request's: the condition belongs to stubs, and checking journaled
    /// requests with it (in ``not(_:)``, an assertion or a wait of HTTPMockTesting) throws an ``HTTPMockError``.
    /// Like any condition, it makes a stub more specific than the same route without it, and two stubs on one route
    /// that require different states are two stubs, each with its own queue.
    public static func scenario(_ name: String, state: String) -> Match {
        let description = "scenario '\(name)' in '\(state)'"
        if name.isEmpty || state.isEmpty {
            return invalid(description, HTTPMockError(.invalidPattern, "Match.scenario(\"\(name)\", state: \"\(state)\") needs a scenario name and a state, neither empty, such as .scenario(\"checkout\", state: \"Started\")"))
        }
        let point = ScenarioPoint(name, state)
        // The name's length keeps the key unambiguous whatever the name and the state hold.
        return Match(condition: Condition(key: "scenario:\(name.utf8.count):\(name)=\(state)", summary: description,
                                          scenario: point) { _ in true })
    }
}

extension [Condition] {
    /// The first problem of scenario conditions a stub cannot meet: two states of one scenario.
    var scenarioConflict: HTTPMockError? {
        // Most stubs require no scenario: asked by position first, without copying each condition.
        guard let first = indices.first(where: { self[$0].scenario != nil }) else { return nil }
        var required: [String: String] = [:]
        for point in self[first...].compactMap(\.scenario) {
            if let other = required[point.name], other != point.state {
                return HTTPMockError(.invalidPattern, "a stub requires scenario '\(point.name)' in '\(other)' and in '\(point.state)', which it can never be at once; keep one .scenario(\"\(point.name)\", state: …) per stub")
            }
            required[point.name] = point.state
        }
        return nil
    }
}
