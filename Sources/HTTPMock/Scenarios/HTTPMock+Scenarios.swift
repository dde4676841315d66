extension HTTPMock {
    /// Every scenario this mock's stubs name, in the order they were first named, with its state.
    ///
    /// A scenario exists while a stub names it: removing the last such stub forgets it and its state, and a stub
    /// that names it again starts it over in `"Started"`.
    public var scenarios: [Scenario] {
        core.engine.scenarios
    }

    /// The state scenario `name` is in; `nil` when no stub names it.
    ///
    /// ```swift
    /// #expect(mock.scenarioState("To do list") == "Item added")
    /// ```
    public func scenarioState(_ name: String) -> String? {
        core.engine.scenarioState(name)
    }

    /// Puts scenario `name` in `state`, as if a response had moved it there.
    ///
    /// - Throws: ``HTTPMockError/Code-swift.enum/unknownScenario`` when no stub names the scenario (a typo would
    ///   otherwise change nothing).
    public func setScenarioState(_ state: String, of name: String) throws(HTTPMockError) {
        guard core.engine.setScenarioState(state, of: name) else { throw unknownScenario(name) }
    }

    /// Puts scenario `name` back in `"Started"`.
    ///
    /// - Throws: ``HTTPMockError/Code-swift.enum/unknownScenario`` when no stub names the scenario.
    public func resetScenario(_ name: String) throws(HTTPMockError) {
        guard core.engine.resetScenario(name) else { throw unknownScenario(name) }
    }

    /// Puts every scenario back in `"Started"`. Stubs and their queues stay as they are.
    public func resetScenarios() {
        core.engine.resetScenarios()
    }

    private func unknownScenario(_ name: String) -> HTTPMockError {
        let known = core.engine.scenarios.map { "'\($0.name)'" }
        return HTTPMockError(.unknownScenario, "no stub of this mock names scenario '\(name)'; "
            + (known.isEmpty ? "none names a scenario (register one with Match.scenario or movingScenario first)"
                             : "the scenarios are " + known.joined(separator: ", ")))
    }
}
