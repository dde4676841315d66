import Foundation
import HTTPMock
import HTTPMockServer
import Testing

/// `DELETE /__admin/requests/{id}`, `POST /__admin/requests/remove` and `/remove-by-metadata`, and
/// `GET`/`DELETE /__admin/mappings/unmatched`, in the shapes WireMock answers them (the removals as WireMock 2.35.1's
/// standalone server answers them; the unmatched mappings as WireMock's admin description of 3.13 gives them).
@Suite("removing requests from the journal, and the mappings no request matched")
struct JournalRemovalTests {
    /// A WireMock folder with two file mappings, one of them with metadata.
    static func folder() throws -> URL {
        try temporaryFolder([
            "mappings/files.json": #"""
                {"mappings": [
                  {"request": {"method": "GET", "url": "/from-file"}, "response": {"body": "file"}, "metadata": {"team": "files"}},
                  {"request": {"method": "GET", "url": "/file-never"}, "response": {"body": "never"}}
                ]}
                """#,
            "__files/.keep": "",
        ])
    }

    /// Runs `body` with a server of the folder's mappings, its admin API on, and mappings created over it.
    static func withServer(_ body: (URL) async throws -> Void) async throws {
        let root = try folder()
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: root)
        let configuration = HTTPMockServer.Configuration(adminAPI: true, wireMockFolder: root)
        try await HTTPMockServer.withServer(serving: mock, configuration: configuration) { server in
            let base = server.baseURL
            for mapping in [#"{"request": {"url": "/a"}, "response": {"body": "a"}, "metadata": {"team": "a", "tags": ["x"]}}"#,
                            #"{"request": {"url": "/b"}, "response": {"body": "b"}, "metadata": {"team": "b"}}"#,
                            #"{"request": {"url": "/never"}, "response": {"body": "n"}}"#] {
                #expect(try await call("POST", base.adding("/__admin/mappings"), body: mapping).status == 201)
            }
            try await body(base)
        }
    }

    /// The URLs of the serve events (or logged requests) under `key` of `reply`.
    static func urls(_ reply: JSONReply, _ key: String) -> [String] {
        ((reply.json?[key] as? [[String: Any]]) ?? []).compactMap { ($0["request"] as? [String: Any])?["url"] as? String ?? $0["url"] as? String }
    }

    @Test("DELETE /__admin/requests/{id} forgets one request, {} for any UUID whether it was there or not; the others keep their ids")
    func deleteOne() async throws {
        try await Self.withServer { base in
            for path in ["/a", "/b", "/a"] { _ = try await call("GET", base.adding(path)) }
            let listed = try await call("GET", base.adding("/__admin/requests"))
            let events = try #require(listed.json?["requests"] as? [[String: Any]])
            let ids = events.compactMap { $0["id"] as? String }
            #expect(ids.count == 3)
            let gone = try await call("DELETE", base.adding("/__admin/requests/\(ids[1])"))
            #expect(gone.status == 200)
            #expect(gone.json?.isEmpty == true)
            #expect(try await call("DELETE", base.adding("/__admin/requests/\(ids[1])")).status == 200)
            #expect(try await call("GET", base.adding("/__admin/requests/\(ids[1])")).status == 404)
            let after = try await call("GET", base.adding("/__admin/requests"))
            #expect((after.json?["requests"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [ids[0], ids[2]])
            #expect((after.json?["meta"] as? [String: Any])?["total"] as? Int == 2)
            #expect(try await call("GET", base.adding("/__admin/requests/\(ids[2])")).status == 200)
            // A UUID that names no request here is forgotten already: {} as WireMock answers, the journal as it was.
            let unknown = try await call("DELETE", base.adding("/__admin/requests/12fb14bb-600e-4bfa-bd8d-be7f12562c99"))
            #expect(unknown.status == 200)
            #expect(unknown.json?.isEmpty == true)
            let kept = try await call("GET", base.adding("/__admin/requests"))
            #expect((kept.json?["requests"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [ids[0], ids[2]])
            let bad = try await call("DELETE", base.adding("/__admin/requests/not-an-id"))
            #expect(bad.status == 400)
            #expect(bad.text.contains("not-an-id"))
        }
    }

    @Test("POST /__admin/requests/remove takes a request pattern and answers the removed serve events, oldest first")
    func removeByPattern() async throws {
        try await Self.withServer { base in
            for path in ["/a", "/b", "/a", "/nothing"] { _ = try await call("GET", base.adding(path)) }
            let removed = try await call("POST", base.adding("/__admin/requests/remove"), body: #"{"method": "GET", "url": "/a"}"#)
            #expect(removed.status == 200)
            #expect(Self.urls(removed, "serveEvents") == ["/a", "/a"])
            let none = try await call("POST", base.adding("/__admin/requests/remove"), body: #"{"url": "/a"}"#)
            #expect(none.status == 200)
            #expect((none.json?["serveEvents"] as? [Any])?.isEmpty == true)
            let left = try await call("GET", base.adding("/__admin/requests"))
            #expect(Set(Self.urls(left, "requests")) == ["/b", "/nothing"])
            #expect(try await call("POST", base.adding("/__admin/requests/remove"), body: "not json").status == 422)
            #expect(try await call("POST", base.adding("/__admin/requests/remove"), body: #"{"url": 7}"#).status == 422)
        }
    }

    @Test("POST /__admin/requests/remove-by-metadata removes the requests answered by mappings whose metadata meets the pattern")
    func removeByMetadata() async throws {
        try await Self.withServer { base in
            for path in ["/a", "/b", "/from-file", "/a", "/nothing"] { _ = try await call("GET", base.adding(path)) }
            let byPath = try await call("POST", base.adding("/__admin/requests/remove-by-metadata"),
                                        body: #"{"matchesJsonPath": {"expression": "$.team", "equalTo": "a"}}"#)
            #expect(byPath.status == 200)
            #expect(Self.urls(byPath, "serveEvents") == ["/a", "/a"])
            let fromFile = try await call("POST", base.adding("/__admin/requests/remove-by-metadata"), body: #"{"equalToJson": {"team": "files"}}"#)
            #expect(Self.urls(fromFile, "serveEvents") == ["/from-file"])
            let left = try await call("GET", base.adding("/__admin/requests"))
            #expect(Set(Self.urls(left, "requests")) == ["/b", "/nothing"])
            let empty = try await call("POST", base.adding("/__admin/requests/remove-by-metadata"), body: "{}")
            #expect(empty.status == 422)
            #expect(empty.text.contains("empty pattern"))
        }
    }

    @Test("GET /__admin/mappings/unmatched lists the mappings no journaled request matched; DELETE removes them, a file's in memory")
    func unmatchedMappings() async throws {
        try await Self.withServer { base in
            for path in ["/a", "/from-file", "/nothing"] { _ = try await call("GET", base.adding(path)) }
            let unmatched = try await call("GET", base.adding("/__admin/mappings/unmatched"))
            #expect(unmatched.status == 200)
            let listed = ((unmatched.json?["mappings"] as? [[String: Any]]) ?? []).compactMap { ($0["request"] as? [String: Any])?["url"] as? String }
            #expect(Set(listed) == ["/b", "/never", "/file-never"])
            #expect((unmatched.json?["meta"] as? [String: Any])?["total"] as? Int == 3)
            #expect(try await call("DELETE", base.adding("/__admin/mappings/unmatched")).status == 200)
            let all = try await call("GET", base.adding("/__admin/mappings"))
            let left = ((all.json?["mappings"] as? [[String: Any]]) ?? []).compactMap { ($0["request"] as? [String: Any])?["url"] as? String }
            #expect(Set(left) == ["/a", "/from-file"])
            #expect(try await call("GET", base.adding("/b")).status == 404)
            #expect(try await call("GET", base.adding("/file-never")).status == 404)
            // Once the journal forgets the request, its mapping is unmatched again.
            _ = try await call("DELETE", base.adding("/__admin/requests"))
            let again = try await call("GET", base.adding("/__admin/mappings/unmatched"))
            #expect((again.json?["meta"] as? [String: Any])?["total"] as? Int == 2)
            // Reset serves the file's mapping again.
            _ = try await call("POST", base.adding("/__admin/reset"))
            #expect(try await call("GET", base.adding("/file-never")).text == "never")
        }
    }
}
