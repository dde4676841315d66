import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// The samples of the Getting Started article, run against a real mock.
@Suite struct GettingStartedSamplesTests {
    struct ProfileClient {
        let session: URLSession
        func userName() async throws -> String {
            let (data, _) = try await session.data(from: URL(string: "https://api.example.com/user")!)
            return try JSONDecoder().decode(User.self, from: data).name
        }
    }

    @Test func registerAndRequest() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/user", host: "api.example.com") {
            MockResponse.encodable(User(id: 1, name: "Alice"))
            MockResponse.empty(status: .notFound)
        }
        let url = URL(string: "https://api.example.com/user")!
        let (data, _) = try await mock.urlSession.data(from: url)
        let user = try JSONDecoder().decode(User.self, from: data)
        #expect(user == User(id: 1, name: "Alice"))
        #expect(try await mock.urlSession.fetch("https://api.example.com/user").status == 404)

        let entry = try #require(mock.journal.last)
        #expect(entry.request.url.path == "/user")
        #expect(entry.statusCode == 404)
    }

    @Test func giveTheSessionToYourCode() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/user", host: "api.example.com") { MockResponse.encodable(User(id: 2, name: "Bob")) }
        let client = ProfileClient(session: mock.urlSession)
        let name = try await client.userName()
        #expect(name == "Bob")
    }

    @Test func unmockedPolicy() async throws {
        let mock = HTTPMock()
        mock.unmockedPolicy = .mock(.plaintext("maintenance", status: .serviceUnavailable))
        let reply = try await mock.urlSession.fetch("https://api.example.com/anything")
        #expect(reply.status == 503)
        #expect(reply.text == "maintenance")
    }
}
