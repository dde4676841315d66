import Foundation
import HTTPMockOpenAPI
import HTTPMockTesting
import HTTPTypes
import OpenAPIRuntime
import Testing

/// The client generated from openapi.yaml, answered by a mock made from that same document through the
/// HTTPMockOpenAPI transport: one import, one file, both sides.
@Suite struct DocumentClientTests {
    let mock = HTTPMock()
    var client: Client { Client(serverURL: URL(string: "https://api.example.com/v1")!, transport: mock.openAPITransport()) }

    @Test func everyOperationAnswersWhatTheClientDecodes() async throws {
        try mock.loadOpenAPIDocument(from: DocumentFixtures.users)
        let user = try await client.getUser(path: .init(id: 42)).ok.body.json
        #expect(!user.name.isEmpty)
        let users = try await client.listUsers(query: .init(role: "admin", limit: 2)).ok.body.json
        #expect(users.count == 1)
        let created = try await client.createUser(body: .json(.init(name: "Ada"))).created
        #expect(!created.headers.Location.isEmpty)
        #expect(try !created.body.json.name.isEmpty)
    }

    @Test func preferPicksTheDocumentedErrorCase() async throws {
        try mock.loadOpenAPIDocument(from: DocumentFixtures.users)
        let transport = mock.openAPITransport()
        let (response, _) = try await transport.send(
            .init(method: .get, scheme: nil, authority: nil, path: "/users/7", headerFields: [.init("Prefer")!: "code=404"]),
            body: nil, baseURL: URL(string: "https://api.example.com/v1")!, operationID: "getUser")
        #expect(response.status.code == 404)
    }

    @Test func aStubInCodeStillWinsForTheGeneratedClient() async throws {
        try mock.loadOpenAPIDocument(from: DocumentFixtures.users)
        try mock.stub(.method(.get), .uriTemplate("/v1/users/{id}"), responses: [.dictionary(["id": 42, "name": "Ada"])])
        #expect(try await client.getUser(path: .init(id: 42)).ok.body.json.name == "Ada")
        #expect(try await client.getUser(path: .init(id: 42)).ok.body.json.name != "Ada")
    }

    @Test func aBodyTheDocumentRefusesIsTheDocumented422() async throws {
        try mock.loadOpenAPIDocument(from: DocumentFixtures.users)
        let output = try await client.createUser(body: .json(.init(name: "Ada", role: nil)))
        #expect(throws: Never.self) { try output.created }
        // An empty JSON object breaks "required: [name]": the document lists a 422 for it.
        let (response, body) = try await mock.openAPITransport().send(
            .init(method: .post, scheme: nil, authority: nil, path: "/users", headerFields: [.contentType: "application/json"]),
            body: HTTPBody("{}"), baseURL: URL(string: "https://api.example.com/v1")!, operationID: "createUser")
        #expect(response.status.code == 422)
        // The document's own 422, made from its schema, as Prism answers; the violation rides in a header.
        let text = try await String(collecting: #require(body), upTo: .max)
        #expect(text.contains("\"message\""))
        let violations = try #require(response.headerFields[HTTPField.Name("X-HTTPMock-Violations")!])
        #expect(violations.contains("request body") && violations.contains("(required)"), "\(violations)")
    }
}
