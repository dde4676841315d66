import Foundation
import HTTPMockOpenAPI
import HTTPMockTesting
import OpenAPIRuntime
import Testing

/// The client that swift-openapi-generator generates from `openapi.yaml` (the build plugin), answered by a mock.
@Suite struct GeneratedClientTests {
    let mock = HTTPMock()
    var client: Client { Client(serverURL: URL(string: "https://api.example.com/v1")!, transport: mock.openAPITransport()) }

    @Test func aPathTemplateIsAnsweredWithDecodedJSON() async throws {
        try mock.stub(.method(.get), .host("api.example.com"), .uriTemplate("/v1/users/{id}"), responses: [
            .dynamic { _, captures in .dictionary(["id": Int(captures["id"] ?? "") ?? 0, "name": "Ada"]) },
        ])
        let user = try await client.getUser(path: .init(id: 42)).ok.body.json
        #expect(user.id == 42)
        #expect(user.name == "Ada")
        HTTPAssertRequestedOnce("https://api.example.com/v1/users/42", method: .get, in: mock)
    }

    @Test func anErrorResponseIsTheDocumentedCase() async throws {
        try mock.stub(.path("/v1/users/7"), responses: [
            .dictionary(["message": "no user 7"], status: .notFound),
        ])
        let output = try await client.getUser(path: .init(id: 7))
        guard case .notFound(let notFound) = output else {
            Issue.record("expected 404, got \(output)")
            return
        }
        #expect(try notFound.body.json.message == "no user 7")
        #expect(mock.journal.last?.statusCode == 404)
    }

    @Test func anUndocumentedStatusIsUndocumented() async throws {
        try mock.stub(.path("/v1/users/1"), responses: [.plaintext("teapot", status: .other(418))])
        let output = try await client.getUser(path: .init(id: 1))
        guard case .undocumented(let statusCode, _) = output else {
            Issue.record("expected an undocumented status, got \(output)")
            return
        }
        #expect(statusCode == 418)
    }

    @Test func theQueryReachesTheStub() async throws {
        try mock.stub(.path("/v1/users"), .query(["role": "admin", "limit": "2"]), responses: [
            MockResponse(body: Data(#"[{"id":1,"name":"Ada","role":"admin"},{"id":2,"name":"Grace","role":"admin"}]"#.utf8),
                         contentType: "application/json"),
        ])
        let users = try await client.listUsers(query: .init(role: "admin", limit: 2)).ok.body.json
        #expect(users.map(\.name) == ["Ada", "Grace"])
        HTTPAssertRequested("https://api.example.com/v1/users", method: .get, queryParameters: ["role": "admin", "limit": "2"],
                            count: .exactly(1), in: mock)
    }

    @Test func aJSONBodyIsMatchedAndTheCreatedHeaderRead() async throws {
        try mock.stub(.method(.post), .path("/v1/users"), .jsonContaining(object: ["name": "Ada"]), responses: [
            .dictionary(["id": 3, "name": "Ada"], status: .created, headers: ["Location": "/v1/users/3"]),
        ])
        let output = try await client.createUser(body: .json(.init(name: "Ada", role: "admin")))
        guard case .created(let created) = output else {
            Issue.record("expected 201, got \(output)")
            return
        }
        #expect(created.headers.Location == "/v1/users/3")
        #expect(try created.body.json.id == 3)
        let sent = try #require(HTTPAssertRequestedOnce("https://api.example.com/v1/users", method: .post, in: mock))
        let body = try #require(sent.request.body)
        let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: String])
        #expect(json == ["name": "Ada", "role": "admin"])
        #expect(sent.request.headers["Content-Type"] == "application/json; charset=utf-8")
    }

    @Test func aValidationErrorIsTheDocumentedCase() async throws {
        try mock.stub(.method(.post), .path("/v1/users"), responses: [
            .dictionary(["message": "name is empty"], status: .other(422)),
        ])
        let output = try await client.createUser(body: .json(.init(name: "")))
        guard case .unprocessableContent(let problem) = output else {
            Issue.record("expected 422, got \(output)")
            return
        }
        #expect(try problem.body.json.message == "name is empty")
    }

    @Test func aFaultIsThrownAsTheClientWrapsNetworkErrors() async throws {
        try mock.stub(.path("/v1/users/1"), responses: [.fault(.offline)])
        do {
            _ = try await client.getUser(path: .init(id: 1))
            Issue.record("expected an error")
        } catch let error as ClientError {
            #expect((error.underlyingError as? URLError)?.code == .notConnectedToInternet)
            #expect(error.operationID == "getUser")
        }
        #expect((mock.journal.last?.error as? URLError)?.code == .notConnectedToInternet)
    }

    @Test func anUnmockedRequestGetsThePolicy() async throws {
        mock.unmockedPolicy = .optOut
        do {
            _ = try await client.listUsers()
            Issue.record("expected an error")
        } catch let error as ClientError {
            #expect((error.underlyingError as? HTTPMockError)?.code == .unmockedRequest)
        }
        HTTPAssertRequestedOnce("https://api.example.com/v1/users", in: mock)
        #expect(mock.journal.last?.resolution.isMatched == false)
    }
}
