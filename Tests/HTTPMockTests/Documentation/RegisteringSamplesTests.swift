import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// The samples of the Registering Responses article, run against a real mock.
@Suite struct RegisteringSamplesTests {
    @Test func queue() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/jobs/7", host: "api.example.com") {
            MockResponse.dictionary(["state": "queued"])
            MockResponse.dictionary(["state": "running"])
            MockResponse.dictionary(["state": "done"], lifetime: .eternal)
        }
        var states: [String] = []
        for _ in 0..<4 { states.append(try await mock.urlSession.fetch("https://api.example.com/jobs/7").text) }
        #expect(states == [#"{"state":"queued"}"#, #"{"state":"running"}"#, #"{"state":"done"}"#, #"{"state":"done"}"#])
    }

    @Test func narrowerRoutes() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/items", host: "api.example.com", method: .delete, responses: [.empty(status: .noContent)])
        mock.addResponses(forPath: "/search", host: "api.example.com", query: ["q": "swift"], matching: .contains) {
            MockResponse.plaintext("results")
        }
        #expect(try await mock.urlSession.fetch("https://api.example.com/items").status == 404)
        #expect(try await mock.urlSession.fetch("https://api.example.com/items", method: "DELETE").status == 204)
        #expect(try await mock.urlSession.fetch("https://api.example.com/search?q=swift&page=2").text == "results")
    }

    @Test func tree() async throws {
        let mock = HTTPMock()
        mock.registerResponses {
            Host("api.example.com") {
                Headers(["X-Env": "Test"], cascade: true)
                Path("/users") {
                    MockResponse.encodable([User(id: 1, name: "Alice")])
                    Path("{id}") {
                        MockResponse.dynamic { _, captures in .plaintext("user \(captures["id"] ?? "")") }
                    }
                }
            }
        }
        let list = try await mock.urlSession.fetch("https://api.example.com/users")
        #expect(try JSONDecoder().decode([User].self, from: Data(list.text.utf8)) == [User(id: 1, name: "Alice")])
        let one = try await mock.urlSession.fetch("https://api.example.com/users/42")
        #expect(one.text == "user 42")
        #expect(list.header("X-Env") == "Test")
        #expect(one.header("X-Env") == "Test")
    }

    @Test func matchers() async throws {
        let mock = HTTPMock()
        let login = try mock.stub(.method(.post), .url("https://api.example.com/login"), .form(["user": "ann"]),
                                  responses: [.dictionary(["token": "abc"], lifetime: .eternal)])
        login.isEnabled = false
        let form = Data("user=ann".utf8)
        #expect(try await mock.urlSession.fetch("https://api.example.com/login", method: "POST", body: form).status == 404)
        login.isEnabled = true
        #expect(try await mock.urlSession.fetch("https://api.example.com/login", method: "POST", body: form).text == #"{"token":"abc"}"#)
        #expect(login.hitCount == 1)
    }

    @Test func scenarios() async throws {
        let mock = HTTPMock()
        let items = "https://api.example.com/todo/items"
        try mock.stub(.method(.get), .url(items), .scenario("To do list", state: "Started"),
                      responses: [.dictionary(["items": [String]()], lifetime: .eternal)])
        try mock.stub(.method(.post), .url(items),
                      responses: [MockResponse.empty(status: .created).movingScenario("To do list", to: "Item added")])
        try mock.stub(.method(.get), .url(items), .scenario("To do list", state: "Item added"),
                      responses: [.dictionary(["items": ["Buy milk"]], lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch(items).text == #"{"items":[]}"#)
        #expect(try await mock.urlSession.fetch(items, method: "POST").status == 201)
        #expect(try await mock.urlSession.fetch(items).text == #"{"items":["Buy milk"]}"#)
        #expect(try await mock.urlSession.fetch(items).text == #"{"items":["Buy milk"]}"#)

        #expect(mock.scenarioState("To do list") == "Item added")
        try mock.setScenarioState("Started", of: "To do list")
        #expect(try await mock.urlSession.fetch(items).text == #"{"items":[]}"#)
        try mock.setScenarioState("Item added", of: "To do list")
        mock.resetScenarios()
        #expect(try await mock.urlSession.fetch(items).text == #"{"items":[]}"#)
        #expect(mock.scenarios == [Scenario(name: "To do list", state: "Started", possibleStates: ["Started", "Item added"])])
    }

    @Test func files() async throws {
        let mock = HTTPMock()
        let mappingsFolder = fixtures.appendingPathComponent("Mappings/api")
        let loaded = try mock.loadMappings(from: mappingsFolder)
        #expect(loaded.stubCount > 0)
        #expect(try await mock.urlSession.fetch("https://api.example.com/users/42").status == 200)
    }
}
