import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock
import HTTPMockOpenAPI
import Testing

/// Reading OpenAPI documents: 3.0 and 3.1, YAML and JSON, references inside and beside the file, and every problem
/// of a document reported at once.
@Suite struct OpenAPIDocumentTests {
    @Test func readsAThreeZeroYAMLDocumentWithASiblingFile() throws {
        let document = try OpenAPIDocument(contentsOf: DocumentFixtures.pets)
        #expect(document.version == "3.0.3")
        #expect(document.title == "Pet shop")
        #expect(document.servers == ["https://pets.example.com/v2"])
        #expect(document.operations.map(\.description) == [
            "GET /owners/{ownerId}/profile (ownerProfile)",
            "GET /pets (listPets)", "POST /pets (addPet)",
            "GET /pets/{pet-id} (showPet)", "DELETE /pets/{pet-id} (deletePet)",
        ])
    }

    @Test func readsAThreeOneJSONDocument() throws {
        let document = try OpenAPIDocument(contentsOf: DocumentFixtures.store)
        #expect(document.version == "3.1.0")
        #expect(document.operations.map(\.description) == ["GET /orders/{id} (getOrder)", "PUT /orders/{id} (putOrder)"])
        #expect(document.servers.isEmpty)
    }

    @Test func jsonIsToldFromYAMLByItsContentNotItsName() throws {
        let text = #"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/a": {"get": {"responses": {"204": {"description": "none"}}}}}}"#
        let document = try OpenAPIDocument(contentsOf: DocumentFixtures.write([("api.yaml", text)]))
        #expect(document.operations.map(\.description) == ["GET /a"])
    }

    @Test func everyProblemOfADocumentIsReportedAtOnce() throws {
        let url = try DocumentFixtures.write([("api.yaml", """
            openapi: 3.0.3
            info: {title: Broken, version: "1"}
            paths:
              /pets/{id}:
                get:
                  responses:
                    "200":
                      description: x
                      content:
                        application/json:
                          schema: {$ref: "#/components/schemas/Missing"}
              pets:
                get:
                  responses: {"200": {description: x}}
              /items:
                post:
                  parameters:
                    - in: query
                      schema: {type: integer}
                  requestBody:
                    content:
                      application/json:
                        schema: {$ref: "other.yaml#/components/schemas/Item"}
                  responses:
                    "201":
                      description: x
                      content:
                        application/json:
                          schema: {type: object, properties: {n: {minimum: "one"}}}
              /escape:
                get:
                  responses:
                    "200": {$ref: "../outside.yaml#/components/responses/Ok"}
            """)])
        let error = #expect(throws: HTTPMockError.self) { try OpenAPIDocument(contentsOf: url) }
        let message = try #require(error?.message)
        #expect(error?.code == .invalidDefinition)
        #expect(message.contains("problems, nothing was loaded"))
        // The path variable without a parameter, the unresolved $ref, the path without "/", the nameless parameter,
        // the missing sibling file, the invalid keyword and the reference out of the folder: each named with its place.
        #expect(message.contains("api.yaml at /paths/~1pets~1{id}/get: the path names {id}"))
        #expect(message.contains("#/components/schemas/Missing"))
        #expect(message.contains("api.yaml at /paths/pets: a path must start with \"/\""))
        #expect(message.contains("a parameter needs a \"name\""))
        #expect(message.contains("other.yaml: there is no such file"))
        #expect(message.contains("/properties/n/minimum"))
        #expect(message.contains("leads out of the document's folder"))
    }

    @Test func aYAMLSyntaxErrorIsCalledOneWithItsFileAndLine() throws {
        let url = try DocumentFixtures.write([("api.yaml", "openapi: [3.0\n  : {")])
        let error = #expect(throws: HTTPMockError.self) { try OpenAPIDocument(contentsOf: url) }
        #expect(error?.message.hasPrefix("OpenAPI document api.yaml: its YAML has a syntax error") == true, "\(String(describing: error))")
        #expect(error?.message.contains("2:") == true, "names the line: \(String(describing: error))")
        let json = try DocumentFixtures.write([("api.json", "{\"openapi\": \"3.1.0\",, }")])
        let jsonError = #expect(throws: HTTPMockError.self) { try OpenAPIDocument(contentsOf: json) }
        #expect(jsonError?.message.hasPrefix("OpenAPI document api.json: it starts as JSON but is neither valid JSON nor valid YAML") == true,
                "\(String(describing: jsonError))")
    }

    @Test func swaggerTwoIsRefusedWithWhatToDo() throws {
        let url = try DocumentFixtures.write([("api.json", #"{"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {}}"#)])
        let error = #expect(throws: HTTPMockError.self) { try OpenAPIDocument(contentsOf: url) }
        #expect(error?.message.contains("convert it to OpenAPI 3") == true)
    }

    @Test func aCycleOfReferencesIsReportedNotFollowed() throws {
        let url = try DocumentFixtures.write([("api.yaml", """
            openapi: 3.1.0
            info: {title: t, version: "1"}
            paths:
              /a:
                get:
                  responses:
                    "200": {$ref: "#/components/responses/One"}
            components:
              responses:
                One: {$ref: "#/components/responses/Two"}
                Two: {$ref: "#/components/responses/One"}
            """)])
        let error = #expect(throws: HTTPMockError.self) { try OpenAPIDocument(contentsOf: url) }
        #expect(error?.message.contains("leads back to itself") == true)
    }

    @Test func filesThatReferToEachOtherAreEachReadOnce() throws {
        let url = try DocumentFixtures.write([
            ("api.yaml", """
                openapi: 3.1.0
                info: {title: t, version: "1"}
                paths:
                  /nodes:
                    get:
                      responses:
                        "200":
                          description: x
                          content:
                            application/json:
                              schema: {$ref: "schemas/node.yaml#/Node"}
                """),
            ("schemas/node.yaml", """
                Node:
                  type: object
                  properties:
                    next: {$ref: "#/Node"}
                    label: {$ref: "label.yaml#/Label"}
                """),
            ("schemas/label.yaml", """
                Label:
                  type: string
                Back: {$ref: "node.yaml#/Node"}
                """),
        ])
        let document = try OpenAPIDocument(contentsOf: url)
        #expect(document.operations.map(\.description) == ["GET /nodes"])
        let request = CapturedRequest(method: "GET", url: URL(string: "https://any.example.com/nodes")!)
        #expect(document.violations(ofResponse: 200, headers: ["Content-Type": "application/json"],
                                    body: Data(#"{"next": {"label": 3}}"#.utf8), to: request)
                .map(\.pointer) == ["/next/label"])
    }

    @Test func anExampleThatBreaksItsSchemaIsAWarningAndServedAsItIs() async throws {
        let url = try DocumentFixtures.write([("api.yaml", """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            paths:
              /a:
                get:
                  responses:
                    "200":
                      description: x
                      content:
                        application/json:
                          schema: {type: object, required: [id], properties: {id: {type: integer}}}
                          example: {id: "seven"}
            """)])
        let document = try OpenAPIDocument(contentsOf: url)
        #expect(document.warnings.count == 1)
        #expect(document.warnings.first?.hasPrefix("api.yaml at /paths/~1a/get/responses/200/content/application~1json/example: the example does not match its schema, and is served as it is") == true)
        let mock = HTTPMock()
        try mock.loadOpenAPIDocument(document)
        let (data, _) = try await mock.urlSession.data(from: URL(string: "https://example.com/a")!)
        #expect(String(decoding: data, as: UTF8.self) == #"{"id":"seven"}"#)
    }

    @Test func anOperationMayBeAReferenceToAnotherFile() async throws {
        let url = try DocumentFixtures.write([
            ("api.yaml", """
                openapi: 3.0.3
                info: {title: t, version: "1"}
                paths:
                  /notes/{id}:
                    get:
                      $ref: "operations/get-note.yaml"
                """),
            ("operations/get-note.yaml", """
                parameters:
                  - {name: id, in: path, required: true, schema: {type: integer}}
                responses:
                  "200":
                    description: A note.
                    content:
                      application/json:
                        schema: {$ref: "../schemas.yaml#/Note"}
                        example: {id: 1, text: "hello"}
                """),
            ("schemas.yaml", """
                Note:
                  type: object
                  properties: {id: {type: integer}, text: {type: string}}
                """),
        ])
        let document = try OpenAPIDocument(contentsOf: url)
        #expect(document.operations.map(\.description) == ["GET /notes/{id}"])
        let mock = HTTPMock()
        try mock.loadOpenAPIDocument(document)
        let (data, _) = try await mock.urlSession.data(from: URL(string: "https://example.com/notes/1")!)
        #expect(String(decoding: data, as: UTF8.self).contains("hello"))
        let (_, refused) = try await mock.urlSession.data(from: URL(string: "https://example.com/notes/x")!)
        #expect((refused as? HTTPURLResponse)?.statusCode == 422)
    }

    @Test func propertiesKeptInAnotherFileAndNumbersBeyond64BitsAreRead() throws {
        let url = try DocumentFixtures.write([
            ("api.yaml", """
                openapi: 3.0.3
                info: {title: t, version: "1"}
                paths:
                  /limits:
                    put:
                      requestBody:
                        content:
                          application/json:
                            schema:
                              type: object
                              properties:
                                $ref: "limit-properties.yaml"
                      responses:
                        "204": {description: Saved.}
                """),
            ("limit-properties.yaml", """
                size:
                  type: integer
                  maximum: 18446744073709551615
                """),
        ])
        let document = try OpenAPIDocument(contentsOf: url)
        func request(_ body: String) -> CapturedRequest {
            CapturedRequest(method: "PUT", url: URL(string: "https://example.com/limits")!,
                            headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
        #expect(document.violations(of: request(#"{"size": 12}"#)).isEmpty)
        #expect(document.violations(of: request(#"{"size": "big"}"#)).map(\.rule) == ["type"])
    }

    @Test func anAliasBombIsRefusedNotExpanded() throws {
        var yaml = "openapi: 3.1.0\ninfo: {title: t, version: \"1\"}\npaths: {}\nx0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...8 { yaml += "x\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n" }
        let url = try DocumentFixtures.write([("api.yaml", yaml)])
        let error = #expect(throws: HTTPMockError.self) { try OpenAPIDocument(contentsOf: url) }
        #expect(error?.message.contains("more than 2000000 YAML values") == true)
    }
}
