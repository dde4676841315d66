import Foundation
import HTTPMockOpenAPI
import HTTPMockTesting
import Testing

/// A mock made from an OpenAPI document, through the mock's URLSession: examples, Prefer, generated bodies, stubs
/// in code winning, and Prism's refusals of requests that break the document.
@Suite struct DocumentMockTests {
    let mock = HTTPMock()
    let base = "https://pets.example.com/v2"

    @Test func loadListsTheOperationsServed() throws {
        let loaded = try mock.loadOpenAPIDocument(from: DocumentFixtures.pets)
        #expect(loaded.operations.count == 5)
        #expect(loaded.mocks.stubCount == 5 + 3 + 1)  // each operation, each path's other methods, other paths
        loaded.remove()
        #expect(mock.stubUsage.isEmpty)
    }

    @Test func theMediaTypeExampleIsServed() async throws {
        try mock.loadOpenAPIDocument(from: DocumentFixtures.pets)
        let answer = try await mock.send("POST", "\(base)/pets", headers: ["Content-Type": "application/json", "X-Request-ID": UUID().uuidString],
                                         body: #"{"name": "Tom", "kind": "cat"}"#)
        #expect(answer.status == 201)
        #expect(answer.headers["Content-Type"] == "application/json")
        let body = try #require(json(answer.body) as? [String: Any])
        #expect(body["name"] as? String == "Tom")
        #expect(body["id"] as? Int == 10)
    }

    @Test func theFirstNamedExampleIsTheDefaultAndPreferPicksAnother() async throws {
        try mock.loadOpenAPIDocument(from: DocumentFixtures.pets)
        let first = try await mock.send("GET", "\(base)/pets/1")
        #expect((json(first.body) as? [String: Any])?["name"] as? String == "Felix")
        let dog = try await mock.send("GET", "\(base)/pets/1", headers: ["Prefer": "example=dog"])
        #expect((json(dog.body) as? [String: Any])?["name"] as? String == "Rex")
        let byQuery = try await mock.send("GET", "\(base)/pets/1?__example=dog")
        #expect((json(byQuery.body) as? [String: Any])?["name"] as? String == "Rex")
    }

    @Test func preferCodePicksAnotherResponse() async throws {
        try mock.loadOpenAPIDocument(from: DocumentFixtures.pets)
        let answer = try await mock.send("GET", "\(base)/pets/3", headers: ["Prefer": "code=404"])
        #expect(answer.status == 404)
        #expect(answer.headers["Content-Type"] == "application/problem+json")
        // No example: generated from the schema in shared/errors.yaml, within its bounds.
        let problem = try #require(json(answer.body) as? [String: Any])
        let status = try #require(problem["status"] as? Int)
        #expect((100...599).contains(status))
        #expect(problem["title"] is String)
        #expect(mock.journal.last?.responseHeaders?["X-HTTPMock"] == nil)
    }

    @Test func aPreferredCodeOrExampleTheDocumentLacksIsAClearRefusal() async throws {
        try mock.loadOpenAPIDocument(from: DocumentFixtures.pets)
        let code = try await mock.send("GET", "\(base)/pets/3", headers: ["Prefer": "code=418"])
        #expect(code.status == 404)
        #expect(code.body.contains("does not list; it lists 200, 404"))
        let example = try await mock.send("GET", "\(base)/pets/3", headers: ["Prefer": "example=hamster"])
        #expect(example.body.contains("it has cat, dog"))
    }

    @Test func aResponseWithoutContentHasNoBody() async throws {
        try mock.loadOpenAPIDocument(from: DocumentFixtures.pets)
        let answer = try await mock.send("DELETE", "\(base)/pets/3")
        #expect(answer.status == 204)
        #expect(answer.body.isEmpty)
    }

    @Test func aBodyWithoutExampleIsMadeFromTheSchemaAndKeepsIt() async throws {
        let loaded = try mock.loadOpenAPIDocument(from: DocumentFixtures.pets)
        let url = "\(base)/owners/\(UUID().uuidString)/profile"
        let answer = try await mock.send("GET", url)
        #expect(answer.status == 200)
        let owner = try #require(json(answer.body) as? [String: Any])
        #expect(UUID(uuidString: owner["id"] as? String ?? "") != nil)
        #expect((owner["email"] as? String)?.contains("@") == true)
        #expect((owner["since"] as? String)?.count == 10)
        #expect(owner["level"] as? Int == 3)
        #expect(owner["status"] as? String == "active")
        #expect((owner["nickname"] as? String).map { $0.count >= 12 } == true)
        #expect((owner["pets"] as? [Any])?.count == 2)
        #expect(((owner["pets"] as? [[String: Any]])?.first?["kind"] as? String) == "cat")
        #expect((owner["contact"] as? [String: Any])?["phone"] is String)
        // Valid against the document, by the document's own check.
        let request = CapturedRequest(method: "GET", url: URL(string: url)!)
        #expect(loaded.document.violations(ofResponse: 200, headers: answer.headers, body: Data(answer.body.utf8), to: request) == [])
    }

    @Test func generatedBodiesAreTheSameForTheSameVariantAndDifferForAnother() async throws {
        let url = "\(base)/owners/\(UUID().uuidString)/profile"
        try mock.loadOpenAPIDocument(from: DocumentFixtures.pets)
        let first = try await mock.send("GET", url).body
        let again = HTTPMock()
        try again.loadOpenAPIDocument(from: DocumentFixtures.pets)
        #expect(try await again.send("GET", url).body == first)
        let other = HTTPMock()
        try other.loadOpenAPIDocument(from: DocumentFixtures.pets, options: OpenAPIMockOptions(variant: 1))
        #expect(try await other.send("GET", url).body != first)
    }

    @Test func aStubRegisteredInCodeWinsOverTheDocument() async throws {
        try mock.stub(.method(.get), .uriTemplate("\(base)/pets/{id}"), responses: [.dictionary(["id": 99, "name": "Mine", "kind": "fish", "born": "2020-01-01T00:00:00Z"])])
        try mock.loadOpenAPIDocument(from: DocumentFixtures.pets)
        #expect((json(try await mock.send("GET", "\(base)/pets/5").body) as? [String: Any])?["name"] as? String == "Mine")
        // Registered after the document too.
        try mock.stub(.method(.delete), .path("/v2/pets/5"), responses: [.empty(status: .other(202))])
        #expect(try await mock.send("DELETE", "\(base)/pets/5").status == 202)
        // The stub's queue is used up: the document answers again.
        #expect((json(try await mock.send("GET", "\(base)/pets/5").body) as? [String: Any])?["name"] as? String == "Felix")
    }

    @Test func anUnknownPathIs404AndAnUnknownMethod405() async throws {
        try mock.loadOpenAPIDocument(from: DocumentFixtures.pets)
        let path = try await mock.send("GET", "\(base)/cats")
        #expect(path.status == 404)
        #expect(path.headers["Content-Type"] == "application/problem+json")
        let method = try await mock.send("PATCH", "\(base)/pets/3")
        #expect(method.status == 405)
        #expect(method.headers["Allow"] == "GET, DELETE")
        #expect((json(method.body) as? [String: Any])?["status"] as? Int == 405)
        // Another host is not the document's: the mock's own unmatched answer.
        let elsewhere = try await mock.send("GET", "https://other.example.com/v2/cats")
        #expect(elsewhere.status == 404)
        #expect(elsewhere.headers["X-HTTPMock"] == "unmatched")
    }

    @Test func aRequestBreakingTheParametersIs422NamingEveryViolation() async throws {
        try mock.loadOpenAPIDocument(from: DocumentFixtures.pets)
        let missing = try await mock.send("GET", "\(base)/pets")
        #expect(missing.status == 422)
        let problem = try #require(json(missing.body) as? [String: Any])
        let violations = try #require(problem["violations"] as? [[String: String]])
        #expect(violations.map { $0["place"]! } == ["query parameter limit"])
        #expect(violations.first?["rule"] == "required")

        let wrong = try await mock.send("GET", "\(base)/pets?limit=many&tags=a,b")
        let typed = try #require((json(wrong.body) as? [String: Any])?["violations"] as? [[String: String]])
        #expect(typed.map { "\($0["place"]!) \($0["rule"]!)" } == ["query parameter limit type"])
        #expect(try await mock.send("GET", "\(base)/pets?limit=80").body.contains("maximum"))
        #expect(try await mock.send("GET", "\(base)/pets?limit=5&tags=a,b").status == 200)
        #expect(try await mock.send("GET", "\(base)/pets/three").body.contains("path parameter pet-id"))
    }

    @Test func aBodyBreakingItsSchemaIs422WithEachPlaceAndRule() async throws {
        try mock.loadOpenAPIDocument(from: DocumentFixtures.pets)
        let answer = try await mock.send("POST", "\(base)/pets", headers: ["Content-Type": "application/json", "X-Request-ID": "not-a-uuid"],
                                         body: #"{"name": "", "kind": "horse"}"#)
        #expect(answer.status == 422)
        let violations = try #require((json(answer.body) as? [String: Any])?["violations"] as? [[String: String]])
        let lines = Set(violations.map { "\($0["place"]!) \($0["pointer"]!) \($0["rule"]!)" })
        #expect(lines == ["header parameter X-Request-ID  format", "request body /name minLength", "request body /kind enum"])
        let noBody = try await mock.send("POST", "\(base)/pets", headers: ["X-Request-ID": UUID().uuidString])
        #expect(noBody.body.contains("the request body is required"))
        let text = try await mock.send("POST", "\(base)/pets", headers: ["Content-Type": "text/plain", "X-Request-ID": UUID().uuidString], body: "Tom")
        #expect(text.body.contains("\"media type\""))
    }

    @Test func validationCanBeTurnedOff() async throws {
        try mock.loadOpenAPIDocument(from: DocumentFixtures.pets, options: OpenAPIMockOptions(validatesRequests: false))
        #expect(try await mock.send("GET", "\(base)/pets").status == 200)
    }

    @Test func anotherServerURLMovesEveryOperation() async throws {
        try mock.loadOpenAPIDocument(from: DocumentFixtures.pets, options: OpenAPIMockOptions(serverURL: URL(string: "http://127.0.0.1:8080/api")!))
        #expect(try await mock.send("DELETE", "http://127.0.0.1:8080/api/pets/1").status == 204)
        #expect(try await mock.send("DELETE", "\(base)/pets/1").headers["X-HTTPMock"] == "unmatched")
    }

    @Test func aThreeOneDocumentWithoutServersAnswersOnAnyHost() async throws {
        try mock.loadOpenAPIDocument(from: DocumentFixtures.store)
        let answer = try await mock.send("GET", "https://shop.example.com/orders/4")
        let order = try #require(json(answer.body) as? [String: Any])
        #expect(order["state"] as? String == "open")
        #expect((order["id"] as? Int).map { $0 > 0 } == true)
        #expect((order["line"] as? [Any])?.count == 2)
        // 2020-12's prefixItems, and items: false after them.
        let body = #"{"id": 1, "line": ["x", 0, "extra"], "note": null, "state": "open"}"#
        let refused = try await mock.send("PUT", "https://shop.example.com/orders/1", headers: ["Content-Type": "application/json"], body: body)
        let rules = ((json(refused.body) as? [String: Any])?["violations"] as? [[String: String]])?.map { "\($0["pointer"]!) \($0["rule"]!)" }
        #expect(Set(rules ?? []) == ["/line/1 minimum", "/line/2 items"])
        let fine = #"{"id": 1, "line": ["x", 2], "note": null, "state": "open"}"#
        #expect(try await mock.send("PUT", "https://shop.example.com/orders/1", headers: ["Content-Type": "application/json"], body: fine).status == 200)
    }

    @Test func theJournalHoldsTheRefusalForAssertions() async throws {
        try mock.loadOpenAPIDocument(from: DocumentFixtures.pets)
        _ = try await mock.send("GET", "\(base)/pets")
        let entry = try #require(mock.journal.last)
        #expect(entry.statusCode == 422)
        #expect(entry.responseHeaders?["X-HTTPMock"] == "contract-violation")
        #expect(entry.resolution.description.contains("from pets.yaml"))
    }
}

/// HTTPMockTesting reports a request the document refused, at the end of the test, as it reports an unanswered one.
@Test func aRequestBreakingTheDocumentFailsTheTest() async throws {
    let trait = HTTPMockTrait.httpMock { mock in
        try mock.loadOpenAPIDocument(from: DocumentFixtures.pets)
    }
    let texts = Box<[String]>([])
    let test = try #require(Test.current)
    await withKnownIssue("expected: the request below breaks the document") {
        try? await trait.provideScope(for: test, testCase: nil) {
            let mock = try #require(HTTPMock.current)
            #expect(try await mock.send("GET", "https://pets.example.com/v2/pets?limit=0").status == 422)
        }
    } matching: { issue in
        texts.withLock { $0.append(issue.comments.map(\.rawValue).joined(separator: "\n")) }
        return true
    }
    let report = texts.current.joined(separator: "\n")
    #expect(report.contains("breaks the API's contract"))
    #expect(report.contains("query parameter limit"))
    #expect(report.contains("minimum"))
}
