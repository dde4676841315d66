import Foundation
import HTTPMock
import HTTPMockServer
import HTTPMockTesting
import Testing

/// `/__admin/scenarios`, driving a stateful scenario created over the admin API as WireMock's documentation writes
/// its mappings.
@Suite("scenarios over the admin API")
struct ScenariosResourceTests {
    static let mappings = [
        """
        {
            "scenarioName": "Shopping basket",
            "requiredScenarioState": "Started",
            "request": {
                "method": "GET",
                "url": "/basket/items"
            },
            "response": {
                "status": 200,
                "body": "[]"
            }
        }
        """,
        """
        {
            "scenarioName": "Shopping basket",
            "requiredScenarioState": "Started",
            "newScenarioState": "Item added",
            "request": {
                "method": "POST",
                "url": "/basket/items",
                "bodyPatterns": [
                    { "contains": "Oat milk" }
                ]
            },
            "response": {
                "status": 201
            }
        }
        """,
        """
        {
            "scenarioName": "Shopping basket",
            "requiredScenarioState": "Item added",
            "request": {
                "method": "GET",
                "url": "/basket/items"
            },
            "response": {
                "status": 200,
                "body": "[\\"Oat milk\\"]"
            }
        }
        """,
    ]

    private func basketScenario(_ server: HTTPMockServer) async throws -> [String: Any]? {
        let json = try await call("GET", server.baseURL.adding("/__admin/scenarios")).json
        return (json?["scenarios"] as? [[String: Any]])?.first { $0["name"] as? String == "Shopping basket" }
    }

    @Test("a scenario created over the API, driven by requests, set with PUT …/state and reset")
    func driveAndReset() async throws {
        let mock = HTTPMock()
        let configuration = HTTPMockServer.Configuration(origin: "https://api.example.com", adminAPI: true)
        try await HTTPMockServer.withServer(serving: mock, configuration: configuration) { server in
            for mapping in Self.mappings {
                #expect(try await call("POST", server.baseURL.adding("/__admin/mappings"), body: mapping).status == 201)
            }
            let items = server.baseURL.adding("/basket/items")
            #expect(try await call("GET", items).text == "[]")
            #expect(try await call("POST", items, body: "Oat milk").status == 201)
            #expect(try await call("GET", items).text == #"["Oat milk"]"#)

            let scenario = try #require(try await basketScenario(server))
            #expect(scenario["id"] as? String == "Shopping basket")
            #expect(scenario["state"] as? String == "Item added")
            #expect(Set(scenario["possibleStates"] as? [String] ?? []) == ["Started", "Item added"])
            #expect(mock.scenarioState("Shopping basket") == "Item added")

            let state = server.baseURL.adding("/__admin/scenarios/Shopping%20basket/state")
            #expect(try await call("PUT", state, body: #"{"state": "Started"}"#).status == 200)
            #expect(try await call("GET", items).text == "[]")
            #expect(try await call("PUT", state, body: #"{"state": "Item added"}"#).status == 200)
            #expect(try await call("GET", items).text == #"["Oat milk"]"#)

            #expect(try await call("POST", server.baseURL.adding("/__admin/scenarios/reset")).status == 200)
            #expect(try await basketScenario(server)?["state"] as? String == "Started")
            #expect(try await call("GET", items).text == "[]")

            // A state no mapping mentions, and a scenario no stub names.
            let unsupported = try await call("PUT", state, body: #"{"state": "Checked out"}"#)
            #expect(unsupported.status == 422)
            #expect(unsupported.text.contains("does not support state Checked out"))
            let unknown = try await call("PUT", server.baseURL.adding("/__admin/scenarios/Wish%20list/state"), body: #"{"state": "Started"}"#)
            #expect(unknown.status == 404)
            #expect(unknown.text.contains("Scenario Wish list does not exist"))
            #expect(try await basketScenario(server)?["state"] as? String == "Started")
        }
    }

    @Test("POST /__admin/reset puts the scenarios of stubs registered in Swift back in Started")
    func resetAll() async throws {
        let mock = HTTPMock()
        try mock.stub(.host("api.example.com"), .path("/door"), .scenario("Door", state: "Started"),
                      responses: [MockResponse.plaintext("closed", lifetime: .eternal).movingScenario("Door", to: "Open")])
        try mock.stub(.host("api.example.com"), .path("/door"), .scenario("Door", state: "Open"),
                      responses: [MockResponse.plaintext("open", lifetime: .eternal)])
        let configuration = HTTPMockServer.Configuration(origin: "https://api.example.com", adminAPI: true)
        try await HTTPMockServer.withServer(serving: mock, configuration: configuration) { server async throws in
            let door = server.baseURL.adding("/door")
            #expect(try await call("GET", door).text == "closed")
            #expect(try await call("GET", door).text == "open")
            #expect(try await call("POST", server.baseURL.adding("/__admin/reset")).status == 200)
            #expect(mock.scenarioState("Door") == "Started")
            #expect(try await call("GET", door).text == "closed")
            // A body-less PUT …/state puts one scenario back in Started, as WireMock does.
            #expect(mock.scenarioState("Door") == "Open")
            #expect(try await call("PUT", server.baseURL.adding("/__admin/scenarios/Door/state")).status == 200)
            #expect(mock.scenarioState("Door") == "Started")
        }
    }
}
