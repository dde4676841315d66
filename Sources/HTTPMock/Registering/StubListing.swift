/// One page of a mock's stubs, as HTTPMockServer's traffic page lists them (``HTTPMock/stubListing(offset:limit:)``).
package struct StubListing: Sendable {
    /// How many stubs the mock holds, on every page.
    package let total: Int
    /// Whether the mock answers with its stubs at all (``HTTPMock/isEnabled``).
    package let mockIsEnabled: Bool
    /// The page, in registration order.
    package let stubs: [ListedStub]
}

/// A stub with its use and state: what the traffic page shows of it.
package struct ListedStub: Sendable, Equatable {
    /// A scenario named with one of its states.
    package struct ScenarioState: Sendable, Hashable {
        package let scenario: String
        package let state: String
    }

    package let id: StubID
    /// The stub as reports name it (`api.example.com/users/* [method GET]`).
    package let summary: String
    /// Its methods and path, short (`GET /users/*`, `ANY /**`).
    package let route: String
    /// How many requests it answered.
    package let hits: Int
    /// Whether it answers (``StubHandle/isEnabled``).
    package let isEnabled: Bool
    /// Responses still queued (an eternal response counts as one).
    package let remainingResponses: Int
    /// Whether an eternal response is queued.
    package let servesForever: Bool
    /// The file and place it was loaded from (`mappings/users.json, mapping "Get user"`); `nil` for a stub
    /// registered in code.
    package let loadedFrom: String?
    /// The scenario states it requires.
    package let requiredStates: [ScenarioState]
    /// The scenario states its responses move to, in the order they were given.
    package let movesTo: [ScenarioState]
}

/// A scenario with the moves its stubs make, as HTTPMockServer's traffic page draws it
/// (``HTTPMock/scenarioGraphs``).
package struct ScenarioGraph: Sendable, Equatable {
    /// A stub that moves the scenario: from the state it requires (`nil`: in any state) to the state it moves to.
    package struct Transition: Sendable, Hashable {
        package let stub: StubID
        /// The stub as reports name it.
        package let summary: String
        /// Its methods and path, short (`POST /orders`).
        package let route: String
        package let from: String?
        package let to: String
    }

    package let name: String
    /// The state it is in now.
    package let state: String
    /// `"Started"`, then every state a stub requires or moves it to, in the order they were registered.
    package let possibleStates: [String]
    /// In registration order of the stubs.
    package let transitions: [Transition]
}

extension HTTPMock {
    /// One page of the stubs, in registration order, with their hits, enabled state and source; `total` counts
    /// them all. `offset` and `limit` below 0 count as 0.
    package func stubListing(offset: Int, limit: Int) -> StubListing {
        core.engine.stubListing(offset: offset, limit: limit)
    }

    /// Every scenario with its state and the moves its stubs make, in the order they were first named.
    package var scenarioGraphs: [ScenarioGraph] { core.engine.scenarioGraphs }

    /// The stubs that name a scenario (by requiring one of its states or moving it), in registration order.
    package var scenarioStubs: [ListedStub] { core.engine.scenarioStubs }

    /// Where each of `stubs` was loaded from (``ListedStub/loadedFrom``), by stub; a stub registered in code or
    /// removed since is left out. What HTTPMockServer's journal listings read to name the mapping that answered.
    package func loadedSources(of stubs: Set<StubID>) -> [StubID: String] {
        core.engine.loadedSources(of: stubs)
    }
}

extension Condition {
    /// The source a stub was loaded from, when this is the mark of ``loaded(from:)``.
    var loadedSource: String? {
        guard key == nil, weight == 0, !isUserCode, scenario == nil, summary.hasPrefix("from ") else { return nil }
        return String(summary.dropFirst("from ".count))
    }

    /// A stub's methods and path, short: `GET /users/*`, `GET|HEAD /`, `ANY /**`, with its host when it names one.
    static func route(of stub: Stub) -> String {
        let methods = methods(in: stub.conditions).map { $0.sorted().joined(separator: "|") } ?? "ANY"
        return methods + " " + (stub.host.map { $0.source } ?? "") + (stub.path?.normalized ?? "/**")
    }
}
