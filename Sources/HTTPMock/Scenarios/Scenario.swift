/// A scenario of a mock: a name, the state it is in, and the states its stubs mention.
///
/// A scenario exists while a stub names it, by requiring one of its states (``Match/scenario(_:state:)``) or by
/// moving it (``MockResponse/movingScenario(_:to:)``). It starts in `"Started"`.
public struct Scenario: Sendable, Hashable {
    /// The name the stubs give it.
    public let name: String
    /// The state it is in now.
    public let state: String
    /// `"Started"`, then every state a stub requires or moves it to, in the order they were registered.
    public let possibleStates: [String]

    /// A scenario; made by the mock, public for tests of code that reads scenarios.
    public init(name: String, state: String, possibleStates: [String]) {
        self.name = name
        self.state = state
        self.possibleStates = possibleStates
    }
}
