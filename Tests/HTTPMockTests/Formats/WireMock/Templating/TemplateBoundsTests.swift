import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
@testable import HTTPMock

/// A template cannot loop for ever or build gigabytes: steps, output, text built and list sizes are bounded, and
/// passing a bound gives a body that says which, and where.
@Suite struct TemplateBoundsTests {
    @Test("a list larger than the bound is refused, through a mapping, as the response body")
    func listsAreBounded() async throws {
        let server = try TemplateServer([
            "/range": "ok\n {{#each (range 1 1000000)}}x{{/each}}",
            "/split": "{{size (split request.body '')}}",
        ])
        try await server.expect("/range", "HTTPMock could not render the WireMock template at mappings/all.json mappings[0] at response.body, line 2, column 11: a list of 1000000 items is more than the 100000 a template may build")
        let long = String(repeating: "a", count: 100_001)
        let split = try await server.text("/split", method: "POST", body: long)
        #expect(split.hasSuffix("line 1, column 9: a list of 100001 items is more than the 100000 a template may build"))
        try await server.expect("/split", method: "POST", body: "abc", "3")
    }

    @Test("nesting deeper than 64 is refused when the template is read")
    func nestingIsBounded() {
        let deep = String(repeating: "(upper ", count: 70) + "'x'" + String(repeating: ")", count: 70)
        #expect(TemplateServer.loadError("{{upper \(deep)}}").contains("subexpressions nest more than 64 deep"))
        let blocks = String(repeating: "{{#if true}}", count: 70) + String(repeating: "{{/if}}", count: 70)
        #expect(TemplateServer.loadError(blocks).contains("blocks nest more than 64 deep"))
        let fine = String(repeating: "{{#if true}}", count: 10) + "ok" + String(repeating: "{{/if}}", count: 10)
        #expect(TemplateServer.loadError(fine) == "")
    }
}
