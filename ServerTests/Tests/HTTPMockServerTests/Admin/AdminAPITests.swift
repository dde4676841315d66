import Foundation
import HTTPMock
import HTTPMockServer
import HTTPMockTesting
import Testing

@Suite("WireMock's admin API on HTTPMockServer")
struct AdminAPITests {
    private func withAdminServer(_ mock: HTTPMock, _ body: (HTTPMockServer) async throws -> Void) async throws {
        try await HTTPMockServer.withServer(serving: mock, configuration: .init(origin: "https://api.example.com", adminAPI: true)) {
            try await body($0)
        }
    }

    @Test("GET /__admin/requests lists serve events newest first, in WireMock's shape, with meta.total")
    func listsRequests() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/user", host: "api.example.com") { MockResponse.plaintext("Alice", lifetime: .eternal) }
        try await withAdminServer(mock) { server in
            _ = try await call("GET", server.baseURL.adding("/user?id=7&id=8"), headers: ["X-Trace": "abc", "Cookie": #"c2=v2; c1="v 1""#])
            _ = try await call("POST", server.baseURL.adding("/missing"), body: "hello")
            let reply = try await call("GET", server.baseURL.adding("/__admin/requests"))
            #expect(reply.status == 200)
            #expect(reply.headers["content-type"] == "application/json")
            let json = try #require(reply.json)
            #expect((json["meta"] as? [String: Any])?["total"] as? Int == 2)
            let requests = try #require(json["requests"] as? [[String: Any]])
            #expect(requests.count == 2)
            let newest = try #require(requests.first)
            let oldest = try #require(requests.last)
            #expect(newest["wasMatched"] as? Bool == false)
            #expect(oldest["wasMatched"] as? Bool == true)
            #expect(oldest["id"] as? String == "00000000-0000-4000-8000-000000000000")
            let request = try #require(oldest["request"] as? [String: Any])
            #expect(request["url"] as? String == "/user?id=7&id=8")
            // As the client sent it (to the server's own address); the URL it was matched as is HTTPMock's.
            #expect(request["absoluteUrl"] as? String == "http://127.0.0.1:\(server.port)/user?id=7&id=8")
            #expect(request["host"] as? String == "127.0.0.1")
            #expect(request["port"] as? Int == server.port)
            // WireMock's journal names the client's address; this client is on loopback.
            #expect(request["clientIp"] as? String == "127.0.0.1")
            // The cookies sent, by name, as WireMock's journal gives them.
            #expect(request["cookies"] as? [String: String] == ["c1": "v 1", "c2": "v2"])
            #expect((oldest["httpmock"] as? [String: Any])?["matchedAs"] as? String == "https://api.example.com/user?id=7&id=8")
            #expect(request["method"] as? String == "GET")
            #expect((request["headers"] as? [String: Any])?["X-Trace"] as? String == "abc")
            let query = try #require((request["queryParams"] as? [String: Any])?["id"] as? [String: Any])
            #expect(query["values"] as? [String] == ["7", "8"])
            #expect((oldest["responseDefinition"] as? [String: Any])?["status"] as? Int == 200)
            #expect((oldest["response"] as? [String: Any])?["body"] as? String == "Alice")
            let posted = try #require(newest["request"] as? [String: Any])
            #expect(posted["body"] as? String == "hello")
            #expect(posted["bodyAsBase64"] as? String == Data("hello".utf8).base64EncodedString())
            let extra = try #require(newest["httpmock"] as? [String: Any])
            #expect((extra["report"] as? String)?.contains("no stub answered POST https://api.example.com/missing") == true)
            // Admin requests are neither matched nor journaled.
            #expect(mock.journal.count == 2)

            let limited = try #require(try await call("GET", server.baseURL.adding("/__admin/requests?limit=1")).json)
            #expect((limited["requests"] as? [[String: Any]])?.count == 1)
            let id = try #require(oldest["id"] as? String)
            let single = try #require(try await call("GET", server.baseURL.adding("/__admin/requests/\(id)")).json)
            #expect((single["request"] as? [String: Any])?["url"] as? String == "/user?id=7&id=8")
            let gone = try await call("GET", server.baseURL.adding("/__admin/requests/00000000-0000-4000-8000-0000000000ff"))
            #expect(gone.status == 404)
        }
    }

    @Test("GET /__admin/requests?since= reads ISO 8601 with or without fractional seconds, as WireMock; other text gets 400")
    func sinceWithFractionalSeconds() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/user", host: "api.example.com") { MockResponse.plaintext("Alice", lifetime: .eternal) }
        try await withAdminServer(mock) { server in
            _ = try await call("GET", server.baseURL.adding("/user"))
            _ = try await call("GET", server.baseURL.adding("/user?again=1"))
            for since in ["2016-10-05T12:33:01Z", "2016-10-05T12:33:01.000Z", "2016-10-05T13:33:01.5%2B01:00"] {
                let reply = try await call("GET", server.baseURL.adding("/__admin/requests?since=\(since)"))
                #expect(reply.status == 200, "since=\(since): \(reply.text)")
                #expect((reply.json?["requests"] as? [[String: Any]])?.count == 2, "since=\(since)")
            }
            let future = try await call("GET", server.baseURL.adding("/__admin/requests?since=2999-01-31T12:00:00.250Z"))
            #expect(future.status == 200)
            #expect((future.json?["requests"] as? [[String: Any]])?.isEmpty == true)
            #expect((future.json?["meta"] as? [String: Any])?["total"] as? Int == 2)
            let bad = try await call("GET", server.baseURL.adding("/__admin/requests?since=yesterday"))
            #expect(bad.status == 400)
            #expect(bad.text.contains("since=yesterday is not an ISO 8601 date"))
        }
    }

    @Test("DELETE /__admin/requests, POST /__admin/requests/reset and POST /__admin/reset clear the journal")
    func resets() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/ping", host: "api.example.com") { MockResponse.plaintext("pong", lifetime: .eternal) }
        try await withAdminServer(mock) { server in
            for (method, path) in [("DELETE", "/__admin/requests"), ("POST", "/__admin/requests/reset"), ("POST", "/__admin/reset")] {
                _ = try await call("GET", server.baseURL.adding("/ping"))
                HTTPAssertRequested("https://api.example.com/ping", count: .exactly(1), in: mock)
                let reply = try await call(method, server.baseURL.adding(path))
                #expect(reply.status == 200, "\(method) \(path)")
                #expect(mock.journal.isEmpty, "\(method) \(path)")
            }
            // The stubs stay.
            #expect(try await call("GET", server.baseURL.adding("/ping")).text == "pong")
        }
    }

    @Test("unmatched requests and their near misses, with HTTPMock's report")
    func unmatchedAndNearMisses() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/users", host: "api.example.com", method: .post) { MockResponse.empty(status: .created) }
        try await withAdminServer(mock) { server in
            _ = try await call("GET", server.baseURL.adding("/users"))
            _ = try await call("POST", server.baseURL.adding("/users"))
            let unmatched = try #require(try await call("GET", server.baseURL.adding("/__admin/requests/unmatched")).json)
            let requests = try #require(unmatched["requests"] as? [[String: Any]])
            #expect(requests.map { $0["method"] as? String } == ["GET"])
            let misses = try #require(try await call("GET", server.baseURL.adding("/__admin/requests/unmatched/near-misses")).json)
            let nearMisses = try #require(misses["nearMisses"] as? [[String: Any]])
            let first = try #require(nearMisses.first)
            #expect((first["request"] as? [String: Any])?["url"] as? String == "/users")
            let distance = try #require((first["matchResult"] as? [String: Any])?["distance"] as? Double)
            #expect(distance > 0 && distance < 1)
            let differences = (first["httpmock"] as? [String: Any])?["differences"] as? [String]
            #expect(differences == ["method: expected POST, got GET"])
            let reports = (misses["httpmock"] as? [String: Any])?["reports"] as? [String]
            #expect(reports?.count == 1)
            #expect(reports?.first?.contains("Closest stub:") == true)
            // A stub registered in code has no WireMock form: its name.
            #expect((first["stubMapping"] as? [String: Any])?["name"] as? String == "api.example.com/users [method POST]")
        }
    }

    @Test("a near miss of a mapping created over the admin API carries the whole mapping, as WireMock's does")
    func nearMissCarriesTheMapping() async throws {
        try await withAdminServer(HTTPMock()) { server in
            let mapping = #"{"id": "8f1c2d3e-4b5a-4c6d-9e8f-0a1b2c3d4e5f", "request": {"method": "GET", "urlPath": "/orders"}, "response": {"status": 200, "body": "[]"}}"#
            #expect(try await call("POST", server.baseURL.adding("/__admin/mappings"), body: mapping).status == 201)
            #expect(try await call("GET", server.baseURL.adding("/order")).status == 404)
            let misses = try #require(try await call("GET", server.baseURL.adding("/__admin/requests/unmatched/near-misses")).json)
            let first = try #require((misses["nearMisses"] as? [[String: Any]])?.first)
            let stubMapping = try #require(first["stubMapping"] as? [String: Any])
            #expect(stubMapping["id"] as? String == "8f1c2d3e-4b5a-4c6d-9e8f-0a1b2c3d4e5f")
            #expect((stubMapping["request"] as? [String: Any])?["urlPath"] as? String == "/orders")
            #expect((stubMapping["response"] as? [String: Any])?["status"] as? Int == 200)
        }
    }

    @Test("POST /__admin/settings sets a fixed delay before every response; GET reads it back")
    func fixedDelay() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/slow", host: "api.example.com") { MockResponse.plaintext("late", lifetime: .eternal) }
        try await withAdminServer(mock) { server in
            #expect(try await call("POST", server.baseURL.adding("/__admin/settings"), body: #"{"fixedDelay": 300}"#).status == 200)
            let settings = try #require(try await call("GET", server.baseURL.adding("/__admin/settings")).json)
            #expect((settings["settings"] as? [String: Any])?["fixedDelay"] as? Int == 300)
            #expect(try await call("GET", server.baseURL.adding("/slow")).text == "late")
            let entry = try #require(mock.journal.last)
            let waited = try #require(entry.completedAt).timeIntervalSince(entry.receivedAt)
            #expect(waited >= 0.3)   // a timer never fires early
            // WireMock's wrapped form; null takes the delay away.
            #expect(try await call("PUT", server.baseURL.adding("/__admin/settings"), body: #"{"settings": {"fixedDelay": null}}"#).status == 200)
            let cleared = try #require(try await call("GET", server.baseURL.adding("/__admin/settings")).json)
            #expect((cleared["settings"] as? [String: Any])?.isEmpty == true)
        }
    }

    @Test("malformed JSON gets WireMock's error JSON with 422, and the server keeps serving")
    func malformedJSON() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/ping", host: "api.example.com") { MockResponse.plaintext("pong", lifetime: .eternal) }
        try await withAdminServer(mock) { server in
            let cases: [(body: String, pointer: String, detail: String)] = [
                ("{not json", "/", "not valid JSON"),
                ("[1, 2]", "/", "not an object"),
                (#"{"fixedDelay": "soon"}"#, "/fixedDelay", "whole number of milliseconds"),
                (#"{"fixedDelay": true}"#, "/fixedDelay", "whole number of milliseconds"),
                (#"{"settings": {"fixedDelay": -5}}"#, "/settings/fixedDelay", "whole number of milliseconds"),
                (#"{"delayDistribution": {"type": "lognormal"}}"#, "/delayDistribution", "not a setting"),
            ]
            for (body, pointer, detail) in cases {
                let reply = try await call("POST", server.baseURL.adding("/__admin/settings"), body: body)
                #expect(reply.status == 422, "\(body)")
                let error = try #require((reply.json?["errors"] as? [[String: Any]])?.first, "\(body)")
                #expect(error["code"] as? Int == 10, "\(body)")
                #expect(error["title"] as? String == "Error parsing JSON", "\(body)")
                #expect((error["source"] as? [String: Any])?["pointer"] as? String == pointer, "\(body)")
                #expect((error["detail"] as? String)?.contains(detail) == true, "\(body): \(reply.text)")
            }
            #expect(try await call("GET", server.baseURL.adding("/ping")).text == "pong")
            let settings = try #require(try await call("GET", server.baseURL.adding("/__admin/settings")).json)
            #expect((settings["settings"] as? [String: Any])?.isEmpty == true)
        }
    }

    @Test("an unknown admin route gets 404 naming the routes there are")
    func unknownRoute() async throws {
        try await withAdminServer(HTTPMock()) { server in
            let reply = try await call("GET", server.baseURL.adding("/__admin/extensions/faker"))
            #expect(reply.status == 404)
            let detail = (reply.json?["errors"] as? [[String: Any]])?.first?["detail"] as? String
            #expect(detail?.contains("GET /__admin/requests") == true)
            #expect(detail?.contains("PUT /__admin/mappings/{id}") == true)
            let wrongMethod = try await call("PATCH", server.baseURL.adding("/__admin/settings"))
            #expect(wrongMethod.status == 404)
            #expect(wrongMethod.text.contains("PATCH is not supported on /__admin/settings"))
        }
    }

    @Test("POST /__admin/shutdown answers, then stops the server: waitUntilStopped returns")
    func shutdown() async throws {
        let server = try await HTTPMockServer.start(serving: HTTPMock(), configuration: .init(adminAPI: true))
        let reply = try await call("POST", server.baseURL.adding("/__admin/shutdown"))
        #expect(reply.status == 200)
        await server.waitUntilStopped()
        await #expect(throws: (any Error).self) { _ = try await call("GET", server.baseURL.adding("/ping")) }
        await server.stop()
    }

    @Test("without adminAPI, /__admin/ paths are matched against the stubs like any other")
    func offByDefault() async throws {
        let mock = HTTPMock()
        try await HTTPMockServer.withServer(serving: mock) { server in
            let reply = try await call("GET", server.baseURL.adding("/__admin/requests"))
            #expect(reply.status == 404)
            #expect(reply.headers["x-httpmock"] == "unmatched")
            HTTPAssertRequested("http://example.com/__admin/requests", in: mock)
        }
    }
}
