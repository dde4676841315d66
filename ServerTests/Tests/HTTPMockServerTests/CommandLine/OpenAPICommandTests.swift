import Foundation
import HTTPMock
import HTTPMockServer
import Testing

/// `httpmock` with OpenAPI documents: serving one as Prism does, checking stubs against one, and checking traffic
/// against one behind a proxy.
@Suite("httpmock serves and checks OpenAPI documents", .disabled(if: runsUnderAddressSanitizer, "launches processes"))
struct OpenAPICommandTests {
    static let document = """
        openapi: 3.0.3
        info: {title: Notes, version: "1"}
        servers:
          - url: https://notes.example.com/v1
        paths:
          /notes/{id}:
            get:
              parameters:
                - {name: id, in: path, required: true, schema: {type: integer}}
              responses:
                "200":
                  description: A note.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Note"}
                      example: {id: 7, text: "buy milk"}
                "404":
                  description: No such note.
          /notes:
            post:
              requestBody:
                required: true
                content:
                  application/json:
                    schema: {$ref: "#/components/schemas/Note"}
              responses:
                "201":
                  description: Created.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Note"}
        components:
          schemas:
            Note:
              type: object
              required: [id, text]
              properties:
                id: {type: integer}
                text: {type: string, maxLength: 20}
        """

    /// Starts `httpmock serve` and reads the base URL it prints first.
    private func serve(_ arguments: [String]) async throws -> (ChildProcess, URL) {
        let child = try ChildProcess("httpmock", arguments: ["serve"] + arguments)
        let line = try await child.nextLine()
        return (child, try #require(URL(string: line), "the first line is the base URL: \(line)"))
    }

    @Test("httpmock serve api.yaml answers every operation from the document and refuses what breaks it, as Prism does")
    func servesADocument() async throws {
        let folder = try temporaryFolder(["notes.yaml": Self.document])
        let (child, url) = try await serve([folder.appendingPathComponent("notes.yaml").path])
        let note = try await call("GET", url.adding("/notes/7"))
        #expect(note.status == 200)
        #expect(note.json?["text"] as? String == "buy milk")
        #expect(try await call("GET", url.adding("/notes/7"), headers: ["Prefer": "code=404"]).status == 404)
        let refused = try await call("POST", url.adding("/notes"), body: #"{"id": "seven"}"#, headers: ["Content-Type": "application/json"])
        #expect(refused.status == 422)
        #expect(refused.headers["content-type"]?.hasPrefix("application/problem+json") == true)
        #expect(refused.text.contains("text") && refused.text.contains("required"))
        #expect(try await call("DELETE", url.adding("/notes/7")).status == 405)
        #expect(try await call("GET", url.adding("/elsewhere")).status == 404)
        #expect(await child.terminate() == 0)
    }

    @Test("httpmock check --openapi names each stub whose response breaks the document, with the field and the rule")
    func checksStubsAgainstADocument() async throws {
        let folder = try temporaryFolder([
            "notes.yaml": Self.document,
            "wiremock/mappings/good.json": #"{"request": {"urlPath": "/v1/notes/1"}, "response": {"status": 200, "jsonBody": {"id": 1, "text": "ok"}, "headers": {"Content-Type": "application/json"}}}"#,
            "wiremock/mappings/bad.json": #"{"name": "drifted", "request": {"urlPath": "/v1/notes/2"}, "response": {"status": 200, "jsonBody": {"id": "2", "text": "a text far longer than twenty"}, "headers": {"Content-Type": "application/json"}}}"#,
        ])
        let run = try await ChildProcess.runToEnd("httpmock", arguments: [
            "check", folder.appendingPathComponent("wiremock").path, "--openapi", folder.appendingPathComponent("notes.yaml").path,
        ])
        #expect(run.status == 1)
        #expect(run.output.contains("drifted") && run.output.contains("/id") && run.output.contains("(type)"))
        #expect(run.output.contains("/text") && run.output.contains("(maxLength)"))
        #expect(!run.output.contains("good.json"))
        #expect(run.errors.contains("2 contract violation(s)"))
    }

    @Test("httpmock serve --openapi with --proxy prints each request and response of real traffic that breaks the document")
    func checksProxiedTraffic() async throws {
        let upstream = HTTPMock()
        upstream.addResponses(forPath: "/v1/notes/3") {
            MockResponse.plaintext(#"{"id": 3}"#, contentType: "application/json", lifetime: .eternal)
        }
        let folder = try temporaryFolder(["notes.yaml": Self.document])
        try await HTTPMockServer.withServer(serving: upstream) { upstreamServer async throws in
            let (child, url) = try await serve(["--proxy", upstreamServer.baseURL.absoluteString,
                                                "--openapi", folder.appendingPathComponent("notes.yaml").path])
            // The answer is relayed as it is; the console says how it breaks the document.
            #expect(try await call("GET", url.adding("/v1/notes/3")).text == #"{"id": 3}"#)
            try await child.waitForError(containing: "GET /notes/{id} 200 response body")
            #expect(child.standardError.contains("(required)"))
            #expect(await child.terminate() == 0)
        }
    }
}
