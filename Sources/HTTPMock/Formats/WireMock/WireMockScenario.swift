import _HTTPMockJSON

/// A mapping's scenario fields: `scenarioName`, `requiredScenarioState`, `newScenarioState`.
///
/// Read and checked here; ``apply(to:response:)`` turns them into the engine's scenarios (see
/// ``HTTPMock/scenarios``), so a WireMock scenario behaves the same in process and over HTTPMockServer.
struct WireMockScenario {
    var name: String?
    var requiredState: String?
    var newState: String?
    /// The nodes, for messages.
    private var nodes: [(key: String, node: WireMockNode)] = []

    static let keys = ["scenarioName", "requiredScenarioState", "newScenarioState"]

    init(_ fields: [String: JSONValue], in mapping: WireMockNode) throws(HTTPMockError) {
        for key in Self.keys {
            guard let node = mapping.child(key, of: fields) else { continue }
            let text = try node.string()
            switch key {
            case "scenarioName": name = text
            case "requiredScenarioState": requiredState = text
            default: newState = text
            }
            nodes.append((key, node))
        }
        if name == nil, let (key, node) = nodes.first {
            throw node.error("\"\(key)\" needs a \"scenarioName\"")
        }
    }

    var isEmpty: Bool { nodes.isEmpty }

    /// Makes the mapping's matchers and response follow the scenario, with the engine's scenarios:
    /// `requiredScenarioState` becomes ``Match/scenario(_:state:)`` (without it the mapping answers in any state),
    /// `newScenarioState` becomes ``MockResponse/movingScenario(_:to:)``.
    func apply(to matches: inout [Match], response: inout MockResponse) throws(HTTPMockError) {
        guard let name else { return }
        if let requiredState {
            guard !requiredState.isEmpty, !name.isEmpty else {
                throw nodes[0].node.error("a scenario needs a non-empty \"scenarioName\" and \"requiredScenarioState\"")
            }
            matches.append(.scenario(name, state: requiredState))
        }
        if let newState {
            guard !newState.isEmpty, !name.isEmpty else {
                throw nodes[0].node.error("a scenario needs a non-empty \"scenarioName\" and \"newScenarioState\"")
            }
            response = response.movingScenario(name, to: newState)
        }
    }
}
