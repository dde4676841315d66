import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// Stateful scenarios: stubs that answer only in a scenario's state, responses that move it, and the mock's
/// operations on it.
@Suite struct ScenarioTests {
    static let items = "https://api.example.com/todo/items"

    /// A to-do list: empty until an item is posted, then holding it.
    static func toDoList() throws -> HTTPMock {
        let mock = HTTPMock()
        try mock.stub(.method(.get), .url(items), .scenario("To do list", state: "Started"),
                      responses: [.dictionary(["items": [String]()], lifetime: .eternal)])
        try mock.stub(.method(.post), .url(items), .scenario("To do list", state: "Started"),
                      responses: [MockResponse.empty(status: .created).movingScenario("To do list", to: "Item added")])
        try mock.stub(.method(.get), .url(items), .scenario("To do list", state: "Item added"),
                      responses: [.dictionary(["items": ["Buy milk"]], lifetime: .eternal)])
        return mock
    }

    @Test func toDoListMovesFromStartedToItemAdded() async throws {
        let mock = try Self.toDoList()
        #expect(mock.scenarioState("To do list") == "Started")
        #expect(try await mock.urlSession.fetch(Self.items).text == #"{"items":[]}"#)
        #expect(try await mock.urlSession.fetch(Self.items, method: "POST").status == 201)
        #expect(mock.scenarioState("To do list") == "Item added")
        #expect(try await mock.urlSession.fetch(Self.items).text == #"{"items":["Buy milk"]}"#)
        // The POST stub answers only in Started: a second POST finds no stub.
        #expect(try await mock.urlSession.fetch(Self.items, method: "POST").status == 404)
        #expect(mock.scenarios == [Scenario(name: "To do list", state: "Item added", possibleStates: ["Started", "Item added"])])
    }

    @Test func resetAndSetMoveTheScenarioDirectly() async throws {
        let mock = try Self.toDoList()
        try mock.setScenarioState("Item added", of: "To do list")
        #expect(try await mock.urlSession.fetch(Self.items).text == #"{"items":["Buy milk"]}"#)
        try mock.resetScenario("To do list")
        #expect(mock.scenarioState("To do list") == "Started")
        #expect(try await mock.urlSession.fetch(Self.items).text == #"{"items":[]}"#)
        try mock.setScenarioState("Item added", of: "To do list")
        mock.resetScenarios()
        #expect(try await mock.urlSession.fetch(Self.items).text == #"{"items":[]}"#)
        // A state no stub mentions may be set: then no scenario stub answers.
        try mock.setScenarioState("Archived", of: "To do list")
        #expect(try await mock.urlSession.fetch(Self.items).status == 404)
    }

    @Test func unknownScenarioIsAnErrorNamingTheKnownOnes() throws {
        let mock = try Self.toDoList()
        #expect(mock.scenarioState("To-do list") == nil)
        let error = #expect(throws: HTTPMockError.self) { try mock.setScenarioState("Item added", of: "To-do list") }
        #expect(error?.code == .unknownScenario)
        #expect(error?.message.contains("scenario 'To-do list'") == true)
        #expect(error?.message.contains("the scenarios are 'To do list'") == true)
        #expect(throws: HTTPMockError(.unknownScenario, "no stub of this mock names scenario 'x'; none names a scenario (register one with Match.scenario or movingScenario first)")) {
            try HTTPMock().resetScenario("x")
        }
        #expect(mock.scenarioState("To do list") == "Started")
    }

    @Test func aStubMayMoveAScenarioWithoutRequiringAState() async throws {
        let mock = HTTPMock()
        try mock.stub(.method(.post), .path("/login"), responses: [
            MockResponse.plaintext("welcome", lifetime: .eternal).movingScenario("session", to: "Logged in"),
        ])
        try mock.stub(.path("/profile"), .scenario("session", state: "Logged in"), responses: [.plaintext("Ann", lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch("https://example.com/profile").status == 404)
        #expect(try await mock.urlSession.fetch("https://example.com/login", method: "POST").text == "welcome")
        #expect(try await mock.urlSession.fetch("https://example.com/profile").text == "Ann")
        // Moving to the state it is in changes nothing; a moving-only stub answers in any state.
        #expect(try await mock.urlSession.fetch("https://example.com/login", method: "POST").text == "welcome")
        #expect(mock.scenarios == [Scenario(name: "session", state: "Logged in", possibleStates: ["Started", "Logged in"])])
    }

    @Test func aScenarioConditionMakesAStubMoreSpecific() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/cart"), responses: [.plaintext("any state", lifetime: .eternal)])
        try mock.stub(.path("/cart"), .scenario("checkout", state: "Paid"), responses: [.plaintext("paid", lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch("https://example.com/cart").text == "any state")
        try mock.setScenarioState("Paid", of: "checkout")
        #expect(try await mock.urlSession.fetch("https://example.com/cart").text == "paid")
    }

    @Test func stubsRequiringDifferentStatesKeepTheirOwnQueues() async throws {
        let mock = HTTPMock()
        mock.registerResponses {
            Route(.path("/job"), .scenario("job", state: "Started")) { MockResponse.plaintext("queued") }
            Route(.path("/job"), .scenario("job", state: "Done")) { MockResponse.plaintext("done") }
            Route(.path("/job"), .scenario("job", state: "Started")) { MockResponse.plaintext("queued again") }
        }
        #expect(mock.stubUsage.map(\.remainingResponses) == [2, 1])
        #expect(try await mock.urlSession.fetch("https://example.com/job").text == "queued")
        try mock.setScenarioState("Done", of: "job")
        #expect(try await mock.urlSession.fetch("https://example.com/job").text == "done")
        try mock.resetScenario("job")
        #expect(try await mock.urlSession.fetch("https://example.com/job").text == "queued again")
    }

    @Test func removingTheLastStubThatNamesAScenarioForgetsIt() async throws {
        let mock = HTTPMock()
        let handle = try mock.stub(.path("/a"), .scenario("flow", state: "Started"),
                                   responses: [MockResponse.plaintext("a").movingScenario("flow", to: "Next")])
        let other = try mock.stub(.path("/b"), .scenario("flow", state: "Next"), responses: [.plaintext("b")])
        #expect(try await mock.urlSession.fetch("https://example.com/a").text == "a")
        other.remove()
        // The used-up response of /a still names the scenario: it is kept, in its state.
        #expect(mock.scenarios == [Scenario(name: "flow", state: "Next", possibleStates: ["Started", "Next"])])
        handle.remove()
        #expect(mock.scenarios.isEmpty)
        #expect(mock.scenarioState("flow") == nil)
        try mock.stub(.path("/a"), .scenario("flow", state: "Started"), responses: [.plaintext("a again")])
        #expect(mock.scenarioState("flow") == "Started")
        #expect(try await mock.urlSession.fetch("https://example.com/a").text == "a again")

        try mock.setScenarioState("Elsewhere", of: "flow")
        mock.clearQueues()
        try mock.stub(.path("/a"), .scenario("flow", state: "Started"), responses: [.plaintext("after clearing")])
        #expect(try await mock.urlSession.fetch("https://example.com/a").text == "after clearing")
    }

    @Test func badScenarioDefinitionsAreRefused() throws {
        let mock = HTTPMock()
        #expect(throws: HTTPMockError.self) { try mock.stub(.path("/a"), .scenario("", state: "Started"), responses: [.empty()]) }
        #expect(throws: HTTPMockError.self) { try mock.stub(.path("/a"), .scenario("s", state: ""), responses: [.empty()]) }
        let conflict = #expect(throws: HTTPMockError.self) {
            try mock.stub(.path("/a"), .scenario("s", state: "One"), .scenario("s", state: "Two"), responses: [.empty()])
        }
        #expect(conflict?.message.contains("requires scenario 's' in 'One' and in 'Two'") == true)
        let move = #expect(throws: HTTPMockError.self) {
            try mock.stub(.path("/a"), responses: [MockResponse.empty().movingScenario("s", to: "")])
        }
        #expect(move?.code == .invalidResponse)
        // Not on a request alone: inside `not`, or as an ignore rule.
        let negated = #expect(throws: HTTPMockError.self) { try mock.stub(.path("/a"), .not(.scenario("s", state: "One")), responses: [.empty()]) }
        #expect(negated?.message.contains("is a condition on a stub") == true)
        #expect(throws: HTTPMockError.self) { try mock.ignore(.path("/a"), .scenario("s", state: "One")) }
        #expect(mock.stubUsage.isEmpty)
        #expect(mock.scenarios.isEmpty)
    }
}
