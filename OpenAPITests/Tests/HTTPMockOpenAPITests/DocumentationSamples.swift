import Foundation
import HTTPMockOpenAPI
import HTTPMockTesting
import OpenAPIRuntime
import OpenAPIURLSession
import Testing

/// The samples of HTTPMockOpenAPI's catalog (Sources/HTTPMockOpenAPI/HTTPMockOpenAPI.docc), line for line, against
/// the client generated from openapi.yaml (.ci/docs checks that every sample is here).
@Test(.httpMock { mock in
    try mock.stub(.method(.get), .uriTemplate("/v1/users/{id}"), responses: [.dictionary(["id": 42, "name": "Ada"])])
})
func loadsTheUser() async throws {
    let mock = try #require(HTTPMock.current)
    let client = Client(serverURL: URL(string: "https://api.example.com/v1")!, transport: mock.openAPITransport())
    #expect(try await client.getUser(path: .init(id: 42)).ok.body.json.name == "Ada")
}

/// A request no stub answered through the transport fails the test at its end, with the near-miss report, though
/// the generated client only returned `.undocumented(404)`.
@Test func anUnansweredOperationFailsTheTraitsTest() async throws {
    let trait = HTTPMockTrait.httpMock { mock in
        try mock.stub(.method(.get), .uriTemplate("/v1/users/{id}"), responses: [.dictionary(["id": 42, "name": "Ada"])])
    }
    let texts = Box<[String]>([])
    let test = try #require(Test.current)
    await withKnownIssue("expected: the request below is answered by no stub") {
        try? await trait.provideScope(for: test, testCase: nil) {
            let mock = try #require(HTTPMock.current)
            let client = Client(serverURL: URL(string: "https://api.example.com/v1")!, transport: mock.openAPITransport())
            _ = try await client.getUser(path: .init(id: 42))
            guard case .undocumented(statusCode: 404, _) = try await client.getUser(path: .init(id: 42)) else {
                Issue.record("expected the mock's 404")
                return
            }
        }
    } matching: { issue in
        texts.withLock { $0.append(issue.comments.map(\.rawValue).joined(separator: "\n")) }
        return true
    }
    #expect(texts.current.count == 1)
    #expect(texts.current.first?.contains("was not answered by any stub") == true)
    #expect(texts.current.first?.contains("responses: expected a queued response, got all 1 response(s) already served") == true)
}

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
