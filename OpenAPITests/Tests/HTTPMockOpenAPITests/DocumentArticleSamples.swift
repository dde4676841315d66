import Foundation
import HTTPMockOpenAPI
import HTTPMockTesting
import OpenAPIRuntime
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The samples of the article "Mocks from an OpenAPI document" (HTTPMockOpenAPI.docc), line for line, against the
/// client generated from openapi.yaml and that same document (.ci/docs checks that every sample is here).
@Suite struct DocumentArticleSamples {
    let specURL = DocumentFixtures.users

    @Test func servesTheDocumentToTheGeneratedClient() async throws {
        let mock = HTTPMock()
        let api = try mock.loadOpenAPIDocument(from: specURL)
        print(api.operations)   // [GET /users (listUsers), POST /users (createUser), GET /users/{id} (getUser), …]
        let client = Client(serverURL: URL(string: "https://api.example.com/v1")!, transport: mock.openAPITransport())
        let user = try await client.getUser(path: .init(id: 42)).ok.body.json
        #expect(!user.name.isEmpty)
        #expect(api.operations.map(\.description).contains("GET /users/{id} (getUser)"))
    }

    @Test func preferAsksForAnotherResponse() async throws {
        let mock = HTTPMock()
        try mock.loadOpenAPIDocument(from: specURL)
        var request = URLRequest(url: URL(string: "https://api.example.com/v1/users/7")!)
        request.setValue("code=404", forHTTPHeaderField: "Prefer")
        let (_, response) = try await mock.urlSession.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 404)
    }

    @Test func aStubInCodeOverridesTheDocument() async throws {
        let mock = HTTPMock()
        try mock.loadOpenAPIDocument(from: specURL)
        try mock.stub(.method(.get), .uriTemplate("/v1/users/{id}"), responses: [.dictionary(["id": 42, "name": "Ada"])])
        let client = Client(serverURL: URL(string: "https://api.example.com/v1")!, transport: mock.openAPITransport())
        #expect(try await client.getUser(path: .init(id: 42)).ok.body.json.name == "Ada")
    }

    @Test func stubsAreCheckedAgainstTheContract() throws {
        let mock = HTTPMock()
        let mappingsFolder = try DocumentFixtures.write([("mappings/user.json", """
            {"request": {"method": "GET", "urlPath": "/v1/users/1"},
             "response": {"status": 200, "jsonBody": {"id": 1, "name": "Ada"}, "headers": {"Content-Type": "application/json"}}}
            """)]).deletingLastPathComponent().deletingLastPathComponent()
        let document = try OpenAPIDocument(contentsOf: specURL)
        try mock.loadWireMockMappings(from: mappingsFolder)
        let violations = mock.checkStubs(against: document)
        #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
        // And a mapping that drifted from the document is named.
        try mock.stub(.method(.get), .path("/v1/users/2"), responses: [.dictionary(["id": "2"])])
        #expect(mock.checkStubs(against: document).map { "\($0.pointer) \($0.rule)" }.sorted() == [" required", "/id type"])
    }
}
