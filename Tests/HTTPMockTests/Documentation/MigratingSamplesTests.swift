import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// The samples of the Migrating article that need only HTTPMock, run against a real mock. The HTTPAssertion
/// samples are in HTTPMockTestingTests.
@Suite struct MigratingSamplesTests {
    let bundles = fixtures.appendingPathComponent("Mockingbird")

    @Test func fromHTTPMockByBstien() async throws {
        let mock = HTTPMock()
        mock.registerResponses {
            Host("api.example.com") {
                Path("/user") { MockResponse.encodable(User(id: 1, name: "Alice")) }
            }
        }
        mock.unmockedPolicy = .passthrough
        let user = try await mock.urlSession.fetch("https://api.example.com/user")
        #expect(try JSONDecoder().decode(User.self, from: Data(user.text.utf8)) == User(id: 1, name: "Alice"))
        guard case .passthrough = mock.unmockedPolicy else { Issue.record("the policy is not passthrough"); return }
    }

    @Test func fromHTTPStubber() async throws {
        let mock = HTTPMock()
        try mock.stub(.urlRegex(#"^https://api\.example\.com/v[0-9]+/items"#), byMethod: [
            .get: .dictionary(["items": [1, 2]], lifetime: .eternal),
            .post: .empty(status: .created),
        ])
        try mock.ignore(.url("https://telemetry.example.com", options: [.ignorePath]))
        mock.unmockedPolicy = .optOut
        #expect(try await mock.urlSession.fetch("https://api.example.com/v2/items").text == #"{"items":[1,2]}"#)
        #expect(try await mock.urlSession.fetch("https://api.example.com/v1/items", method: "POST").status == 201)
        await #expect(throws: (any Error).self) {
            _ = try await mock.urlSession.fetch("https://api.example.com/other")
        }
    }

    @Test func fromMockingbird() async throws {
        let mock = HTTPMock()
        try mock.loadMockingbirdBundle(at: bundles.appendingPathComponent("loggedOut"))
        mock.unmockedPolicy = .mock(.empty(status: .notImplemented))
        #expect(try await mock.urlSession.fetch("https://unknown.example.com/").status == 501)
        #expect(mock.journal.count == 1)
    }

    @Test func fromOHHTTPStubs() async throws {
        let mock = HTTPMock()
        try mock.stub(.host("api.example.com"), .path("/users"), responses: [
            .dictionary(["users": ["ann", "bob"]], lifetime: .eternal, delivery: .delayed(0.1)),
        ])
        mock.addResponses(forPath: "/offline", host: "api.example.com", responses: [.failure(URLError(.notConnectedToInternet))])
        #expect(try await mock.urlSession.fetch("https://api.example.com/users").text == #"{"users":["ann","bob"]}"#)
        await #expect(throws: URLError.self) {
            _ = try await mock.urlSession.fetch("https://api.example.com/offline")
        }
    }

    @Test func fromMocker() async throws {
        let mock = HTTPMock()
        let profile = try mock.stub(.url("https://api.example.com/user"), byMethod: [
            .get: .encodable(User(id: 1, name: "Alice")),
            .put: .empty(status: .noContent),
        ])
        #expect(try await mock.urlSession.fetch("https://api.example.com/user", method: "PUT").status == 204)
        #expect(try await mock.urlSession.fetch("https://api.example.com/user").status == 200)
        #expect(profile.hitCount == 2)
        #expect(mock.journal.map(\.request.method) == ["PUT", "GET"])
    }
}
