import Foundation
import Testing
@testable import HTTPMock

/// Templates and URLs are indexed by their literal host and path; regular expressions sit under "any".
@Suite struct MatcherIndexTests {
    func compiled(_ matches: Match...) throws -> CompiledMatchers { try CompiledMatchers(matches) }

    @Test func templateHintsAreItsLiteralPrefix() throws {
        let full = try compiled(.uriTemplate("https://API.example.com/users/{id}/posts{?page}"))
        #expect(full.host?.source == "api.example.com")
        #expect(full.path?.normalized == "/users/*/posts")
        #expect(try compiled(.uriTemplate("/files/{+path}")).path?.normalized == "/files/**")
        #expect(try compiled(.uriTemplate("/a/v{n}/b")).path?.normalized == "/a/**")
        #expect(try compiled(.uriTemplate("https://{tenant}.example.com/x")).host == nil)
        let url = try compiled(.url("https://example.com/a/b?x=1"))
        #expect(url.host?.source == "example.com")
        #expect(url.path?.normalized == "/a/b")
        let regex = try compiled(.urlRegex("x"))
        #expect(regex.host == nil && regex.path == nil)
    }

    @Test func aHostMatcherKeepsTheIndexAndTheTemplateBecomesTheTest() throws {
        let both = try compiled(.uriTemplate("https://a.test/{x}"), .host("*.test"))
        #expect(both.host?.source == "*.test")
        #expect(both.conditions.count == 1)
        let twoHosts = try compiled(.host("a.test"), .host("*.test"))
        #expect(twoHosts.host?.source == "a.test")
        #expect(twoHosts.conditions.map(\.summary) == ["host *.test"])
    }

    @Test func thousandsOfTemplateStubsStillFindOneCandidate() throws {
        let engine = Engine()
        var definitions: [Engine.Definition] = []
        for index in 0..<2_000 {
            let compiled = try CompiledMatchers([.uriTemplate("https://host\(index).example.com/users/{id}")])
            definitions.append(Engine.Definition(host: compiled.host, path: compiled.path, conditions: compiled.conditions,
                                                 responses: [.plaintext("\(index)")]))
        }
        try engine.register(definitions)
        let request = CapturedRequest(url: URL(string: "https://host1234.example.com/users/9")!)
        #expect(engine.candidateCount(for: request) == 1)
        if case .respond(let response) = engine.decide(request).decision {
            #expect(response.body == Data("1234".utf8))
        } else {
            Issue.record("no response")
        }
    }
}
