extension MockResponse {
    /// The same response, which moves scenario `name` to `state` when it answers a request.
    ///
    /// The move happens in the same step as the decision that picked this response: no other request sees the
    /// scenario between the two. A stub may move a scenario without requiring a state (``Match/scenario(_:state:)``),
    /// and may move another scenario than the one it requires.
    ///
    /// ```swift
    /// try mock.stub(.method(.post), .path("/todo/items"), responses: [
    ///     MockResponse.empty(status: .created).movingScenario("To do list", to: "Item added"),
    /// ])
    /// ```
    ///
    /// On a response a ``dynamic(lifetime:delivery:_:)`` closure returns it has no effect: the dynamic response
    /// itself, as queued, is the one that moves the scenario. The unmocked policy's response moves nothing.
    public func movingScenario(_ name: String, to state: String) -> MockResponse {
        var moving = self
        if name.isEmpty || state.isEmpty {
            if moving.problem == nil { moving.problem = .invalidResponse("movingScenario(\"\(name)\", to: \"\(state)\") needs a scenario name and a state, neither empty, such as .movingScenario(\"checkout\", to: \"Paid\")") }
        } else {
            moving.scenarioMove = ScenarioPoint(name, state)
        }
        return moving
    }
}
