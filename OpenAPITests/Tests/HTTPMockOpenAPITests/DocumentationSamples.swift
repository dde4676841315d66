import Foundation
import HTTPMockOpenAPI
import HTTPMockTesting
import OpenAPIRuntime
import OpenAPIURLSession
import Testing

/// The samples of HTTPMockOpenAPI's catalog (Sources/HTTPMockOpenAPI/HTTPMockOpenAPI.docc), line for line, against
/// the client generated from openapi.yaml (.ci/docs checks that every sample is here).
@Suite struct DocumentationSamples {
    @Test func answerAnOperation() async throws {
        let mock = HTTPMock()
        try mock.stub(.method(.get), .uriTemplate("/v1/users/{id}"), responses: [
            .dictionary(["id": 42, "name": "Ada"]),
        ])
        let client = Client(serverURL: URL(string: "https://api.example.com/v1")!, transport: mock.openAPITransport())

        let user = try await client.getUser(path: .init(id: 42)).ok.body.json
        #expect(user.name == "Ada")
        HTTPAssertRequestedOnce("https://api.example.com/v1/users/42", method: .get, in: mock)
    }

    @Test func anErrorResponse() async throws {
        let mock = HTTPMock()
        let client = Client(serverURL: URL(string: "https://api.example.com/v1")!, transport: mock.openAPITransport())
        try mock.stub(.path("/v1/users/7"), responses: [.dictionary(["message": "no user 7"], status: .notFound)])
        guard case .notFound(let notFound) = try await client.getUser(path: .init(id: 7)) else {
            Issue.record("expected 404")
            return
        }
        #expect(try notFound.body.json.message == "no user 7")
    }

    @Test func aFault() async throws {
        let mock = HTTPMock()
        let client = Client(serverURL: URL(string: "https://api.example.com/v1")!, transport: mock.openAPITransport())
        try mock.stub(.path("/v1/users/1"), responses: [.fault(.offline)])
        do {
            _ = try await client.getUser(path: .init(id: 1))
        } catch let error as ClientError {
            #expect((error.underlyingError as? URLError)?.code == .notConnectedToInternet)
        }
        #expect(mock.journal.last?.error != nil)
    }

    @Test func thePassthroughTransport() {
        let mock = HTTPMock()
        let transport = mock.openAPITransport(passthrough: URLSessionTransport())
        #expect(transport.passthrough != nil)
        #expect(transport.mock === mock)
    }
}
