import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock
import HTTPMockServer
import HTTPMockTesting
import Testing

/// The samples of the HTTPMockServer catalog, line for line (.ci/docs checks that each is here).
@Suite("HTTPMockServer documentation samples")
struct DocumentationSamples {
    struct User: Codable, Sendable {
        var id: Int
        var name: String
    }

    @Test("Serve a mock")
    func serveAMock() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/user", host: "api.example.com") {
            MockResponse.encodable(User(id: 1, name: "Alice"))
        }
        let server = try await HTTPMockServer.start(serving: mock, configuration: .init(origin: "https://api.example.com"))
        let (data, _) = try await URLSession(configuration: .ephemeral).data(from: server.baseURL.appendingPathComponent("user"))
        HTTPAssertRequested("https://api.example.com/user", in: mock)
        await server.stop()
        #expect(try JSONDecoder().decode(User.self, from: data).name == "Alice")
    }

    @Test("One server per test")
    func oneServerPerTest() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/user") { MockResponse.encodable(User(id: 1, name: "Alice")) }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: server.baseURL.appendingPathComponent("user").absoluteString), timeout: .seconds(10))
            #expect(response.status.code == 200)
        }
    }

    @Test("The README's sample")
    func readme() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/user", host: "api.example.com") { MockResponse.encodable(User(id: 1, name: "Alice")) }
        let server = try await HTTPMockServer.start(serving: mock, configuration: .init(origin: "https://api.example.com"))
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: server.baseURL.absoluteString + "/user"), timeout: .seconds(5))
        await server.stop()
        #expect(response.status.code == 200)
    }
}
