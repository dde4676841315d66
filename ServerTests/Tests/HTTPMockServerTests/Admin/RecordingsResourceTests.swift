import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock
import HTTPMockServer
import Testing

/// Recording and snapshots over the admin API, driven with plain HTTP requests whose bodies are shaped as WireMock's
/// documentation shows them, against an upstream HTTPMockServer on 127.0.0.1.
@Suite("/__admin/recordings: start, status, stop and snapshot make WireMock stub mappings of real traffic")
struct RecordingsResourceTests {
    /// An upstream that counts its calls, and a server in front with the admin API and a WireMock folder.
    private func withServers(_ body: (_ front: HTTPMockServer, _ upstream: HTTPMockServer, _ folder: URL) async throws -> Void) async throws {
        let upstream = HTTPMock()
        let calls = Guarded(0)
        upstream.addResponses(forPath: "/api/items/*") {
            MockResponse.dynamic(lifetime: .eternal) { request, _ in
                let call = calls.withLock { value -> Int in value += 1; return value }
                return MockResponse.plaintext(#"{"item":"\#(request.path)","call":\#(call),"token":"tok-\#(call)"}"#,
                                              headers: ["Content-Type": "application/json"])
            }
        }
        let folder = try temporaryFolder()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        try await HTTPMockServer.withServer(serving: upstream) { upstreamServer in
            let configuration = HTTPMockServer.Configuration(adminAPI: true, wireMockFolder: folder)
            try await HTTPMockServer.withServer(serving: HTTPMock(), configuration: configuration) { front in
                try await body(front, upstreamServer, folder)
            }
        }
    }

    @Test("start, status, stop: the proxied requests become mappings, served at once and written into mappings/")
    func recordStartStop() async throws {
        try await withServers { front, upstream, folder in
            let admin = front.baseURL.adding("/__admin")
            #expect(try await call("GET", admin.adding("/recordings/status")).json?["status"] as? String == "NeverStarted")
            let start = try await call("POST", admin.adding("/recordings/start"), body: """
                {"targetBaseUrl": "\(upstream.baseURL.absoluteString)", "captureHeaders": {"Accept": {}}, "repeatsAsScenarios": true}
                """, headers: ["Content-Type": "application/json"])
            #expect(start.status == 200)
            #expect(try await call("GET", admin.adding("/recordings/status")).json?["status"] as? String == "Recording")
            for _ in 0..<2 {
                #expect(try await call("GET", front.baseURL.adding("/api/items/7"), headers: ["Accept": "application/json"]).status == 200)
            }
            let stop = try await call("POST", admin.adding("/recordings/stop"), headers: ["Content-Type": "application/json"])
            #expect(stop.status == 200)
            let mappings = try #require(stop.json?["mappings"] as? [[String: Any]])
            #expect(mappings.count == 2)
            #expect(mappings.allSatisfy { $0["scenarioName"] != nil })
            let request = try #require(mappings.first?["request"] as? [String: Any])
            #expect(request["urlPath"] as? String == "/api/items/7")
            #expect((request["headers"] as? [String: Any])?["Accept"] != nil)
            let bodies = mappings.compactMap { ($0["response"] as? [String: Any])?["body"] as? String }
            #expect(bodies.allSatisfy { $0.contains(#""token":"REDACTED""#) })
            #expect(try await call("GET", admin.adding("/recordings/status")).json?["status"] as? String == "Stopped")
            // Served now, in the recorded order, without the upstream.
            let first = try await call("GET", front.baseURL.adding("/api/items/7"), headers: ["Accept": "application/json"])
            let second = try await call("GET", front.baseURL.adding("/api/items/7"), headers: ["Accept": "application/json"])
            #expect(first.text.contains(#""call":1"#))
            #expect(second.text.contains(#""call":2"#))
            // Persisted: a WireMock folder that serves the same answers.
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("mappings").path)
            #expect(files.count == 2)
            let replay = HTTPMock()
            try replay.loadWireMockMappings(from: folder)
            let answer = try await replay.urlSession.data(for: {
                var request = URLRequest(url: URL(string: "http://example.com/api/items/7")!)
                request.setValue("application/json", forHTTPHeaderField: "Accept")
                return request
            }())
            #expect(String(decoding: answer.0, as: UTF8.self).contains(#""call":1"#))
        }
    }

    @Test("a snapshot makes mappings of the journal, with filters and outputFormat IDS; persist false writes nothing")
    func snapshot() async throws {
        try await withServers { front, upstream, folder in
            let admin = front.baseURL.adding("/__admin")
            // Proxied through a recording that is stopped at once without persisting, then a snapshot of the journal.
            _ = try await call("POST", admin.adding("/recordings/start"), body: #"{"targetBaseUrl": "\#(upstream.baseURL.absoluteString)", "persist": false}"#,
                               headers: ["Content-Type": "application/json"])
            _ = try await call("GET", front.baseURL.adding("/api/items/1"))
            _ = try await call("GET", front.baseURL.adding("/api/items/2"))
            _ = try await call("POST", admin.adding("/recordings/stop"))
            let snapshot = try await call("POST", admin.adding("/recordings/snapshot"), body: """
                {"filters": {"urlPathPattern": "/api/items/2"}, "persist": false, "outputFormat": "IDS"}
                """, headers: ["Content-Type": "application/json"])
            #expect(snapshot.status == 200)
            #expect((snapshot.json?["ids"] as? [String])?.count == 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("mappings").path).isEmpty)
        }
    }

    @Test("a target off this machine, a second start and a stop without a start are refused with WireMock's errors")
    func refusals() async throws {
        try await withServers { front, upstream, _ in
            let admin = front.baseURL.adding("/__admin")
            let remote = try await call("POST", admin.adding("/recordings/start"), body: #"{"targetBaseUrl": "https://api.example.com"}"#,
                                        headers: ["Content-Type": "application/json"])
            #expect(remote.status == 422)
            #expect(remote.text.contains("httpmock serve --proxy https://api.example.com --record-to"))
            let notRecording = try await call("POST", admin.adding("/recordings/stop"))
            #expect(notRecording.status == 400)
            // WireMock's code for "Not currently recording."
            #expect(((notRecording.json?["errors"] as? [[String: Any]])?.first)?["code"] as? Int == 30)
            let start = #"{"targetBaseUrl": "\#(upstream.baseURL.absoluteString)", "persist": false}"#
            #expect(try await call("POST", admin.adding("/recordings/start"), body: start, headers: ["Content-Type": "application/json"]).status == 200)
            #expect(try await call("POST", admin.adding("/recordings/start"), body: start, headers: ["Content-Type": "application/json"]).status == 409)
            #expect(try await call("POST", admin.adding("/recordings/stop")).status == 200)
        }
    }
}

/// The rest of WireMock's common admin API: health, version, files, import, metadata, near misses.
@Suite("/__admin: health, version, files, import, metadata and near misses in WireMock's shapes")
struct AdminExtrasTests {
    private func withAdminServer(_ mock: HTTPMock = HTTPMock(), folder: URL? = nil,
                                 _ body: (HTTPMockServer, URL) async throws -> Void) async throws {
        let configuration = HTTPMockServer.Configuration(adminAPI: true, wireMockFolder: folder)
        try await HTTPMockServer.withServer(serving: mock, configuration: configuration) { server in
            try await body(server, server.baseURL.adding("/__admin"))
        }
    }

    @Test("GET /__admin/health and /__admin/version")
    func healthAndVersion() async throws {
        try await withAdminServer { _, admin in
            let health = try #require(try await call("GET", admin.adding("/health")).json)
            #expect(health["status"] as? String == "healthy")
            #expect(health["uptimeInSeconds"] is Int)
            let version = try #require(try await call("GET", admin.adding("/version")).json?["version"] as? String)
            #expect(version.split(separator: ".").count == 3)
        }
    }

    @Test("/__admin/files lists, reads, writes and removes body files, and nothing outside __files")
    func files() async throws {
        let folder = try temporaryFolder(["__files/hello.txt": "hello"])
        try await withAdminServer(folder: folder) { server, admin in
            #expect(try await call("GET", admin.adding("/files")).text == #"["hello.txt"]"#)
            #expect(try await call("GET", admin.adding("/files/hello.txt")).text == "hello")
            #expect(try await call("PUT", admin.adding("/files/new.json"), body: #"{"n":1}"#, headers: ["Content-Type": "application/json"]).status == 200)
            #expect(try String(contentsOf: folder.appendingPathComponent("__files/new.json"), encoding: .utf8) == #"{"n":1}"#)
            #expect(try await call("DELETE", admin.adding("/files/new.json")).status == 200)
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("__files/new.json").path))
            for name in ["..%2Fsecret", ".hidden", "%2E%2E"] {
                let reply = try await call("PUT", admin.adding("/files/\(name)"), body: "x", headers: ["Content-Type": "application/json"])
                #expect(reply.status == 422, "\(name)")
            }
        }
    }

    @Test("POST /__admin/mappings/import creates, overwrites or ignores; a bad mapping imports nothing and is named")
    func importMappings() async throws {
        try await withAdminServer { server, admin in
            let id = "1b0e3f7a-2c4d-4e5f-8a9b-0c1d2e3f4a5b"
            let first = """
                {"mappings": [{"id": "\(id)", "request": {"method": "GET", "url": "/a"}, "response": {"status": 200, "body": "one"}}]}
                """
            #expect(try await call("POST", admin.adding("/mappings/import"), body: first, headers: ["Content-Type": "application/json"]).status == 200)
            #expect(try await call("GET", server.baseURL.adding("/a")).text == "one")
            let again = """
                {"mappings": [{"id": "\(id)", "request": {"method": "GET", "url": "/a"}, "response": {"status": 200, "body": "two"}}],
                 "importOptions": {"duplicatePolicy": "IGNORE"}}
                """
            _ = try await call("POST", admin.adding("/mappings/import"), body: again, headers: ["Content-Type": "application/json"])
            #expect(try await call("GET", server.baseURL.adding("/a")).text == "one")
            let overwrite = again.replacingOccurrences(of: "IGNORE", with: "OVERWRITE")
            _ = try await call("POST", admin.adding("/mappings/import"), body: overwrite, headers: ["Content-Type": "application/json"])
            #expect(try await call("GET", server.baseURL.adding("/a")).text == "two")
            let bad = """
                {"mappings": [{"request": {"method": "GET", "url": "/b"}, "response": {"status": 200}},
                              {"request": {"method": "G E T", "url": "/c"}, "response": {"status": 200}},
                              {"request": {"url": "/d"}, "response": {"status": "x"}}]}
                """
            let refused = try await call("POST", admin.adding("/mappings/import"), body: bad, headers: ["Content-Type": "application/json"])
            #expect(refused.status == 422)
            #expect(refused.text.contains("mappings[1]") && refused.text.contains("mappings[2]"))
            #expect(try await call("GET", server.baseURL.adding("/b")).status == 404)
        }
    }

    @Test("find-by-metadata and remove-by-metadata select mappings by their metadata")
    func metadata() async throws {
        try await withAdminServer { server, admin in
            for (path, team) in [("/pay", "payments"), ("/cart", "shop")] {
                let mapping = #"{"request": {"url": "\#(path)"}, "response": {"status": 200}, "metadata": {"owner": {"team": "\#(team)"}, "tags": ["v2"]}}"#
                #expect(try await call("POST", admin.adding("/mappings"), body: mapping, headers: ["Content-Type": "application/json"]).status == 201)
            }
            let pattern = #"{"matchesJsonPath": {"expression": "$.owner.team", "equalTo": "payments"}}"#
            let found = try await call("POST", admin.adding("/mappings/find-by-metadata"), body: pattern, headers: ["Content-Type": "application/json"])
            let mappings = try #require(found.json?["mappings"] as? [[String: Any]])
            #expect(mappings.count == 1)
            #expect((mappings.first?["request"] as? [String: Any])?["url"] as? String == "/pay")
            _ = try await call("POST", admin.adding("/mappings/remove-by-metadata"), body: pattern, headers: ["Content-Type": "application/json"])
            #expect(try await call("GET", server.baseURL.adding("/pay")).status == 404)
            #expect(try await call("GET", server.baseURL.adding("/cart")).status == 200)
        }
    }

    @Test("near misses of a request never sent, and of a request pattern among the logged requests")
    func nearMisses() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/users", method: .get) { MockResponse.plaintext("users", lifetime: .eternal) }
        mock.addResponses(forPath: "/orders", method: .get) { MockResponse.plaintext("orders", lifetime: .eternal) }
        try await withAdminServer(mock) { server, admin in
            let stubs = try await call("POST", admin.adding("/near-misses/request"), body: #"{"url": "/userz", "method": "GET"}"#,
                                       headers: ["Content-Type": "application/json"])
            let misses = try #require(stubs.json?["nearMisses"] as? [[String: Any]])
            #expect((misses.first?["stubMapping"] as? [String: Any])?["name"] as? String == "example.com/users [method GET]")
            #expect(mock.journal.isEmpty)   // nothing was sent
            _ = try await call("GET", server.baseURL.adding("/users"))
            _ = try await call("POST", server.baseURL.adding("/orders"))
            let pattern = #"{"method": "POST", "urlPath": "/users"}"#
            let requests = try await call("POST", admin.adding("/near-misses/request-pattern"), body: pattern,
                                          headers: ["Content-Type": "application/json"])
            let closest = try #require(requests.json?["nearMisses"] as? [[String: Any]])
            #expect(closest.count == 2)
            let distances = closest.compactMap { ($0["matchResult"] as? [String: Any])?["distance"] as? Double }
            #expect(distances == distances.sorted())
        }
    }
}
