import Foundation
import HTTPMockOpenAPI
import HTTPMockTesting
import Testing

/// An operation's `security`, checked as Prism checks it: a request without the credentials it asks for gets `401`
/// with a `WWW-Authenticate` challenge; the values themselves are not checked.
@Suite struct SecurityTests {
    static let document = """
        openapi: 3.0.3
        info: {title: Accounts, version: "1"}
        servers: [{url: "https://accounts.example.com"}]
        security:
          - bearerAuth: []
        components:
          securitySchemes:
            bearerAuth: {type: http, scheme: bearer, bearerFormat: JWT}
            basicAuth: {type: http, scheme: basic}
            apiKey: {type: apiKey, in: header, name: X-API-Key}
            queryKey: {type: apiKey, in: query, name: key}
            session: {type: apiKey, in: cookie, name: sid}
            oauth: {type: oauth2, flows: {clientCredentials: {tokenUrl: "https://auth.example.com/token", scopes: {read: Read}}}}
        paths:
          /me:
            get:
              responses:
                "200": {description: You, content: {application/json: {example: {name: Ann}}}}
          /keys:
            get:
              security:
                - apiKey: []
                - queryKey: []
                - basicAuth: []
                  session: []
              responses:
                "200": {description: Keys, content: {application/json: {example: [k1]}}}
                "401":
                  description: Not signed in
                  content: {application/json: {example: {error: sign in first}}}
          /health:
            get:
              security: []
              responses:
                "200": {description: Up, content: {text/plain: {example: up}}}
          /reports:
            get:
              security:
                - oauth: [read]
                - unknownScheme: []
              responses:
                "200": {description: Reports, content: {application/json: {example: []}}}
        """

    let mock = HTTPMock()

    func load() throws {
        try mock.loadOpenAPIDocument(from: DocumentFixtures.write([("api.yaml", Self.document)]))
    }

    @Test("the document's security applies to every operation without its own: no bearer token, 401 with a challenge")
    func documentSecurity() async throws {
        try load()
        let refused = try await mock.send("GET", "https://accounts.example.com/me")
        #expect(refused.status == 401)
        // What the mock answered (on Linux, URLSession is handed a 401 without its challenge: see the Linux article).
        #expect(mock.journal.last?.responseHeaders?["WWW-Authenticate"] == "Bearer")
        #expect(refused.headers["Content-Type"] == "application/problem+json")
        #expect(refused.body.contains("an Authorization: Bearer header (bearerAuth)"))
        #expect(try await mock.send("GET", "https://accounts.example.com/me", headers: ["Authorization": "Basic YTpi"]).status == 401)
        let signedIn = try await mock.send("GET", "https://accounts.example.com/me", headers: ["Authorization": "Bearer t0ken"])
        #expect(signedIn.status == 200)
        #expect(signedIn.body.contains("Ann"))
    }

    @Test("any one requirement is enough, and each of its schemes is needed: a header key, a query key, or basic with a cookie")
    func alternatives() async throws {
        try load()
        let url = "https://accounts.example.com/keys"
        #expect(try await mock.send("GET", url, headers: ["X-API-Key": "k"]).status == 200)
        #expect(try await mock.send("GET", url + "?key=k").status == 200)
        #expect(try await mock.send("GET", url, headers: ["Authorization": "Basic YTpi", "Cookie": "theme=dark; sid=1"]).status == 200)
        // Basic alone is half of its requirement: the operation's own 401 is served, with the challenge.
        let half = try await mock.send("GET", url, headers: ["Authorization": "Basic YTpi"])
        #expect(half.status == 401)
        #expect(half.body.contains("sign in first"))
        #expect(mock.journal.last?.responseHeaders?["WWW-Authenticate"] == "Basic realm=\"api\"")
    }

    @Test("security: [] asks for nothing; oauth2 wants a bearer token; a scheme the document does not define is a warning")
    func overridesAndWarnings() async throws {
        let document = try OpenAPIDocument(contentsOf: DocumentFixtures.write([("api.yaml", Self.document)]))
        #expect(document.warnings.contains { $0.contains("unknownScheme") && $0.contains("does not define") })
        try load()
        #expect(try await mock.send("GET", "https://accounts.example.com/health").status == 200)
        // The second requirement names an undefined scheme: it cannot be checked, so it is taken as met.
        #expect(try await mock.send("GET", "https://accounts.example.com/reports").status == 200)
    }

    @Test("turning validation off turns the check off; a 401 is the API's answer, not a broken contract for HTTPMockTesting")
    func optionsAndReporting() async throws {
        let relaxed = HTTPMock()
        try relaxed.loadOpenAPIDocument(from: DocumentFixtures.write([("api.yaml", Self.document)]),
                                        options: OpenAPIMockOptions(validatesRequests: false))
        #expect(try await relaxed.send("GET", "https://accounts.example.com/me").status == 200)
        try load()
        _ = try await mock.send("GET", "https://accounts.example.com/me")
        #expect(mock.journal.last?.statusCode == 401)
        #expect(mock.journal.last?.responseHeaders?["X-HTTPMock"] == nil)
        #expect(mock.journal.last?.responseHeaders?["Content-Type"] == "application/problem+json")
    }
}
