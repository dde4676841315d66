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
        #expect(try await mock.urlSession.fetch(base, method: "POST", body: book).status == 404)
        #expect(try await mock.urlSession.fetch(base, method: "POST", headers: auth, body: Data(#"{"item":"pen"}"#.utf8)).status == 404)
        #expect(try await mock.urlSession.fetch(base, method: "POST", headers: auth, body: book).text == "ordered")
        #expect(try await mock.urlSession.fetch(base + "/bulk", method: "POST", headers: auth, body: Data("{}".utf8)).status == 404)
        #expect(try await mock.urlSession.fetch(base + "/bulk", method: "POST", headers: auth, body: book).text == "bulk")
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
        noteExpectedRefusal("a header pattern that does not compile")
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
