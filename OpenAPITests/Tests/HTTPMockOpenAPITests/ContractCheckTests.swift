import Foundation
import HTTPMockOpenAPI
import HTTPMockTesting
import Testing

/// Stubs checked against a document: each response that breaks the operation it answers is named with the stub,
/// the field and the rule.
@Suite struct ContractCheckTests {
    let mock = HTTPMock()
    let base = "https://pets.example.com/v2"

    @Test func aStubWhoseBodyBreaksTheSchemaIsNamedWithFieldAndRule() throws {
        let document = try OpenAPIDocument(contentsOf: DocumentFixtures.pets)
        try mock.stub(.method(.get), .uriTemplate("\(base)/pets/{id}"), responses: [
            .dictionary(["id": "seven", "name": "Rex", "kind": "dog", "born": "2020-01-01T00:00:00Z"]),
        ])
        try mock.stub(.method(.get), .url("\(base)/pets/8"), responses: [.dictionary(["id": 8, "name": "Tom", "kind": "cat", "born": "2020-01-01T00:00:00Z"])])
        let violations = mock.checkStubs(against: document)
        #expect(violations.count == 1)
        let violation = try #require(violations.first)
        #expect(violation.operation == "GET /pets/{pet-id} (showPet)")
        #expect(violation.place == "200 response body")
        #expect(violation.pointer == "/id")
        #expect(violation.rule == "type")
        #expect(violation.stub?.contains("template \(base)/pets/{id}") == true)
        #expect(violation.description.hasPrefix("stub #0 "))
    }

    @Test func aStatusTheOperationDoesNotListIsAViolation() throws {
        let document = try OpenAPIDocument(contentsOf: DocumentFixtures.pets)
        try mock.stub(.method(.delete), .path("/v2/pets/*"), .host("pets.example.com"), responses: [.empty(status: .ok)])
        let violations = mock.checkStubs(against: document)
        #expect(violations.map(\.rule) == ["status"])
        #expect(violations.first?.message.contains("lists 204") == true)
    }

    @Test func aMediaTypeTheDocumentDoesNotGiveIsAViolation() throws {
        let document = try OpenAPIDocument(contentsOf: DocumentFixtures.pets)
        try mock.stub(.method(.get), .path("/v2/pets/4"), responses: [.plaintext("Rex")])
        #expect(mock.checkStubs(against: document).map(\.rule) == ["media type"])
    }

    @Test func stubsOutsideTheDocumentAndItsOwnStubsAreLeftOut() throws {
        let document = try OpenAPIDocument(contentsOf: DocumentFixtures.pets)
        try mock.loadOpenAPIDocument(document)
        try mock.stub(.method(.get), .url("https://elsewhere.example.com/v2/pets/1"), responses: [.plaintext("x")])
        try mock.stub(.method(.get), .url("\(base)/unlisted"), responses: [.plaintext("x")])
        #expect(mock.checkStubs(against: document) == [])
    }

    @Test func stubsLoadedFromWireMockFilesAreChecked() throws {
        let folder = try DocumentFixtures.write([("mappings/pet.json", """
            {"request": {"method": "GET", "url": "/v2/pets/1"},
             "response": {"status": 200, "jsonBody": {"id": 1, "name": "Felix", "kind": "lion", "born": "2019-01-01T00:00:00Z"},
                          "headers": {"Content-Type": "application/json"}}}
            """)]).deletingLastPathComponent().deletingLastPathComponent()
        try mock.loadWireMockMappings(from: folder)
        let violations = mock.checkStubs(against: try OpenAPIDocument(contentsOf: DocumentFixtures.pets))
        #expect(violations.map { "\($0.pointer) \($0.rule)" } == ["/kind enum"])
        #expect(violations.first?.stub?.contains("/v2/pets/1") == true)
    }

    @Test func servedResponsesAreCheckedFromTheJournal() async throws {
        let document = try OpenAPIDocument(contentsOf: DocumentFixtures.pets)
        try mock.stub(.method(.get), .uriTemplate("\(base)/pets/{id}"), responses: [
            .dynamic(lifetime: .eternal) { _, captures in .dictionary(["id": Int(captures["id"]!)!, "name": "Dyn", "kind": "dog"]) },
        ])
        #expect(mock.checkStubs(against: document) == [])  // made when served: not known before
        _ = try await mock.send("GET", "\(base)/pets/3")
        let violations = mock.checkServedResponses(against: document)
        #expect(violations.map { "\($0.place) \($0.rule)" } == ["200 response body required"])
        #expect(violations.first?.message.contains("born") == true)
        #expect(violations.first?.stub?.contains("request #") == true)
    }

    @Test func aRequestCanBeCheckedWithoutAMock() throws {
        let document = try OpenAPIDocument(contentsOf: DocumentFixtures.pets)
        let get = CapturedRequest(method: "GET", url: URL(string: "\(base)/pets?limit=0")!)
        #expect(document.violations(of: get).map { "\($0.place) \($0.rule)" } == ["query parameter limit minimum"])
        let put = CapturedRequest(method: "PUT", url: URL(string: "\(base)/pets")!)
        #expect(document.violations(of: put).map(\.rule) == ["method"])
        let none = CapturedRequest(method: "GET", url: URL(string: "\(base)/dogs")!)
        #expect(document.violations(of: none).map(\.rule) == ["path"])
    }
}
