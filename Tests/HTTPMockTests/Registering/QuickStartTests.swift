import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// The README's quick-start samples, each run through a real URLSession.
@Suite struct QuickStartTests {
    @Test func imperativeArrayQueuesResponsesInOrder() async throws {
        let mock = HTTPMock()
        mock.addResponses(
            forPath: "/user",
            host: "api.example.com",
            responses: [
                .encodable(User(id: 1, name: "Alice")),
                .empty(status: .notFound),
            ]
        )
        let session = mock.urlSession
        let url = URL(string: "https://api.example.com/user")!
        let (data, response) = try await session.data(from: url)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(try JSONDecoder().decode(User.self, from: data) == User(id: 1, name: "Alice"))
        let second = try await session.fetch("https://api.example.com/user")
        #expect(second.status == 404)
        #expect(second.text.isEmpty)
    }

    @Test func imperativeBuilderIsTheSame() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/user", host: "api.example.com") {
            MockResponse.encodable(User(id: 1, name: "Alice"))
            MockResponse.empty(status: .notFound)
        }
        #expect(try await mock.urlSession.fetch("https://api.example.com/user").status == 200)
        #expect(try await mock.urlSession.fetch("https://api.example.com/user").status == 404)
    }

    @Test func declarativeDSLIsTheSame() async throws {
        let mock = HTTPMock()
        mock.registerResponses {
            Host("api.example.com") {
                Path("/user") {
                    MockResponse.encodable(User(id: 1, name: "Alice"))
                    MockResponse.empty(status: .notFound)
                }
            }
        }
        let first = try await mock.urlSession.fetch("https://api.example.com/user")
        #expect(first.status == 200)
        #expect(try JSONDecoder().decode(User.self, from: Data(first.text.utf8)) == User(id: 1, name: "Alice"))
        #expect(try await mock.urlSession.fetch("https://api.example.com/user").status == 404)
    }

    @Test func defaultDomainIsUsedWhenNoHostIsGiven() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "ping", responses: [.plaintext("pong")])
        #expect(try await mock.urlSession.fetch("https://example.com/ping").text == "pong")
        mock.defaultDomain = "api.test"
        mock.addResponses(forPath: "/ping") { MockResponse.plaintext("pong 2") }
        #expect(try await mock.urlSession.fetch("https://api.test/ping").text == "pong 2")
    }

    @Test func nestedPathsJoin() async throws {
        let mock = HTTPMock()
        mock.registerResponses {
            Host("api.example.com") {
                Path("/admin") {
                    MockResponse.plaintext("admin")
                    Path("audit") { MockResponse.plaintext("audit") }
                }
            }
        }
        #expect(try await mock.urlSession.fetch("https://api.example.com/admin/audit").text == "audit")
        #expect(try await mock.urlSession.fetch("https://api.example.com/admin").text == "admin")
    }

    @Test func trailingSlashesAreNormalisedTheSameEverywhere() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "posts/", host: "demo.test", responses: [.plaintext("a")])
        mock.registerResponses { Host("demo.test") { Path("/posts") { MockResponse.plaintext("b") } } }
        // One queue: both registrations name the same path.
        #expect(try await mock.urlSession.fetch("https://demo.test/posts/").text == "a")
        #expect(try await mock.urlSession.fetch("https://demo.test/posts").text == "b")
    }
}
