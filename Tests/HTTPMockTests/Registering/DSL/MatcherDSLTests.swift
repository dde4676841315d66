import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// Matchers and routes in the declarative DSL.
@Suite struct MatcherDSLTests {
    @Test func routesAtTopLevelAndInsideAHost() async throws {
        let mock = HTTPMock()
        try mock.register {
            Route(.urlRegex(#"^https://cdn[0-9]\.example\.com/"#)) {
                MockResponse.plaintext("cdn", lifetime: .eternal)
            }
            Host("api.example.com") {
                Route(.uriTemplate("/users/{id}"), .method(.get)) {
                    MockResponse.dynamic(lifetime: .eternal) { _, captures in .plaintext("user \(captures["id"]!)") }
                }
            }
        }
        #expect(try await mock.urlSession.fetch("https://cdn2.example.com/a.png").text == "cdn")
        #expect(try await mock.urlSession.fetch("https://api.example.com/users/5").text == "user 5")
        #expect(try await mock.urlSession.fetch("https://other.example.com/users/5").status == 404)
        #expect(try await mock.urlSession.fetch("https://api.example.com/users/5", method: "POST").status == 404)
    }

    @Test func matchersInHostsApplyToEveryPathAndInPathsToNestedPaths() async throws {
        let mock = HTTPMock()
        mock.registerResponses {
            Host("api.example.com") {
                Match.header("Authorization", "Bearer ok")
                Path("/orders", method: .post) {
                    Match.jsonContaining(["item": "book"])
                    MockResponse.plaintext("ordered")
                    Path("/bulk") { MockResponse.plaintext("bulk") }
                }
            }
        }
        #expect(mock.registrationErrors.isEmpty)
        let auth = ["Authorization": "Bearer ok"]
        let book = Data(#"{"item":"book","n":2}"#.utf8)
        let base = "https://api.example.com/orders"
        #expect(try await mock.urlSession.send(base, method: "POST", body: book).status == 404)
        #expect(try await mock.urlSession.send(base, method: "POST", headers: auth, body: Data(#"{"item":"pen"}"#.utf8)).status == 404)
        #expect(try await mock.urlSession.send(base, method: "POST", headers: auth, body: book).text == "ordered")
        #expect(try await mock.urlSession.send(base + "/bulk", method: "POST", headers: auth, body: Data("{}".utf8)).status == 404)
        #expect(try await mock.urlSession.send(base + "/bulk", method: "POST", headers: auth, body: book).text == "bulk")
    }

    @Test func invalidMatcherInTheDSLRegistersNothing() async throws {
        let mock = HTTPMock()
        let error = #expect(throws: HTTPMockError.self) {
            try mock.register {
                Host("api.example.com") {
                    Path("/fine") { MockResponse.plaintext("fine") }
                }
                Route(.uriTemplate("/broken/{id")) { MockResponse.plaintext("never") }
            }
        }
        #expect(error?.message.contains("/broken/{id") == true)
        #expect(try await mock.urlSession.fetch("https://api.example.com/fine").status == 404)
        mock.registerResponses {
            Host("api.example.com") { Path("/h") { Match.header("X", matching: "[") ; MockResponse.plaintext("x") } }
        }
        #expect(mock.registrationErrors.last?.message.contains("\"[\"") == true)
    }

    @Test func headersCascadeIntoRoutes() async throws {
        let mock = HTTPMock()
        try mock.register {
            Host("api.example.com") {
                Headers(["X-Env": "test"], cascade: true)
                Route(.path("/r")) { MockResponse.plaintext("r") }
            }
        }
        #expect(try await mock.urlSession.fetch("https://api.example.com/r").header("X-Env") == "test")
    }
}

/// Paths written with `{…}` are URI templates, in both the DSL and `addResponses`.
@Suite struct PathTemplateTests {
    @Test func dslPathTemplatesCaptureAndNest() async throws {
        let mock = HTTPMock()
        try mock.register {
            Host("api.example.com") {
                Path("/users/{id}") {
                    MockResponse.dynamic(lifetime: .eternal) { _, captures in .plaintext("user \(captures["id"]!)") }
                    Path("posts/{post}") {
                        MockResponse.dynamic(lifetime: .eternal) { _, captures in .plaintext("\(captures["id"]!)/\(captures["post"]!)") }
                    }
                }
            }
        }
        #expect(try await mock.urlSession.fetch("https://api.example.com/users/7").text == "user 7")
        #expect(try await mock.urlSession.fetch("https://api.example.com/users/7/posts/3").text == "7/3")
        #expect(try await mock.urlSession.fetch("https://api.example.com/users/7/other").status == 404)
    }

    @Test func addResponsesAcceptsATemplateAndSharesItsQueue() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/repos/{owner}/{repo}", host: "github.test", responses: [
            .dynamic { _, captures in .plaintext("\(captures["owner"]!)/\(captures["repo"]!)") },
        ])
        mock.addResponses(forPath: "/repos/{owner}/{repo}/", host: "github.test", responses: [.plaintext("second")])
        #expect(mock.registrationErrors.isEmpty)
        #expect(try await mock.urlSession.fetch("https://github.test/repos/apple/swift").text == "apple/swift")
        #expect(try await mock.urlSession.fetch("https://github.test/repos/a/b").text == "second")
    }

    @Test func mixingGlobsAndTemplatesIsRefused() {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/users/*/{id}", host: "x.test", responses: [.plaintext("x")])
        #expect(mock.registrationErrors.last?.message.contains("\"/users/*/{id}\"") == true)
        #expect(mock.registrationErrors.last?.message.contains("mixes glob") == true)
        let error = #expect(throws: HTTPMockError.self) {
            try mock.register { Host("x.test") { Path("/a/{b") { MockResponse.plaintext("x") } } }
        }
        #expect(error?.message.contains("\"/a/{b\"") == true)
    }
}
