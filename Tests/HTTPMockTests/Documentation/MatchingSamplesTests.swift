import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// The samples of the Matching Requests article, run against a real mock.
@Suite struct MatchingSamplesTests {
    struct HasAPIKey: RequestMatcher {
        let key: String
        func matches(_ request: CapturedRequest) -> Bool { request.queryValues(for: "key") == [key] }
        var matcherDescription: String { "key=\(key)" }
    }

    @Test func combined() async throws {
        let mock = HTTPMock()
        try mock.stub(.method(.post), .host("api.example.com"), .path("/orders"), .jsonContaining(["item": "book"]),
                      responses: [.plaintext("ordered", status: .created)])
        #expect(try await mock.urlSession.fetch("https://api.example.com/orders", method: "POST", body: Data(#"{"item":"pen"}"#.utf8)).status == 404)
        let reply = try await mock.urlSession.fetch("https://api.example.com/orders", method: "POST", body: Data(#"{"item":"book","n":1}"#.utf8))
        #expect(reply.status == 201)
        #expect(reply.text == "ordered")
    }

    @Test func inTheTree() async throws {
        let mock = HTTPMock()
        try mock.register {
            Host("api.example.com") {
                Match.header("Authorization")
                Path("/profile") { MockResponse.plaintext("signed in") }
            }
        }
        #expect(try await mock.urlSession.fetch("https://api.example.com/profile").status == 404)
        var request = URLRequest(url: URL(string: "https://api.example.com/profile")!)
        request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        let (data, _) = try await mock.urlSession.data(for: request)
        #expect(String(decoding: data, as: UTF8.self) == "signed in")
    }

    @Test func specificity() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/users/*", host: "api.example.com", responses: [.plaintext("someone", lifetime: .eternal)])
        mock.addResponses(forPath: "/users/me", host: "api.example.com", responses: [.plaintext("me", lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch("https://api.example.com/users/me").text == "me")
        #expect(try await mock.urlSession.fetch("https://api.example.com/users/42").text == "someone")
    }

    @Test func customClosure() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/feed"), .custom("beta client") { $0.headers["X-Beta"] == "1" },
                      responses: [.plaintext("beta feed")])
        #expect(try await mock.urlSession.fetch("https://api.example.com/feed").status == 404)
        #expect(mock.journal.last?.report?.description.contains("beta client") == true)
        var request = URLRequest(url: URL(string: "https://api.example.com/feed")!)
        request.setValue("1", forHTTPHeaderField: "X-Beta")
        let (data, _) = try await mock.urlSession.data(for: request)
        #expect(String(decoding: data, as: UTF8.self) == "beta feed")
    }

    @Test func customType() async throws {
        let mock = HTTPMock()
        try mock.stub(.host("api.example.com"), .custom(HasAPIKey(key: "secret")), responses: [.plaintext("ok")])
        #expect(try await mock.urlSession.fetch("https://api.example.com/a?key=wrong").status == 404)
        #expect(try await mock.urlSession.fetch("https://api.example.com/a?key=secret").text == "ok")
    }

    @Test func method() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/items"), .method(.get, .head), responses: [.encodable([["id": 1]])])
        #expect(try await mock.urlSession.fetch("https://api.example.com/items", method: "POST").status == 404)
        #expect(try await mock.urlSession.fetch("https://api.example.com/items").text == #"[{"id":1}]"#)
    }

    @Test func byMethod() async throws {
        let mock = HTTPMock()
        try mock.stub(.urlRegex(#"^https://api\.example\.com/items/[0-9]+$"#), byMethod: [
            .get: .dictionary(["id": 1], lifetime: .eternal),
            .post: .empty(status: .created, delivery: .delayed(0.1)),
            .put: .failure(URLError(.cannotConnectToHost)),
        ])
        let url = "https://api.example.com/items/7"
        #expect(try await mock.urlSession.fetch(url).text == #"{"id":1}"#)
        #expect(try await mock.urlSession.fetch(url, method: "POST").status == 201)
        #expect((await mock.urlSession.failure(url, method: "PUT") as? URLError)?.code == .cannotConnectToHost)
        #expect(try await mock.urlSession.fetch(url, method: "DELETE").status == 404)
    }

    @Test func urlRegex() async throws {
        let mock = HTTPMock()
        try mock.stub(.urlRegex(#"^https://www\.google\.com/.+"#), responses: [.plaintext("google", lifetime: .eternal)])
        #expect(throws: HTTPMockError.self) { try mock.stub(.urlRegex("https://([a-z"), responses: [.empty()]) }
        #expect(try await mock.urlSession.fetch("https://www.google.com/search?q=x").text == "google")
        #expect(try await mock.urlSession.fetch("https://proxy.test/https://www.google.com/x").status == 404)
    }

    @Test func uriTemplate() async throws {
        let mock = HTTPMock()
        try mock.stub(.uriTemplate("https://github.com/kylef/{repository}"), responses: [
            .dynamic(lifetime: .eternal) { request, captures in .plaintext("repo \(captures["repository"]!)") },
        ])
        #expect(try await mock.urlSession.fetch("https://github.com/kylef/Commander").text == "repo Commander")
        #expect(try await mock.urlSession.fetch("https://github.com/kylef/a/b").status == 404)
    }

    @Test func templateTable() async throws {
        let mock = HTTPMock()
        let url = "https://api.example.com/files/a/b.png?page=2"
        func captures(_ template: String) async throws -> String {
            let mock = HTTPMock()
            try mock.stub(.uriTemplate(template), responses: [.dynamic { _, c in
                .plaintext(c.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
            }])
            let reply = try await mock.urlSession.fetch(url)
            return reply.status == 404 ? "no match" : reply.text
        }
        #expect(try await captures("/files/{name}") == "no match")
        #expect(try await captures("/files/{+path}") == "path=a/b.png")
        #expect(try await captures("/files{/dir}") == "no match")
        #expect(try await captures("/files{/parts*}") == "parts=a,b.png")
        #expect(try await captures("/files/a/{name}{.ext}") == "ext=png name=b")
        #expect(try await captures("/files/{+path}{?page}") == "page=2 path=a/b.png")
        #expect(throws: HTTPMockError.self) { try mock.stub(.uriTemplate("/files{#frag}"), responses: [.empty()]) }
        #expect(throws: HTTPMockError.self) { try mock.stub(.uriTemplate("/files/{name"), responses: [.empty()]) }
        try mock.stub(.uriTemplate("/files/{name}"), responses: [.dynamic { _, c in .plaintext(c["name"]!) }])
        #expect(try await mock.urlSession.fetch("https://api.example.com/files/a%2Fb").text == "a/b")
    }

    @Test func pathTemplates() async throws {
        let mock = HTTPMock()
        mock.registerResponses {
            Host("api.example.com") {
                Path("/users/{id}") {
                    MockResponse.dynamic(lifetime: .eternal) { _, captures in .plaintext("user \(captures["id"]!)") }
                    Path("posts/{post}") { MockResponse.dynamic { _, c in .plaintext("\(c["id"]!)/\(c["post"]!)") } }
                }
            }
        }
        #expect(try await mock.urlSession.fetch("https://api.example.com/users/7").text == "user 7")
        #expect(try await mock.urlSession.fetch("https://api.example.com/users/7/posts/3").text == "7/3")
    }

    @Test func urlEquality() async throws {
        let mock = HTTPMock()
        try mock.stub(.url("http://myws.com/login", options: [.ignoreQuery]), responses: [.plaintext("login", lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch("http://myws.com/login?username=ann").text == "login")
        #expect(try await mock.urlSession.fetch("http://myws.com/login?username=bob&lock=1").text == "login")
        #expect(try await mock.urlSession.fetch("http://myws.com/logout").status == 404)
    }

    @Test func bodies() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/upload"), .body(Data([0xCA, 0xFE])), responses: [.empty(status: .created)])
        try mock.stub(.path("/notes"), .body(matching: "^title="), responses: [.empty(status: .accepted)])
        #expect(try await mock.urlSession.fetch("https://a.test/upload", method: "POST", body: Data([0xCA, 0xFE])).status == 201)
        #expect(try await mock.urlSession.fetch("https://a.test/notes", method: "POST", body: Data("x&title=a".utf8)).status == 404)
        #expect(try await mock.urlSession.fetch("https://a.test/notes", method: "POST", body: Data("title=a".utf8)).status == 202)
    }

    @Test func json() async throws {
        let mock = HTTPMock()
        try mock.stub(.json(User(id: 34, name: "Mark")), responses: [.empty(status: .noContent)])
        try mock.stub(.json(object: ["id": 34, "tags": ["a", "b"]]), responses: [.empty()])
        try mock.stub(.jsonContaining(["action": "login"]), responses: [.dictionary(["ok": true])])
        let post = { (body: String) in try await mock.urlSession.fetch("https://a.test/x", method: "POST", body: Data(body.utf8)) }
        #expect(try await post(#"{ "name": "Mark", "id": 34.0 }"#).status == 204)
        #expect(try await post(#"{"tags":["b","a"],"id":34}"#).status == 404)
        #expect(try await post(#"{"tags":["a","b"],"id":34}"#).status == 200)
        #expect(try await post(#"{"action":"login","user":"ann"}"#).text == #"{"ok":true}"#)
    }

    @Test func form() async throws {
        let mock = HTTPMock()
        try mock.stub(.form(["user": "ann lee", "remember": .any], matching: .contains), responses: [.empty()])
        #expect(try await mock.urlSession.fetch("https://a.test/f", method: "POST", body: Data("user=ann+lee&extra=x".utf8)).status == 404)
        #expect(try await mock.urlSession.fetch("https://a.test/f", method: "POST", body: Data("user=ann+lee&remember=1&extra=x".utf8)).status == 200)
    }

    @Test func headers() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/a"), .header("X-API-Key"), responses: [.plaintext("has a key")])
        try mock.stub(.path("/b"), .header("Authorization", "Bearer t0k3n"), responses: [.plaintext("signed in")])
        try mock.stub(.path("/c"), .header("User-Agent", matching: "^MyApp/[0-9]+"), responses: [.plaintext("app")])
        try mock.stub(.path("/d"), .not(.header("X-Debug")), responses: [.plaintext("quiet")])
        #expect(try await mock.urlSession.fetch("https://a.test/a", headers: ["x-api-key": "k"]).text == "has a key")
        #expect(try await mock.urlSession.fetch("https://a.test/b", headers: ["Authorization": "Bearer t0k3n"]).text == "signed in")
        #expect(try await mock.urlSession.fetch("https://a.test/c", headers: ["User-Agent": "MyApp/2 (Linux)"]).text == "app")
        #expect(try await mock.urlSession.fetch("https://a.test/d", headers: ["X-Debug": "1"]).status == 404)
        #expect(try await mock.urlSession.fetch("https://a.test/d").text == "quiet")
    }

    @Test func tree() async throws {
        let mock = HTTPMock()
        try mock.register {
            Route(.urlRegex(#"^https://cdn[0-9]\.example\.com/"#)) {
                MockResponse.empty(lifetime: .eternal)
            }
            Host("api.example.com") {
                Match.header("Authorization")
                Route(.uriTemplate("/users/{id}"), .method(.get)) {
                    MockResponse.dynamic { _, captures in .plaintext("user \(captures["id"]!)") }
                }
                Path("/orders", method: .post) {
                    Match.jsonContaining(["item": "book"])
                    MockResponse.plaintext("ordered")
                }
            }
        }
        #expect(try await mock.urlSession.fetch("https://cdn1.example.com/logo.png").status == 200)
        #expect(try await mock.urlSession.fetch("https://api.example.com/users/5").status == 404)
        let signed = ["Authorization": "Bearer t"]
        #expect(try await mock.urlSession.fetch("https://api.example.com/users/5", headers: signed).text == "user 5")
        #expect(try await mock.urlSession.fetch("https://api.example.com/orders", method: "POST", headers: signed,
                                                body: Data(#"{"item":"book"}"#.utf8)).text == "ordered")
    }

    @Test func sameMatchersSameQueue() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/q"), responses: [.plaintext("one")])
        try mock.stub(.path("/q"), responses: [.plaintext("two")])
        #expect(try await mock.urlSession.fetch("https://a.test/q").text == "one")
        #expect(try await mock.urlSession.fetch("https://a.test/q").text == "two")
    }
}
