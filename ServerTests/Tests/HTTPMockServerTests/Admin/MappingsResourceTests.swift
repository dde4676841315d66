import Foundation
import HTTPMock
import HTTPMockServer
import HTTPMockTesting
import Testing

/// `/__admin/mappings` with bodies as WireMock's documentation writes them, over a plain URLSession.
@Suite("WireMock stub mappings over the admin API")
struct MappingsResourceTests {
    static let greeting = """
        {
            "request": {
                "method": "GET",
                "url": "/some/thing"
            },
            "response": {
                "status": 200,
                "body": "Hello, world!",
                "headers": {
                    "Content-Type": "text/plain"
                }
            }
        }
        """

    private func withAdminServer(_ mock: HTTPMock, wireMockFolder: URL? = nil,
                                 _ body: (HTTPMockServer) async throws -> Void) async throws {
        let configuration = HTTPMockServer.Configuration(origin: "https://api.example.com", adminAPI: true,
                                                         wireMockFolder: wireMockFolder)
        try await HTTPMockServer.withServer(serving: mock, configuration: configuration) { try await body($0) }
    }

    private func mappings(_ server: HTTPMockServer) async throws -> (mappings: [[String: Any]], total: Int?) {
        let json = try #require(try await call("GET", server.baseURL.adding("/__admin/mappings")).json)
        return (json["mappings"] as? [[String: Any]] ?? [], (json["meta"] as? [String: Any])?["total"] as? Int)
    }

    @Test("POST takes a mapping with optional keys given null as WireMock does (absent, and listed without them), and refuses a null operand with 422 naming it")
    func nullKeys() async throws {
        let mock = HTTPMock()
        try await withAdminServer(mock) { server in
            let withNulls = """
                {"name": null, "priority": null, "metadata": null, "scenarioName": null, "newScenarioState": null,
                 "request": {"method": null, "url": null, "urlPath": "/nulls", "headers": null, "queryParameters": null, "bodyPatterns": null},
                 "response": {"status": null, "body": "absent", "jsonBody": null, "headers": null, "fixedDelayMilliseconds": null,
                              "transformers": null, "proxyBaseUrl": null, "additionalProxyRequestHeaders": null}}
                """
            let created = try await call("POST", server.baseURL.adding("/__admin/mappings"), body: withNulls)
            #expect(created.status == 201, "\(created.text)")
            let mapping = try #require(created.json)
            #expect(Set(mapping.keys) == ["id", "uuid", "request", "response"], "\(created.text)")
            #expect(mapping["request"] as? [String: String] == ["urlPath": "/nulls"], "\(created.text)")
            #expect(mapping["response"] as? [String: String] == ["body": "absent"], "\(created.text)")
            // Any method, as a missing one.
            for method in ["GET", "DELETE"] {
                let reply = try await call(method, server.baseURL.adding("/nulls?x=1"))
                #expect(reply.status == 200 && reply.text == "absent", "\(method)")
            }
            #expect(try await mappings(server).mappings.first?["request"] as? [String: String] == ["urlPath": "/nulls"])

            for (body, pointer) in [(#"{"request": {"urlPath": "/n", "headers": {"X": {"equalTo": null}}}}"#, "/request/headers/X/equalTo"),
                                    (#"{"request": null, "response": {"body": "every request"}}"#, "/")] {
                let refused = try await call("POST", server.baseURL.adding("/__admin/mappings"), body: body)
                #expect(refused.status == 422, "\(body)")
                let error = try #require((refused.json?["errors"] as? [[String: Any]])?.first)
                #expect((error["source"] as? [String: Any])?["pointer"] as? String == pointer, "\(refused.text)")
                #expect((error["detail"] as? String)?.contains("is null; give") == true, "\(refused.text)")
            }
            #expect(try await mappings(server).total == 1)
            #expect(try await call("GET", server.baseURL.adding("/other")).status == 404)
        }
    }

    @Test("POST creates a mapping (201, with its id) that answers beside the stubs of code; GET lists it and reads it back")
    func createListGet() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/ping", host: "api.example.com") { MockResponse.plaintext("pong", lifetime: .eternal) }
        try await withAdminServer(mock) { server in
            let created = try await call("POST", server.baseURL.adding("/__admin/mappings"), body: Self.greeting)
            #expect(created.status == 201)
            let mapping = try #require(created.json)
            let id = try #require(mapping["id"] as? String)
            #expect(UUID(uuidString: id) != nil)
            #expect((mapping["request"] as? [String: Any])?["url"] as? String == "/some/thing")

            let reply = try await call("GET", server.baseURL.adding("/some/thing"))
            #expect(reply.status == 200)
            #expect(reply.text == "Hello, world!")
            #expect(reply.headers["content-type"] == "text/plain")
            #expect(try await call("GET", server.baseURL.adding("/ping")).text == "pong")
            HTTPAssertRequested("https://api.example.com/some/thing", method: .get, count: .exactly(1), in: mock)

            let named = """
                {
                    "id": "76ada7b0-55ae-4229-91c4-396a36f18347",
                    "name": "Orders",
                    "request": { "method": "GET", "urlPath": "/orders" },
                    "response": { "status": 200, "jsonBody": { "orders": [] } }
                }
                """
            #expect(try await call("POST", server.baseURL.adding("/__admin/mappings"), body: named).status == 201)
            let (listed, total) = try await mappings(server)
            #expect(total == 2)
            // Newest first, as WireMock lists them; the stub registered in code is not a mapping of the admin API.
            #expect(listed.map { $0["id"] as? String } == ["76ada7b0-55ae-4229-91c4-396a36f18347", id])
            #expect(listed.first?["name"] as? String == "Orders")
            let paged = try #require(try await call("GET", server.baseURL.adding("/__admin/mappings?limit=1&offset=1")).json)
            #expect((paged["mappings"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])

            let single = try await call("GET", server.baseURL.adding("/__admin/mappings/\(id)"))
            #expect(single.status == 200)
            #expect((single.json?["response"] as? [String: Any])?["body"] as? String == "Hello, world!")
            #expect(try await call("GET", server.baseURL.adding("/orders")).json?["orders"] as? [Any] != nil)
        }
    }

    @Test("PUT replaces a mapping in one step and keeps its id; one that cannot be served changes nothing")
    func edit() async throws {
        let mock = HTTPMock()
        try await withAdminServer(mock) { server in
            let created = try #require(try await call("POST", server.baseURL.adding("/__admin/mappings"), body: Self.greeting).json)
            let id = try #require(created["id"] as? String)
            let edited = """
                {
                    "request": {
                        "method": "GET",
                        "url": "/some/thing"
                    },
                    "response": {
                        "status": 200,
                        "body": "Hello again!"
                    }
                }
                """
            let reply = try await call("PUT", server.baseURL.adding("/__admin/mappings/\(id)"), body: edited)
            #expect(reply.status == 200)
            #expect(reply.json?["id"] as? String == id)
            #expect(try await call("GET", server.baseURL.adding("/some/thing")).text == "Hello again!")
            #expect(try await mappings(server).total == 1)
            #expect(mock.stubUsage.count == 1)

            // A body file without a WireMock folder: refused, and the edited mapping keeps answering.
            let broken = #"{"request": {"method": "GET", "url": "/some/thing"}, "response": {"bodyFileName": "thing.json"}}"#
            let refused = try await call("PUT", server.baseURL.adding("/__admin/mappings/\(id)"), body: broken)
            #expect(refused.status == 422)
            #expect((refused.json?["errors"] as? [[String: Any]])?.first?["detail"] as? String != nil)
            #expect(try await call("GET", server.baseURL.adding("/some/thing")).text == "Hello again!")
            let kept = try await call("GET", server.baseURL.adding("/__admin/mappings/\(id)"))
            #expect((kept.json?["response"] as? [String: Any])?["body"] as? String == "Hello again!")
            #expect(mock.stubUsage.count == 1)
        }
    }

    @Test("DELETE removes one mapping, or every mapping created over the API; the stubs of code stay")
    func delete() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/ping", host: "api.example.com") { MockResponse.plaintext("pong", lifetime: .eternal) }
        try await withAdminServer(mock) { server in
            let first = try #require(try await call("POST", server.baseURL.adding("/__admin/mappings"), body: Self.greeting).json)
            let id = try #require(first["id"] as? String)
            #expect(try await call("DELETE", server.baseURL.adding("/__admin/mappings/\(id)")).status == 200)
            let gone = try await call("GET", server.baseURL.adding("/some/thing"))
            #expect(gone.status == 404)
            #expect(gone.headers["x-httpmock"] == "unmatched")
            #expect(try await call("DELETE", server.baseURL.adding("/__admin/mappings/\(id)")).status == 404)

            _ = try await call("POST", server.baseURL.adding("/__admin/mappings"), body: Self.greeting)
            _ = try await call("POST", server.baseURL.adding("/__admin/mappings"), body: #"{"request": {"urlPath": "/other"}, "response": {"body": "other"}}"#)
            #expect(try await mappings(server).total == 2)
            #expect(try await call("DELETE", server.baseURL.adding("/__admin/mappings")).status == 200)
            #expect(try await mappings(server).total == 0)
            #expect(try await call("GET", server.baseURL.adding("/some/thing")).status == 404)
            #expect(try await call("GET", server.baseURL.adding("/other")).status == 404)
            #expect(try await call("GET", server.baseURL.adding("/ping")).text == "pong")
        }
    }

    @Test("POST /__admin/mappings/reset and POST /__admin/reset go back to the stubs the server started with")
    func reset() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/ping", host: "api.example.com") { MockResponse.plaintext("pong", lifetime: .eternal) }
        try await withAdminServer(mock) { server in
            for path in ["/__admin/mappings/reset", "/__admin/reset"] {
                _ = try await call("POST", server.baseURL.adding("/__admin/mappings"), body: Self.greeting)
                #expect(try await call("GET", server.baseURL.adding("/some/thing")).text == "Hello, world!")
                #expect(try await call("POST", server.baseURL.adding(path)).status == 200, "\(path)")
                #expect(try await mappings(server).total == 0, "\(path)")
                #expect(mock.journal.isEmpty, "\(path)")
                #expect(try await call("GET", server.baseURL.adding("/some/thing")).status == 404, "\(path)")
                #expect(try await call("GET", server.baseURL.adding("/ping")).text == "pong", "\(path)")
                mock.clearJournal()
            }
        }
    }

    @Test("GET /__admin/mappings lists the folder's files as they are now: an edited file, a new one and one removed are seen, unchanged ones are not read again")
    func listingFollowsTheFiles() async throws {
        let root = try temporaryFolder([
            "mappings/a.json": #"{"request": {"urlPath": "/a"}, "response": {"body": "a"}}"#,
            "mappings/b.json": #"{"request": {"urlPath": "/b"}, "response": {"body": "b"}}"#,
            "__files/.keep": "",
        ])
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: root)
        try await withAdminServer(mock, wireMockFolder: root) { server in
            func urls() async throws -> [String] {
                try await mappings(server).mappings.compactMap { ($0["request"] as? [String: Any])?["urlPath"] as? String }.sorted()
            }
            #expect(try await urls() == ["/a", "/b"])
            #expect(try await urls() == ["/a", "/b"], "listed again from what was kept")
            let mappingsFolder = root.appendingPathComponent("mappings")
            // Same size, other content: the time of change and the inode say it changed.
            try Data(#"{"request": {"urlPath": "/c"}, "response": {"body": "a"}}"#.utf8)
                .write(to: mappingsFolder.appendingPathComponent("a.json"), options: .atomic)
            try Data(#"{"request": {"urlPath": "/d"}, "response": {"body": "d"}}"#.utf8)
                .write(to: mappingsFolder.appendingPathComponent("d.json"))
            try FileManager.default.removeItem(at: mappingsFolder.appendingPathComponent("b.json"))
            #expect(try await urls() == ["/c", "/d"])
            #expect(try await mappings(server).total == 2)
        }
    }

    @Test("POST /__admin/mappings/save writes the mappings into mappings/ of the WireMock folder, which loads them back")
    func save() async throws {
        let root = try temporaryFolder(["__files/thing.json": #"{"thing": 1}"#])
        let mock = HTTPMock()
        try await withAdminServer(mock, wireMockFolder: root) { server in
            let withFile = """
                {
                    "request": {
                        "method": "GET",
                        "url": "/things/1"
                    },
                    "response": {
                        "status": 200,
                        "bodyFileName": "thing.json"
                    }
                }
                """
            let created = try #require(try await call("POST", server.baseURL.adding("/__admin/mappings"), body: withFile).json)
            let id = try #require(created["id"] as? String)
            #expect(try await call("GET", server.baseURL.adding("/things/1")).text == #"{"thing": 1}"#)
            _ = try await call("POST", server.baseURL.adding("/__admin/mappings"), body: Self.greeting)
            #expect(try await call("POST", server.baseURL.adding("/__admin/mappings/save")).status == 200)
            let files = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("mappings").path)
            #expect(files.count == 2)
            #expect(files.contains("\(id).json"))
        }
        let reloaded = HTTPMock()
        try reloaded.loadWireMockMappings(from: root)
        try await HTTPMockServer.withServer(serving: reloaded) { server async throws in
            #expect(try await call("GET", server.baseURL.adding("/things/1")).text == #"{"thing": 1}"#)
            #expect(try await call("GET", server.baseURL.adding("/some/thing")).text == "Hello, world!")
        }
    }

    @Test("a file's own mapping edited over the API is saved back into its file; one of a file of several is refused, as WireMock refuses it, and nothing is written")
    func savesAnEditedFileMappingInPlace() async throws {
        let named = "1c5db2a9-6f1e-4c0e-9a43-7d3c1d2f0a11"
        let more = #"{"mappings": [{"request": {"urlPath": "/a"}, "response": {"jsonBody": {"z": 1, "a": 1.50}}}, {"request": {"urlPath": "/b"}, "response": {"body": "b"}}]}"#
        let root = try temporaryFolder([
            "mappings/named.json": #"{"id": "\#(named)", "request": {"urlPath": "/named"}, "response": {"body": "named"}}"#,
            "mappings/more.json": more,
            "__files/.keep": "",
        ])
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: root)
        try await withAdminServer(mock, wireMockFolder: root) { server in
            let admin = server.baseURL.adding("/__admin")
            let listed = try #require(try await call("GET", admin.adding("/mappings")).json?["mappings"] as? [[String: Any]])
            let b = try #require(listed.first { ($0["request"] as? [String: Any])?["urlPath"] as? String == "/b" }?["id"] as? String)
            #expect(try await call("PUT", admin.adding("/mappings/\(named)"),
                                   body: #"{"request": {"urlPath": "/named"}, "response": {"body": "edited"}}"#).status == 200)
            let saved = try await call("POST", admin.adding("/mappings/save"))
            #expect(saved.status == 200, "\(saved.text)")
            #expect(try await call("PUT", admin.adding("/mappings/\(b)"),
                                   body: #"{"request": {"urlPath": "/b"}, "response": {"body": "b edited"}}"#).status == 200)
            let refused = try await call("POST", admin.adding("/mappings/save"))
            #expect(refused.status == 409, "\(refused.text)")
            #expect(refused.text.contains("more.json") && refused.text.contains("read-only"), "\(refused.text)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("mappings").path).sorted()
        #expect(files == ["more.json", "named.json"])
        #expect(try String(contentsOf: root.appendingPathComponent("mappings/more.json"), encoding: .utf8) == more, "left as written")
        let reloaded = HTTPMock()
        try reloaded.loadWireMockMappings(from: root)
        try await HTTPMockServer.withServer(serving: reloaded) { server async throws in
            #expect(try await call("GET", server.baseURL.adding("/named")).text == "edited")
            #expect(try await call("GET", server.baseURL.adding("/b")).text == "b")
        }
    }

    @Test("find-by-metadata and remove-by-metadata reach the folder's mappings too, a file of one and a file of several, as WireMock's do")
    func metadataReachesFileMappings() async throws {
        let root = try temporaryFolder([
            "mappings/solo.json": #"{"request": {"urlPath": "/solo"}, "response": {"body": "solo"}, "metadata": {"team": "files"}}"#,
            "mappings/more.json": #"{"mappings": [{"request": {"urlPath": "/a"}, "response": {"body": "a"}, "metadata": {"team": "files"}}, {"request": {"urlPath": "/b"}, "response": {"body": "b"}}]}"#,
            "__files/.keep": "",
        ])
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: root)
        try await withAdminServer(mock, wireMockFolder: root) { server in
            let admin = server.baseURL.adding("/__admin")
            let pattern = #"{"equalToJson": {"team": "files"}}"#
            let found = try await call("POST", admin.adding("/mappings/find-by-metadata"), body: pattern)
            let paths = (found.json?["mappings"] as? [[String: Any]] ?? []).compactMap { ($0["request"] as? [String: Any])?["urlPath"] as? String }
            #expect(paths.sorted() == ["/a", "/solo"], "\(found.text)")
            #expect(try await call("POST", admin.adding("/mappings/remove-by-metadata"), body: pattern).status == 200)
            #expect(try await call("GET", server.baseURL.adding("/solo")).status == 404)
            #expect(try await call("GET", server.baseURL.adding("/a")).status == 404)
            #expect(try await call("GET", server.baseURL.adding("/b")).text == "b")
        }
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("mappings/solo.json").path), "removed in memory; the file stays")
    }

    @Test("GET lists the served folder's mappings too, as their files hold them; a file's mapping is changed in memory")
    func listsTheFoldersMappings() async throws {
        let root = try temporaryFolder([
            "mappings/named.json": #"{"id": "1c5db2a9-6f1e-4c0e-9a43-7d3c1d2f0a11", "request": {"urlPath": "/named"}, "response": {"body": "named"}}"#,
            "mappings/more.json": #"{"mappings": [{"request": {"urlPath": "/a"}, "response": {"body": "a"}}, {"request": {"urlPath": "/b"}, "response": {"body": "b"}}]}"#,
            "__files/.keep": "",
        ])
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: root)
        try await withAdminServer(mock, wireMockFolder: root) { server in
            _ = try await call("POST", server.baseURL.adding("/__admin/mappings"), body: Self.greeting)
            let (listed, total) = try await mappings(server)
            #expect(total == 4)
            // The one created over the API first (newest), then the files' in file order.
            #expect(listed.map { ($0["request"] as? [String: Any])?["urlPath"] as? String ?? ($0["request"] as? [String: Any])?["url"] as? String }
                    == ["/some/thing", "/a", "/b", "/named"])
            // A mapping its file gives no id keeps the one made for it from one listing to the next.
            let ids = listed.compactMap { $0["id"] as? String }
            #expect(try await mappings(server).mappings.compactMap { $0["id"] as? String } == ids)
            #expect(ids.last == "1c5db2a9-6f1e-4c0e-9a43-7d3c1d2f0a11")
            let a = try await call("GET", server.baseURL.adding("/__admin/mappings/\(ids[1])"))
            #expect(a.status == 200 && ((a.json?["response"] as? [String: Any])?["body"] as? String) == "a")
            #expect(try await call("GET", server.baseURL.adding("/named")).text == "named")
            let file = try String(contentsOf: root.appendingPathComponent("mappings/named.json"), encoding: .utf8)
            // PUT replaces it in memory, keeping its id, as WireMock does; its file stays as it is.
            let edited = try await call("PUT", server.baseURL.adding("/__admin/mappings/\(ids[3])"),
                                        body: #"{"request": {"urlPath": "/named"}, "response": {"body": "edited"}}"#)
            #expect(edited.status == 200)
            #expect(edited.json?["id"] as? String == ids[3])
            #expect(try await call("GET", server.baseURL.adding("/named")).text == "edited")
            #expect(try await mappings(server).total == 4)
            let one = try await call("GET", server.baseURL.adding("/__admin/mappings/\(ids[3])"))
            #expect((one.json?["response"] as? [String: Any])?["body"] as? String == "edited")
            // DELETE removes one in memory; the others of its file stay.
            #expect(try await call("DELETE", server.baseURL.adding("/__admin/mappings/\(ids[1])")).status == 200)
            #expect(try await call("GET", server.baseURL.adding("/a")).status == 404)
            #expect(try await call("GET", server.baseURL.adding("/b")).text == "b")
            #expect(try await call("GET", server.baseURL.adding("/__admin/mappings/\(ids[1])")).status == 404)
            #expect(try await call("DELETE", server.baseURL.adding("/__admin/mappings/\(ids[1])")).status == 404)
            #expect(try await mappings(server).total == 3)
            #expect(try String(contentsOf: root.appendingPathComponent("mappings/named.json"), encoding: .utf8) == file)
            // A bad body changes nothing.
            #expect(try await call("PUT", server.baseURL.adding("/__admin/mappings/\(ids[2])"), body: #"{"request": {"url": 7}}"#).status == 422)
            #expect(try await call("GET", server.baseURL.adding("/b")).text == "b")
            // Reset serves the files' mappings again, as WireMock goes back to its files.
            #expect(try await call("POST", server.baseURL.adding("/__admin/reset")).status == 200)
            #expect(try await call("GET", server.baseURL.adding("/named")).text == "named")
            #expect(try await call("GET", server.baseURL.adding("/a")).text == "a")
            #expect(try await mappings(server).total == 3)
        }
    }

    @Test("DELETE of a file's mapping with an id or a name stops its stub answering, as WireMock's does")
    func deleteNamedFileMappings() async throws {
        let root = try temporaryFolder([
            "mappings/id.json": #"{"id": "3e7fd4cb-8b3a-4e2a-9c65-9f5e3f4a2c33", "request": {"urlPath": "/with-id"}, "response": {"body": "id"}}"#,
            "mappings/name.json": #"{"name": "Named", "request": {"urlPath": "/with-name"}, "response": {"body": "name"}}"#,
            "__files/.keep": "",
        ])
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: root)
        try await withAdminServer(mock, wireMockFolder: root) { server in
            let listed = try await mappings(server).mappings
            #expect(listed.count == 2)
            for mapping in listed {
                let id = try #require(mapping["id"] as? String)
                let path = try #require((mapping["request"] as? [String: Any])?["urlPath"] as? String)
                #expect(try await call("GET", server.baseURL.adding(path)).status == 200)
                #expect(try await call("DELETE", server.baseURL.adding("/__admin/mappings/\(id)")).status == 200)
                #expect(try await call("GET", server.baseURL.adding(path)).status == 404, "\(path) still answered")
            }
            #expect(try await mappings(server).total == 0)
            // Reset serves them again.
            #expect(try await call("POST", server.baseURL.adding("/__admin/reset")).status == 200)
            #expect(try await call("GET", server.baseURL.adding("/with-id")).text == "id")
            #expect(try await call("GET", server.baseURL.adding("/with-name")).text == "name")
        }
    }

    @Test("a near miss of a file's mapping carries the mapping, with its id, as one created over the API does")
    func nearMissesOfFileMappings() async throws {
        let root = try temporaryFolder([
            "mappings/named.json": #"{"id": "2d6ec3ba-7a2f-4d1f-8b54-8e4d2e3f1b22", "request": {"method": "POST", "urlPath": "/orders"}, "response": {"status": 201}}"#,
            "__files/.keep": "",
        ])
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: root)
        try await withAdminServer(mock, wireMockFolder: root) { server in
            #expect(try await call("GET", server.baseURL.adding("/orders")).status == 404)
            let unmatched = try await call("GET", server.baseURL.adding("/__admin/requests/unmatched/near-misses"))
            let misses = try #require(unmatched.json?["nearMisses"] as? [[String: Any]])
            #expect((misses.first?["stubMapping"] as? [String: Any])?["id"] as? String == "2d6ec3ba-7a2f-4d1f-8b54-8e4d2e3f1b22")
            let asked = try await call("POST", server.baseURL.adding("/__admin/near-misses/request"), body: #"{"url": "/orders", "method": "GET"}"#)
            let closest = try #require(asked.json?["nearMisses"] as? [[String: Any]])
            let mapping = closest.first?["stubMapping"] as? [String: Any]
            #expect(mapping?["id"] as? String == "2d6ec3ba-7a2f-4d1f-8b54-8e4d2e3f1b22")
            #expect((mapping?["request"] as? [String: Any])?["urlPath"] as? String == "/orders")
        }
    }

    @Test("saving is refused without a WireMock folder, and when mappings/ leads out of it")
    func saveRefusals() async throws {
        try await withAdminServer(HTTPMock()) { server in
            _ = try await call("POST", server.baseURL.adding("/__admin/mappings"), body: Self.greeting)
            let refused = try await call("POST", server.baseURL.adding("/__admin/mappings/save"))
            #expect(refused.status == 403)
            #expect(refused.text.contains("wireMockFolder"))
        }
        let root = try temporaryFolder()
        let outside = try temporaryFolder()
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("mappings"), withDestinationURL: outside)
        try await withAdminServer(HTTPMock(), wireMockFolder: root) { server in
            _ = try await call("POST", server.baseURL.adding("/__admin/mappings"), body: Self.greeting)
            let refused = try await call("POST", server.baseURL.adding("/__admin/mappings/save"))
            #expect(refused.status == 500)
            #expect(refused.text.contains("leads outside"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
    }

    @Test("a mapping that cannot be read gets 422 naming the key; nothing is registered and the server keeps serving")
    func malformed() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/ping", host: "api.example.com") { MockResponse.plaintext("pong", lifetime: .eternal) }
        try await withAdminServer(mock) { server in
            let cases: [(body: String, pointer: String, detail: String)] = [
                ("{not json", "/", "not valid JSON"),
                (#"{"request": {"method": "G E T", "url": "/a"}}"#, "/request/method", "\"G E T\" is not an HTTP method"),
                (#"{"request": {"method": "GET", "ulr": "/a"}}"#, "/request", "unknown key \"ulr\""),
                (#"{"request": {"url": "/a", "headers": {"Accept": {"matches": "("}}}}"#, "/request/headers/Accept/matches", "Accept"),
                (#"{"request": {"url": "/a"}, "response": {"status": "ok"}}"#, "/response/status", "status"),
                (#"{"request": {"url": "/a"}, "response": {"bodyFileName": "a.json"}}"#, "/response/bodyFileName", "__files"),
            ]
            for (body, pointer, detail) in cases {
                let reply = try await call("POST", server.baseURL.adding("/__admin/mappings"), body: body)
                #expect(reply.status == 422, "\(body)")
                let error = try #require((reply.json?["errors"] as? [[String: Any]])?.first, "\(body)")
                #expect(error["code"] as? Int == 10, "\(body)")
                #expect((error["source"] as? [String: Any])?["pointer"] as? String == pointer, "\(body): \(reply.text)")
                #expect((error["detail"] as? String)?.contains(detail) == true, "\(body): \(reply.text)")
            }
            let first = try #require(try await call("POST", server.baseURL.adding("/__admin/mappings"), body: Self.greeting).json)
            let id = try #require(first["id"] as? String)
            let duplicate = try await call("POST", server.baseURL.adding("/__admin/mappings"),
                                           body: #"{"id": "\#(id)", "request": {"url": "/b"}}"#)
            #expect(duplicate.status == 422)
            #expect((duplicate.json?["errors"] as? [[String: Any]])?.first?["code"] as? Int == 109)
            #expect(try await call("GET", server.baseURL.adding("/b")).status == 404)
            #expect(try await mappings(server).total == 1)
            #expect(mock.stubUsage.count == 2)
            #expect(try await call("GET", server.baseURL.adding("/ping")).text == "pong")
        }
    }

    @Test("an unknown id gets 404 on GET, PUT and DELETE; a malformed one 400")
    func unknownID() async throws {
        try await withAdminServer(HTTPMock()) { server in
            let unknown = "/__admin/mappings/5b9b6b3c-6a3e-4c46-9b8e-2f8a4f2f7d10"
            #expect(try await call("GET", server.baseURL.adding(unknown)).status == 404)
            #expect(try await call("PUT", server.baseURL.adding(unknown), body: Self.greeting).status == 404)
            #expect(try await call("DELETE", server.baseURL.adding(unknown)).status == 404)
            #expect(try await call("GET", server.baseURL.adding("/some/thing")).status == 404)
            let malformed = try await call("GET", server.baseURL.adding("/__admin/mappings/not-a-uuid"))
            #expect(malformed.status == 400)
            #expect(malformed.text.contains("not-a-uuid is not a valid UUID"))
        }
    }
}
