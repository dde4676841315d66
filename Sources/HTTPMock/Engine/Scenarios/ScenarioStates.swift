/// A scenario named with one of its states: what a stub's ``Match/scenario(_:state:)`` requires, or where a
/// response's ``MockResponse/movingScenario(_:to:)`` moves it.
///
/// A reference, so a condition or a response carries 8 bytes for it, not two strings.
final class ScenarioPoint: Sendable {
    let name: String
    let state: String

    init(_ name: String, _ state: String) {
        self.name = name
        self.state = state
    }

    /// `'checkout' in 'Paid'`
    var description: String { "'\(name)' in '\(state)'" }
}

/// What one stub says about scenarios: the states it requires and the states its responses move to, in the order
/// they were registered. The router keeps one for each stub that names a scenario.
struct ScenarioUse {
    var required: [ScenarioPoint] = []
    var moves: [ScenarioPoint] = []

    var isEmpty: Bool { required.isEmpty && moves.isEmpty }
}

/// The current state of every scenario, owned by the engine and read and changed under its lock.
///
/// Only scenarios out of ``started`` are stored: a scenario no one moved costs nothing, and a reset forgets it.
struct ScenarioStates {
    /// The state every scenario starts in, and goes back to when reset.
    static let started = "Started"

    private var moved: [String: String] = [:]

    /// The state of scenario `name`.
    func state(of name: String) -> String { moved[name] ?? Self.started }

    /// Whether every scenario that `conditions` require is in the required state.
    func allow(_ conditions: [Condition]) -> Bool {
        conditions.allSatisfy { condition in
            guard let required = condition.scenario else { return true }
            return state(of: required.name) == required.state
        }
    }

    mutating func set(_ name: String, to state: String) {
        moved[name] = state == Self.started ? nil : state
    }

    mutating func reset(_ name: String) { moved[name] = nil }

    mutating func resetAll() { moved = [:] }

    /// Forgets the scenarios no stub names any more, so one named again starts over.
    mutating func keep(only names: () -> Set<String>) {
        guard !moved.isEmpty else { return }
        let names = names()
        moved = moved.filter { names.contains($0.key) }
    }
}

extension Router {
    /// The names of every scenario a stub names.
    var scenarioNames: Set<String> {
        Set(scenarioUses.values.flatMap { ($0.required + $0.moves).map(\.name) })
    }

    /// Every scenario a stub names, in the order they were first named, with the states stubs mention
    /// (``ScenarioStates/started`` first).
    var namedScenarios: [(name: String, possibleStates: [String])] {
        var order: [String] = []
        var possible: [String: [String]] = [:]
        for id in scenarioUses.keys.sorted() {
            let use = scenarioUses[id]!
            for point in use.required + use.moves {
                if possible[point.name] == nil {
                    order.append(point.name)
                    possible[point.name] = [ScenarioStates.started]
                }
                if !possible[point.name]!.contains(point.state) { possible[point.name]!.append(point.state) }
            }
        }
        return order.map { ($0, possible[$0]!) }
    }
}
