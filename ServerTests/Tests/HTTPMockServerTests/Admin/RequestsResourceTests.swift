import Foundation
import HTTPMock
import HTTPMockServer
import HTTPMockTesting
import Testing

/// `POST /__admin/requests/count` and `/find`: WireMock request patterns, as its documentation writes them,
/// checked against the journal.
@Suite("counting and finding requests with WireMock request patterns")
struct RequestsResourceTests {
    @Test("count and find take a request pattern; {} matches every request; a bad pattern gets 422")
    func countAndFind() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/notes", host: "api.example.com", method: .post) {
            MockResponse.empty(status: .created, lifetime: .eternal)
        }
        let configuration = HTTPMockServer.Configuration(origin: "https://api.example.com", adminAPI: true)
        try await HTTPMockServer.withServer(serving: mock, configuration: configuration) { server in
            let notes = server.baseURL.adding("/notes")
            _ = try await call("POST", notes, body: #"{"text": "buy milk"}"#, headers: ["Content-Type": "application/json"])
            _ = try await call("POST", notes, body: "call Ann", headers: ["Content-Type": "text/plain"])
            _ = try await call("GET", server.baseURL.adding("/notes?page=2"))

            let pattern = """
                {
                    "method": "POST",
                    "url": "/notes",
                    "headers": {
                        "Content-Type": {
                            "matches": ".*/json"
                        }
                    }
                }
                """
            let count = try await call("POST", server.baseURL.adding("/__admin/requests/count"), body: pattern)
            #expect(count.status == 200)
            #expect(count.json?["count"] as? Int == 1)
            // The same answer as HTTPMockTesting's assertion over the same journal.
            HTTPAssertRequested("https://api.example.com/notes", method: .post, headers: ["Content-Type": "application/json"],
                                count: .exactly(1), in: mock)

            let found = try #require(try await call("POST", server.baseURL.adding("/__admin/requests/find"), body: pattern).json)
            let requests = try #require(found["requests"] as? [[String: Any]])
            #expect(requests.count == 1)
            #expect(requests.first?["body"] as? String == #"{"text": "buy milk"}"#)
            #expect(requests.first?["url"] as? String == "/notes")

            let everything = try await call("POST", server.baseURL.adding("/__admin/requests/count"), body: "{}")
            #expect(everything.json?["count"] as? Int == 3)
            let byQuery = """
                {
                    "method": "GET",
                    "urlPath": "/notes",
                    "queryParameters": {
                        "page": {
                            "equalTo": "2"
                        }
                    }
                }
                """
            #expect(try await call("POST", server.baseURL.adding("/__admin/requests/count"), body: byQuery).json?["count"] as? Int == 1)
            let byBody = #"{"bodyPatterns": [{"equalToJson": {"text": "buy milk"}}]}"#
            let bodies = try #require(try await call("POST", server.baseURL.adding("/__admin/requests/find"), body: byBody).json)
            #expect((bodies["requests"] as? [[String: Any]])?.count == 1)

            let bad = try await call("POST", server.baseURL.adding("/__admin/requests/count"), body: #"{"method": "GET", "url": "notes"}"#)
            #expect(bad.status == 422)
            let error = try #require((bad.json?["errors"] as? [[String: Any]])?.first)
            #expect((error["source"] as? [String: Any])?["pointer"] as? String == "/url")
            #expect((error["detail"] as? String)?.contains(#""notes" is not a path"#) == true)
            let malformed = try await call("POST", server.baseURL.adding("/__admin/requests/find"), body: "{\"method\": ")
            #expect(malformed.status == 422)
            // Admin requests are not journaled, so they are never counted.
            #expect(try await call("POST", server.baseURL.adding("/__admin/requests/count"), body: "{}").json?["count"] as? Int == 3)
        }
    }
}
