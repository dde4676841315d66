import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

// The README's samples, line for line (`.ci/docs-check.py samples` holds the README to them too), each run
// against a real mock.

/// The README's "your code, unchanged": a client that takes a session.
private struct APIClient {
    let session: URLSession

    func currentUser() async throws -> User {
        let (data, _) = try await session.data(from: URL(string: "https://api.example.com/user")!)
        return try JSONDecoder().decode(User.self, from: data)
    }
}

@Suite struct FrontDoorSamplesTests {
    @Test func quickStart() async throws {
        let mock = HTTPMock()                       // or HTTPMock.shared
        mock.addResponses(forPath: "/user", host: "api.example.com") {
            MockResponse.encodable(User(id: 1, name: "Alice"))   // 200, application/json
            MockResponse.empty(status: .notFound)                // the second request gets 404
        }

        let client = APIClient(session: mock.urlSession)          // your code, unchanged
        let user = try await client.currentUser()
        #expect(user == User(id: 1, name: "Alice"))
        #expect(try await mock.urlSession.fetch("https://api.example.com/user").status == 404)
    }

    @Test func theSameRegistrationAsATree() async throws {
        let mock = HTTPMock()
        mock.registerResponses {
            Host("api.example.com") {
                Headers(["X-Env": "Test"], cascade: true)        // every response below gets it
                Path("/user") {
                    MockResponse.encodable(User(id: 1, name: "Alice"))
                    MockResponse.empty(status: .notFound)
                }
                Path("/search", query: ["q": "swift"], matching: .contains) {
                    MockResponse.plaintext("results")
                }
            }
        }
        let search = try await mock.urlSession.fetch("https://api.example.com/search?q=swift&page=2")
        #expect(search.text == "results")
        #expect(search.header("X-Env") == "Test")
        #expect(try await mock.urlSession.fetch("https://api.example.com/user").header("X-Env") == "Test")
    }

    @Test func matchingMoreThanAPath() async throws {
        let mock = HTTPMock()
        try mock.stub(.method(.post), .uriTemplate("https://api.example.com/users/{id}"), .jsonContaining(["role": "admin"]),
                      responses: [.dynamic { request, captures in .plaintext("updated \(captures["id"] ?? "")") }])
        try mock.stub(.urlRegex(#"^https://cdn[0-9]\.example\.com/"#), byMethod: [.get: .empty(lifetime: .eternal)])
        try mock.ignore(.url("https://telemetry.example.com", options: [.ignorePath]))   // always the real network
        mock.unmockedPolicy = .optOut                                                     // everything else must be mocked
        let updated = try await mock.urlSession.fetch("https://api.example.com/users/7", method: "POST",
                                                      body: Data(#"{"role":"admin","name":"Ann"}"#.utf8))
        #expect(updated.text == "updated 7")
        #expect(try await mock.urlSession.fetch("https://cdn2.example.com/logo.png").status == 200)
        let error = await mock.urlSession.failure("https://api.example.com/other")
        #expect(error != nil)
    }

    @Test func responses() async throws {
        let mock = HTTPMock()
        let value = User(id: 2, name: "Bo")
        let fileURL = fixtures.appendingPathComponent("user.json")
        let data = Data(#"{"id":2}"#.utf8)
        mock.addResponses(forPath: "/r") {
            MockResponse.encodable(value, status: .ok, headers: [:])         // JSON
            MockResponse.dictionary(["error": "nope"], status: .notFound)    // JSON from a dictionary
            MockResponse.plaintext("hello", status: .serviceUnavailable)
            MockResponse.file(named: "user", extension: "json", in: .module) // Content-Type from the extension
            MockResponse.file(url: fileURL, contentType: "image/png")        // read when served, never held in memory
            MockResponse.empty(status: .noContent)
            MockResponse.failure(URLError(.notConnectedToInternet))          // the request fails, as offline
            MockResponse(status: 201, headers: ["Location": "/users/2"], body: data, contentType: "application/json")
        }
        // `user.json` sits in the bundle's Fixtures folder, not at its root: the whole list is refused, naming the
        // file, and nothing of it is registered (never a response with an empty body).
        #expect(mock.registrationErrors.last?.code == .missingFile)
        #expect(try await mock.urlSession.fetch("https://example.com/r").status == 404)
    }

    @Test func whenNothingMatches() async throws {
        let mock = HTTPMock()
        mock.unmockedPolicy = .notFound                                // default: 404 naming the request and why
        #expect(try await mock.urlSession.fetch("https://x.test/a").status == 404)
        mock.unmockedPolicy = .mock(.plaintext("maintenance", status: .serviceUnavailable))
        #expect(try await mock.urlSession.fetch("https://x.test/a").status == 503)
        mock.unmockedPolicy = .fail(URLError(.notConnectedToInternet))
        #expect(await mock.urlSession.failure("https://x.test/a") != nil)
        mock.unmockedPolicy = .passthrough                             // the real network, through passthroughSession
        mock.unmockedPolicy = .fatalError                              // stop, naming the request
        guard case .fatalError = mock.unmockedPolicy else { Issue.record("the policy is not .fatalError"); return }
    }
}
