/// A mapping's scenario fields: `scenarioName`, `requiredScenarioState`, `newScenarioState`.
///
/// Read and checked here, then refused by ``apply(to:response:)``, the one place that decides what they do: when
/// the engine has scenarios, it adds the state matcher and the response's transition there.
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

    /// Makes the mapping's matchers and response follow the scenario. Not supported yet: a mapping with scenario
    /// fields is refused, naming the first of them.
    func apply(to matches: inout [Match], response: inout MockResponse) throws(HTTPMockError) {
        guard let (key, node) = nodes.first else { return }
        throw node.error("\"\(key)\" is not supported yet: scenarios (stateful mappings) cannot be loaded; remove the scenario fields, or split the states into separate mocks")
    }
}
