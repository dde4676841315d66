import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// A scenario's state is read and moved in the same step as the decision that picks a response: parallel requests,
/// and user code that runs between the two halves of a decision, never see a stub answer in another state.
@Suite struct ScenarioConcurrencyTests {
    static let steps = 60

    /// Stub `i` answers only in state `i` and moves the scenario to `i + 1`; `userCode` adds a custom matcher to
    /// each, which sends every decision through its two halves.
    static func chain(userCode: Bool) throws -> HTTPMock {
        let mock = HTTPMock()
        for step in 0..<steps {
            var matchers: [Match] = [.path("/step"), .scenario("chain", state: "\(step)")]
            if userCode { matchers.append(.custom("user code") { _ in true }) }
            try mock.stub(matchers, responses: [
                MockResponse.plaintext("\(step)", lifetime: .eternal).movingScenario("chain", to: "\(step + 1)"),
            ])
        }
        try mock.setScenarioState("0", of: "chain")
        return mock
    }

    @Test(arguments: [false, true])
    func parallelRequestsWalkTheScenarioOneStateAtATime(userCode: Bool) async throws {
        let mock = try Self.chain(userCode: userCode)
        let session = mock.urlSession
        let answers = try await withThrowingTaskGroup(of: Reply.self) { group in
            for _ in 0..<(Self.steps + 10) { group.addTask { try await session.fetch("https://example.com/step") } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // Each step answered exactly once (an answer in a wrong state would repeat one), the rest found none.
        let answered = answers.filter { $0.status == 200 }.map(\.text).sorted { Int($0)! < Int($1)! }
        #expect(answered == (0..<Self.steps).map(String.init))
        #expect(answers.count { $0.status == 404 } == 10)
        #expect(mock.scenarioState("chain") == "\(Self.steps)")
        // In the journal's order, which is the order of the decisions, the steps come one after the other.
        let stepOfStub = Dictionary(uniqueKeysWithValues: mock.stubUsage.enumerated().map { ($1.id, $0) })
        let journaled = mock.journal.compactMap { entry -> Int? in
            guard case .stub(let id, _) = entry.resolution else { return nil }
            return stepOfStub[id]
        }
        #expect(journaled == Array(0..<Self.steps))
    }

    @Test func aStateMovedWhileUserCodeRunsIsCheckedAgain() async throws {
        let mock = HTTPMock()
        // The custom matcher runs between the two halves of the decision, and moves the scenario meanwhile.
        try mock.stub(.path("/pay"), .scenario("checkout", state: "Started"), .custom("moves the scenario") { [weak mock] _ in
            try? mock?.setScenarioState("Paid", of: "checkout")
            return true
        }, responses: [.plaintext("started", lifetime: .eternal)])
        try mock.stub(.path("/pay"), .scenario("checkout", state: "Paid"), responses: [.plaintext("paid", lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch("https://example.com/pay").text == "paid")
        #expect(mock.stubUsage.map(\.hits) == [0, 1])
    }

    @Test func aScenarioStubWithUserCodeAnswersInItsState() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/pay"), .scenario("checkout", state: "Started"), .custom { _ in true }, responses: [
            MockResponse.plaintext("paying").movingScenario("checkout", to: "Paid"),
        ])
        try mock.stub(.path("/pay"), .scenario("checkout", state: "Paid"), .custom { _ in true },
                      responses: [.plaintext("paid", lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch("https://example.com/pay").text == "paying")
        #expect(try await mock.urlSession.fetch("https://example.com/pay").text == "paid")
        try mock.resetScenario("checkout")
        // The first stub's only response is used up: in Started, nothing answers.
        #expect(try await mock.urlSession.fetch("https://example.com/pay").status == 404)
    }
}
