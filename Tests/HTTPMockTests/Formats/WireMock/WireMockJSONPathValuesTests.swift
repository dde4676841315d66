import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
@testable import HTTPMock

/// What `matchesJsonPath` gives its value pattern of what the path selects, each answer as WireMock 2.35.1 gave it:
/// each element of a list, values as Java writes them, an object as WireMock's Jackson writes it, and for
/// `equalToJson` the selection as JSON.
@Suite struct WireMockJSONPathValuesTests {
    /// A `matchesJsonPath` pattern, a body and whether WireMock matched it.
    struct Case: Sendable, CustomTestStringConvertible {
        let pattern: String
        let body: String
        let matches: Bool
        var testDescription: String { "\(pattern) with \(body)" }
    }

    static let cases: [Case] = [
        // Each element of a list the path selects, definite or not; one that meets the pattern is enough.
        Case(pattern: #"{"expression": "$.tags", "equalTo": "admin"}"#, body: #"{"tags": ["user", "admin"]}"#, matches: true),
        Case(pattern: #"{"expression": "$.tags", "matches": "adm.*"}"#, body: #"{"tags": ["user", "admin"]}"#, matches: true),
        Case(pattern: #"{"expression": "$.tags[*]", "equalTo": "admin"}"#, body: #"{"tags": ["user", "admin"]}"#, matches: true),
        Case(pattern: #"{"expression": "$.tags", "doesNotContain": "user"}"#, body: #"{"tags": ["user", "admin"]}"#, matches: true),
        Case(pattern: #"{"expression": "$.tags", "doesNotContain": "user"}"#, body: #"{"tags": ["user"]}"#, matches: false),
        Case(pattern: #"{"expression": "$.e", "absent": true}"#, body: #"{"e": []}"#, matches: true),
        Case(pattern: #"{"expression": "$.e[*]", "absent": true}"#, body: #"{"e": []}"#, matches: true),
        Case(pattern: #"{"expression": "$.e[*]", "absent": true}"#, body: #"{"e": [1]}"#, matches: false),
        Case(pattern: #"{"expression": "$.e[*]", "doesNotMatch": "x"}"#, body: #"{"e": []}"#, matches: false),
        Case(pattern: #"{"expression": "$.n", "absent": true}"#, body: #"{"n": null}"#, matches: true),
        Case(pattern: #"{"expression": "$.n", "doesNotMatch": "x"}"#, body: #"{"n": null}"#, matches: false),
        // Numbers as Java writes them.
        Case(pattern: #"{"expression": "$.n", "equalTo": "10.0"}"#, body: #"{"n": 10.0}"#, matches: true),
        Case(pattern: #"{"expression": "$.n", "equalTo": "100.0"}"#, body: #"{"n": 1e2}"#, matches: true),
        Case(pattern: #"{"expression": "$.n", "equalTo": "1.0E-5"}"#, body: #"{"n": 0.00001}"#, matches: true),
        Case(pattern: #"{"expression": "$.n", "equalTo": "1.0E10"}"#, body: #"{"n": 1e10}"#, matches: true),
        Case(pattern: #"{"expression": "$.n", "equalTo": "12345678901234567890123"}"#, body: #"{"n": 12345678901234567890123}"#, matches: true),
        Case(pattern: #"{"expression": "$.n", "equalTo": "0.1234567890123456789"}"#, body: #"{"n": 0.1234567890123456789}"#, matches: true),
        Case(pattern: #"{"expression": "$.n", "equalTo": "true"}"#, body: #"{"n": true}"#, matches: true),
        // An object alone as WireMock's Jackson writes it; in a list as Java writes a map; a list in a list as json-smart.
        Case(pattern: #"{"expression": "$.o", "equalTo": "{\n  \"b\" : 1,\n  \"a\" : [ 2, 3 ]\n}"}"#, body: #"{"o": {"b": 1, "a": [2, 3], "z": null}}"#, matches: true),
        Case(pattern: #"{"expression": "$.o", "equalTo": "{\n  \"k\" : 1.0E-5\n}"}"#, body: #"{"o": {"k": 0.00001}}"#, matches: true),
        Case(pattern: #"{"expression": "$.a", "equalTo": "{k=v, n=null, l=[1,\"x\\/y\"], o={p=1.0}}"}"#, body: #"{"a": [{"k": "v", "n": null, "l": [1, "x/y"], "o": {"p": 1.0}}]}"#, matches: true),
        Case(pattern: #"{"expression": "$.a", "equalTo": "[1.0E-5,\"a\\/b\"]"}"#, body: #"{"a": [[0.00001, "a/b"]]}"#, matches: true),
        // equalToJson: the selection as JSON, a string quoted, null as null, a list whole.
        Case(pattern: #"{"expression": "$.s", "equalToJson": "5"}"#, body: #"{"s": "5"}"#, matches: false),
        Case(pattern: #"{"expression": "$.s", "equalToJson": "\"5\""}"#, body: #"{"s": "5"}"#, matches: true),
        Case(pattern: #"{"expression": "$.s", "equalToJson": "\"5\""}"#, body: #"{"s": 5}"#, matches: false),
        Case(pattern: #"{"expression": "$.s", "equalToJson": "null"}"#, body: #"{"s": null}"#, matches: true),
        Case(pattern: #"{"expression": "$.missing", "equalToJson": "null"}"#, body: #"{"s": 1}"#, matches: true),
        Case(pattern: #"{"expression": "$.a[*]", "equalToJson": "[1, 2]"}"#, body: #"{"a": [1, 2]}"#, matches: true),
        Case(pattern: #"{"expression": "$.a[*]", "equalToJson": "1"}"#, body: #"{"a": [1, 2]}"#, matches: false),
        Case(pattern: #"{"expression": "$.*", "equalToJson": "[2, 1]"}"#, body: #"{"b": 2, "a": 1}"#, matches: true),
    ]

    @Test("a value pattern of matchesJsonPath gets what the path selects as WireMock 2.35.1 gives it", arguments: cases)
    func selectedValues(_ example: Case) async throws {
        let mock = try WireMockMorePatternsTests.mock([
            #"{"request": {"method": "POST", "url": "/jp", "bodyPatterns": [{"matchesJsonPath": "# + example.pattern + "}]}, \"response\": {\"status\": 200}}",
        ])
        let status = try await mock.urlSession.fetch("http://localhost/jp", method: "POST", body: Data(example.body.utf8)).status
        #expect(status == (example.matches ? 200 : 404))
    }
}
