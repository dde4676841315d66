import Foundation
import HTTPMock
import HTTPMockServer
import Testing

/// Serve events (`GET /__admin/requests`, `…/{id}`, `POST …/remove`) and scenarios (`GET /__admin/scenarios`) in the
/// shapes WireMock 2.35.1's standalone server gives them for the same mappings and requests.
@Suite("serve events and scenarios in WireMock 2.35.1's shapes")
struct ServeEventShapeTests {
    /// A folder with a named mapping (with an id, a fixed delay, headers, a JSON body, metadata), one without id or
    /// name, and a scenario of three mappings in one file.
    static func folder() throws -> URL {
        try temporaryFolder([
            "mappings/hello.json": #"""
                {
                  "id": "11111111-1111-4111-8111-111111111111",
                  "name": "Hello",
                  "priority": 3,
                  "request": {"method": "GET", "urlPath": "/hello", "queryParameters": {"q": {"equalTo": "1"}}},
                  "response": {"status": 200, "headers": {"Content-Type": "application/json", "X-One": "a"},
                               "jsonBody": {"greeting": "hi"}, "fixedDelayMilliseconds": 5},
                  "metadata": {"team": "x"}
                }
                """#,
            "mappings/file.json": #"""
                {"request": {"method": "POST", "url": "/file"}, "response": {"status": 201, "bodyFileName": "f.txt"}}
                """#,
            "mappings/cart.json": #"""
                {"mappings": [
                  {"scenarioName": "Cart", "requiredScenarioState": "Started", "newScenarioState": "Zeta",
                   "request": {"method": "GET", "url": "/cart"}, "response": {"body": "empty"}},
                  {"scenarioName": "Cart", "requiredScenarioState": "Zeta", "newScenarioState": "Alpha",
                   "request": {"method": "GET", "url": "/cart"}, "response": {"body": "zeta"}},
                  {"scenarioName": "Cart", "requiredScenarioState": "Alpha",
                   "request": {"method": "GET", "url": "/cart"}, "response": {"body": "alpha"}}
                ]}
                """#,
            "__files/f.txt": "file body\n",
        ])
    }

    /// Runs `body` with a server of the folder's mappings and a stub registered in code (`GET /code`).
    static func withServer(_ body: (URL) async throws -> Void) async throws {
        let root = try folder()
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: root)
        mock.addResponses(forPath: "/code") { MockResponse.plaintext("code", lifetime: .eternal) }
        let configuration = HTTPMockServer.Configuration(adminAPI: true, wireMockFolder: root)
        try await HTTPMockServer.withServer(serving: mock, configuration: configuration) { server in
            try await body(server.baseURL)
        }
    }

    /// The mappings `GET /__admin/mappings` lists, by id.
    static func listedMappings(_ base: URL) async throws -> [String: NSDictionary] {
        let listed = try #require(try await call("GET", base.adding("/__admin/mappings")).json?["mappings"] as? [[String: Any]])
        var byID: [String: NSDictionary] = [:]
        for mapping in listed { if let id = mapping["id"] as? String { byID[id] = mapping as NSDictionary } }
        return byID
    }

    @Test("a serve event carries the mapping that answered as listed, its response as written, the timing and wasMatched")
    func servedByMappings() async throws {
        try await Self.withServer { base in
            let created = try await call("POST", base.adding("/__admin/mappings"),
                                         body: #"{"request": {"url": "/made"}, "response": {"status": 202, "body": "made"}}"#)
            #expect(created.status == 201)
            _ = try await call("GET", base.adding("/hello?q=1"))
            _ = try await call("POST", base.adding("/file"), body: "x=1")
            _ = try await call("GET", base.adding("/made"))
            _ = try await call("GET", base.adding("/code"))
            _ = try await call("GET", base.adding("/nothing"))
            let mappings = try await Self.listedMappings(base)
            let reply = try #require(try await call("GET", base.adding("/__admin/requests")).json)
            let events = try #require(reply["requests"] as? [[String: Any]])
            let byURL = Dictionary(events.map { (($0["request"] as? [String: Any])?["url"] as? String ?? "", $0) },
                                   uniquingKeysWith: { first, _ in first })
            #expect(byURL.count == 5)

            for event in events {
                for key in ["id", "request", "response", "responseDefinition", "stubMapping", "timing", "wasMatched"] {
                    #expect(event[key] != nil, "\(key) missing")
                }
                let timing = try #require(event["timing"] as? [String: Any])
                for key in ["addedDelay", "processTime", "responseSendTime", "serveTime", "totalTime"] {
                    #expect(timing[key] is Int, "timing.\(key) is no whole number")
                }
                #expect(((event["request"] as? [String: Any])?["port"] as? Int) == base.port)
            }

            // A file's mapping with an id and a name: as listed, and its response as the file wrote it.
            let hello = try #require(byURL["/hello?q=1"])
            let helloMapping = try #require(mappings["11111111-1111-4111-8111-111111111111"])
            #expect((hello["stubMapping"] as? NSDictionary) == helloMapping)
            #expect((hello["responseDefinition"] as? NSDictionary) == (helloMapping["response"] as? NSDictionary))
            #expect((hello["responseDefinition"] as? [String: Any])?["fromConfiguredStub"] == nil)
            #expect(hello["wasMatched"] as? Bool == true)
            let helloTiming = try #require(hello["timing"] as? [String: Int])
            #expect(helloTiming["addedDelay"] == 5)
            #expect(helloTiming["totalTime"] == (helloTiming["serveTime"] ?? 0) + 5)

            // A file's mapping without id: as listed, with the id the listing gives it.
            let file = try #require(byURL["/file"])
            let fileID = try #require((file["stubMapping"] as? [String: Any])?["id"] as? String)
            #expect((file["stubMapping"] as? NSDictionary) == mappings[fileID])
            #expect((file["responseDefinition"] as? NSDictionary) == (["status": 201, "bodyFileName": "f.txt"] as NSDictionary))

            // A mapping created over the admin API: as it was created.
            let made = try #require(byURL["/made"])
            let madeMapping = try #require(created.json)
            #expect((made["stubMapping"] as? NSDictionary) == (madeMapping as NSDictionary))
            #expect((made["responseDefinition"] as? NSDictionary) == (["status": 202, "body": "made"] as NSDictionary))

            // A stub registered in code has no mapping: named by its summary, as near misses name it.
            let code = try #require(byURL["/code"])
            let codeMapping = try #require(code["stubMapping"] as? [String: Any])
            #expect(codeMapping.keys.sorted() == ["name"])
            #expect(code["wasMatched"] as? Bool == true)

            // No stub answered: WireMock's stand-in mapping, the same for every such request.
            let nothing = try #require(byURL["/nothing"])
            #expect((nothing["responseDefinition"] as? NSDictionary) == (["fromConfiguredStub": false, "status": 404] as NSDictionary))
            let standIn = try #require(nothing["stubMapping"] as? [String: Any])
            #expect(standIn.keys.sorted() == ["id", "request", "response", "uuid"])
            #expect(standIn["id"] as? String == standIn["uuid"] as? String)
            #expect((standIn["request"] as? NSDictionary) == (["method": "ANY"] as NSDictionary))
            #expect((standIn["response"] as? NSDictionary) == (nothing["responseDefinition"] as? NSDictionary))
            #expect(nothing["wasMatched"] as? Bool == false)

            // The same serve event alone, and among the removed ones.
            let id = try #require(hello["id"] as? String)
            let single = try #require(try await call("GET", base.adding("/__admin/requests/\(id)")).json)
            #expect((single["stubMapping"] as? NSDictionary) == helloMapping)
            #expect((single["responseDefinition"] as? NSDictionary) == (helloMapping["response"] as? NSDictionary))
            let removed = try #require(try await call("POST", base.adding("/__admin/requests/remove"),
                                                      body: #"{"urlPath": "/hello"}"#).json?["serveEvents"] as? [[String: Any]])
            #expect(removed.count == 1)
            #expect((removed.first?["stubMapping"] as? NSDictionary) == helloMapping)
        }
    }

    @Test("scenarios list their mappings in registration order and possibleStates as WireMock orders them")
    func scenarioShapes() async throws {
        try await Self.withServer { base in
            for mapping in [
                #"{"scenarioName": "S", "requiredScenarioState": "Xray", "newScenarioState": "Yank", "request": {"url": "/s1"}, "response": {"status": 200}}"#,
                #"{"scenarioName": "S", "requiredScenarioState": "Zulu", "newScenarioState": "Whisky", "request": {"url": "/s2"}, "response": {"status": 200}}"#,
                #"{"scenarioName": "T", "newScenarioState": "N1", "request": {"url": "/t1"}, "response": {"status": 200}}"#,
                #"{"scenarioName": "T", "requiredScenarioState": "Started", "request": {"url": "/t2"}, "response": {"status": 200}}"#,
                #"{"scenarioName": "T", "requiredScenarioState": "R1", "newScenarioState": "N1", "request": {"url": "/t3"}, "response": {"status": 200}}"#,
            ] {
                #expect(try await call("POST", base.adding("/__admin/mappings"), body: mapping).status == 201)
            }
            let mappings = try await Self.listedMappings(base)
            let reply = try #require(try await call("GET", base.adding("/__admin/scenarios")).json)
            let scenarios = try #require(reply["scenarios"] as? [[String: Any]])
            let byName = Dictionary(scenarios.map { ($0["name"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
            #expect(byName.keys.sorted() == ["Cart", "S", "T"])
            for scenario in scenarios {
                #expect(scenario.keys.sorted() == ["id", "mappings", "name", "possibleStates", "state"])
                #expect(scenario["id"] as? String == scenario["name"] as? String)
                #expect(scenario["state"] as? String == "Started")
                // Each mapping as GET /__admin/mappings lists it.
                for mapping in scenario["mappings"] as? [[String: Any]] ?? [] {
                    #expect((mapping as NSDictionary) == mappings[mapping["id"] as? String ?? ""])
                }
            }
            // The states mappings move it to, then those they require, each once; Started only where named.
            #expect(byName["Cart"]?["possibleStates"] as? [String] == ["Zeta", "Alpha", "Started"])
            #expect(byName["S"]?["possibleStates"] as? [String] == ["Yank", "Whisky", "Xray", "Zulu"])
            #expect(byName["T"]?["possibleStates"] as? [String] == ["N1", "Started", "R1"])
            func urls(_ name: String) -> [String] {
                (byName[name]?["mappings"] as? [[String: Any]] ?? []).map {
                    (($0["request"] as? [String: Any])?["url"] as? String ?? "") + " " + (($0["response"] as? [String: Any])?["body"] as? String ?? "")
                }
            }
            #expect(urls("Cart") == ["/cart empty", "/cart zeta", "/cart alpha"])
            #expect(urls("S") == ["/s1 ", "/s2 "])
            #expect(urls("T") == ["/t1 ", "/t2 ", "/t3 "])
        }
    }
}
