import Foundation
import HTTPMockOpenAPI
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession

/// The three ways a swift-openapi client's request is answered in the openapi benchmarks.
public enum OpenAPIRoute: String, CaseIterable, Sendable {
    /// A hand-written transport that returns a fixed response: what any transport costs at least.
    case floor
    /// HTTPMockOpenAPI's transport, answered by a mock with 10 stubs.
    case httpMock
    /// `URLSessionTransport` over the same mock's `urlSession`: the route before HTTPMockOpenAPI.
    case urlSession
}

/// The body every route answers `getUser` with.
let userJSON = Data(#"{"id":42,"name":"Ada"}"#.utf8)

/// A transport that answers every request with the same 200 and JSON body, doing nothing else.
struct FixedTransport: ClientTransport {
    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json", .contentLength: "22"]),
         HTTPBody(userJSON, length: .known(22), iterationBehavior: .multiple))
    }
}

/// One route, ready to answer `GET /v1/users/42` through the generated client or the bare transport.
public struct OpenAPIBenchmark: Sendable {
    let transport: any ClientTransport
    let client: Client
    let mock: HTTPMock
    let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/users/42",
                              headerFields: [.accept: "application/json"])
    let serverURL = URL(string: "https://api.example.com/v1")!

    public init(route: OpenAPIRoute) throws {
        mock = HTTPMock()
        for index in 0..<9 {
            try mock.stub(.host("api.example.com"), .path("/v1/other/\(index)"), responses: [.plaintext("other", lifetime: .eternal)])
        }
        try mock.stub(.host("api.example.com"), .path("/v1/users/42"), .method(.get), responses: [
            MockResponse(body: userJSON, contentType: "application/json", lifetime: .eternal),
        ])
        switch route {
        case .floor: transport = FixedTransport()
        case .httpMock: transport = mock.openAPITransport()
        case .urlSession: transport = URLSessionTransport(configuration: .init(session: mock.urlSession))
        }
        client = Client(serverURL: serverURL, transport: transport)
    }

    /// Forgets the journal, as a new test's mock starts empty (call it between rounds, outside the clock).
    public func reset() { mock.clearJournal() }

    /// One call of the generated client's `getUser`, decoded. Returns the user's id.
    public func callClient() async throws -> Int {
        try await client.getUser(path: .init(id: 42)).ok.body.json.id
    }

    /// One bare `send` of the transport, its body read. Returns the body's length.
    public func callTransport() async throws -> Int {
        let (_, body) = try await transport.send(request, body: nil, baseURL: serverURL, operationID: "getUser")
        guard let body else { return 0 }
        return try await Data(collecting: body, upTo: .max).count
    }
}
