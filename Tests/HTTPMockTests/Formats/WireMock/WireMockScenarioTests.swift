import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

/// WireMock's scenario fields run on the engine's scenarios: a mapping answers only in its required state and moves
/// the scenario when it answers.
@Suite struct WireMockScenarioTests {
    static let files = [
        "mappings/list-empty.json": """
            {"scenarioName": "Shopping list", "requiredScenarioState": "Started",
             "request": {"method": "GET", "url": "/list"},
             "response": {"status": 200, "jsonBody": {"items": []}}}
            """,
        "mappings/add.json": """
            {"scenarioName": "Shopping list", "requiredScenarioState": "Started", "newScenarioState": "Eggs added",
             "request": {"method": "POST", "url": "/list", "bodyPatterns": [{"contains": "eggs"}]},
             "response": {"status": 201}}
            """,
        "mappings/list-eggs.json": """
            {"scenarioName": "Shopping list", "requiredScenarioState": "Eggs added",
             "request": {"method": "GET", "url": "/list"},
             "response": {"status": 200, "jsonBody": {"items": ["eggs"]}}}
            """,
        "mappings/clear.json": """
            {"scenarioName": "Shopping list", "newScenarioState": "Started",
             "request": {"method": "DELETE", "url": "/list"},
             "response": {"status": 204}}
            """,
    ]

    @Test func aMappingAnswersInItsStateAndMovesTheScenario() async throws {
        let root = try WireMockBadInputTests.folder(Self.files)
        defer { try? FileManager.default.removeItem(at: root) }
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: root)
        let session = mock.urlSession
        #expect(try await session.fetch("http://localhost/list").text == #"{"items":[]}"#)
        #expect(try await session.fetch("http://localhost/list", method: "POST", body: Data("eggs".utf8)).status == 201)
        #expect(mock.scenarioState("Shopping list") == "Eggs added")
        #expect(try await session.fetch("http://localhost/list").text == #"{"items":["eggs"]}"#)
        // In "Eggs added" no mapping takes a second POST: the scenario stays where it is.
        #expect(try await session.fetch("http://localhost/list", method: "POST", body: Data("eggs".utf8)).status == 404)
        // A mapping without a required state answers in any state, and moves it back.
        #expect(try await session.fetch("http://localhost/list", method: "DELETE").status == 204)
        #expect(try await session.fetch("http://localhost/list").text == #"{"items":[]}"#)
        #expect(mock.scenarios.map(\.name) == ["Shopping list"])
        #expect(Set(mock.scenarios.first?.possibleStates ?? []) == ["Started", "Eggs added"])
    }

    @Test func anEmptyScenarioStateIsRefused() throws {
        let root = try WireMockBadInputTests.folder(["mappings/bad.json": """
            {"scenarioName": "Shopping list", "newScenarioState": "", "request": {"url": "/list"}}
            """])
        defer { try? FileManager.default.removeItem(at: root) }
        let mock = HTTPMock()
        #expect(throws: HTTPMockError.self) { try mock.loadWireMockMappings(from: root) }
        #expect(mock.scenarios.isEmpty)
    }
}
