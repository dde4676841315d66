import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// RFC 6570 templates as matchers, with captured values handed to dynamic responses.
@Suite struct URITemplateTests {
    /// Answers with the captured values, sorted, as `name=value` lines.
    static let showCaptures = MockResponse.dynamic(lifetime: .eternal) { _, captures in
        .plaintext(captures.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n"))
    }

    @Test func fullURLTemplateCapturesASegment() async throws {
        let mock = HTTPMock()
        try mock.stub(.uriTemplate("https://github.com/kylef/{repository}"), responses: [Self.showCaptures])
        #expect(try await mock.urlSession.fetch("https://github.com/kylef/URITemplate.swift").text == "repository=URITemplate.swift")
        #expect(try await mock.urlSession.fetch("https://GitHub.com/kylef/WebLinking/").text == "repository=WebLinking")
        #expect(try await mock.urlSession.fetch("https://github.com/kylef/a/b").status == 404)
        #expect(try await mock.urlSession.fetch("https://github.com/other/a").status == 404)
        #expect(try await mock.urlSession.fetch("http://github.com/kylef/a").status == 404)
    }

    @Test func pathTemplateMatchesAnyHost() async throws {
        let mock = HTTPMock()
        try mock.stub(.uriTemplate("/kylef/{repository}"), responses: [Self.showCaptures])
        #expect(try await mock.urlSession.fetch("https://github.com/kylef/x").text == "repository=x")
        #expect(try await mock.urlSession.fetch("http://localhost:8080/kylef/y?tab=1").text == "repository=y")
    }

    @Test func literalTemplateIsAnExactURL() async throws {
        let mock = HTTPMock()
        try mock.stub(.uriTemplate("https://github.com/kylef/WebLinking.swift"), responses: [.plaintext("literal")])
        #expect(try await mock.urlSession.fetch("https://github.com/kylef/WebLinking.swift").text == "literal")
    }

    @Test func capturedValuesArePercentDecoded() async throws {
        let mock = HTTPMock()
        try mock.stub(.uriTemplate("/users/{name}/posts/{post}"), responses: [Self.showCaptures])
        #expect(try await mock.urlSession.fetch("https://x.test/users/J%C3%BCrgen%20K/posts/7").text == "name=Jürgen K\npost=7")
    }

    @Test func reservedExpansionSpansSlashes() async throws {
        let mock = HTTPMock()
        try mock.stub(.uriTemplate("https://cdn.example.com/files/{+path}"), responses: [Self.showCaptures])
        #expect(try await mock.urlSession.fetch("https://cdn.example.com/files/a/b/c.png").text == "path=a/b/c.png")
    }

    @Test func pathSegmentExpansionIsOptional() async throws {
        let mock = HTTPMock()
        try mock.stub(.uriTemplate("/users{/id}"), responses: [Self.showCaptures])
        #expect(try await mock.urlSession.fetch("https://x.test/users/42").text == "id=42")
        #expect(try await mock.urlSession.fetch("https://x.test/users").text == "")
        #expect(try await mock.urlSession.fetch("https://x.test/users/42/more").status == 404)
    }

    @Test func explodedPathSegmentsCaptureEverySegment() async throws {
        let mock = HTTPMock()
        try mock.stub(.uriTemplate("/tree{/parts*}"), responses: [Self.showCaptures])
        #expect(try await mock.urlSession.fetch("https://x.test/tree/a/b/c").text == "parts=a,b,c")
    }

    @Test func queryExpressionCapturesItemsInAnyOrderAndIgnoresOthers() async throws {
        let mock = HTTPMock()
        try mock.stub(.uriTemplate("https://api.example.com/search{?q,page}"), responses: [Self.showCaptures])
        #expect(try await mock.urlSession.fetch("https://api.example.com/search?page=2&q=swift%20testing&x=1").text
                == "page=2\nq=swift testing")
        #expect(try await mock.urlSession.fetch("https://api.example.com/search").text == "")
    }

    @Test func labelAndPrefixForms() async throws {
        let mock = HTTPMock()
        try mock.stub(.uriTemplate("/files/{name}{.ext}"), responses: [Self.showCaptures])
        try mock.stub(.uriTemplate("/code/{sha:7}"), responses: [Self.showCaptures])
        #expect(try await mock.urlSession.fetch("https://x.test/files/report.pdf").text == "ext=pdf\nname=report")
        #expect(try await mock.urlSession.fetch("https://x.test/files/README").text == "name=README")
        #expect(try await mock.urlSession.fetch("https://x.test/code/abcdef1").text == "sha=abcdef1")
        #expect(try await mock.urlSession.fetch("https://x.test/code/abcdef12").status == 404)
    }

    @Test func templateWithLiteralHostIsPreferredToAnyHostRegex() async throws {
        let mock = HTTPMock()
        try mock.stub(.urlRegex("/users/"), responses: [.plaintext("regex", lifetime: .eternal)])
        try mock.stub(.uriTemplate("https://api.example.com/users/{id}"), responses: [.plaintext("template", lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch("https://api.example.com/users/1").text == "template")
        #expect(try await mock.urlSession.fetch("https://other.example.com/users/1").text == "regex")
    }

    @Test func invalidTemplatesAreRefusedNamingThem() {
        let cases: [(template: String, says: String)] = [
            ("/users/{id", "never closed"),
            ("/users/id}", "no \"{\""),
            ("/users/{}", "names no variable"),
            ("/a/{#frag}", "fragment"),
            ("/a/{=x}", "reserves"),
            ("/a/{x:0}", "prefix length"),
            ("/a/{bad-name}", "bad-name"),
            ("/a{?q}/b", "must come last"),
            ("api.example.com/{id}", "start it with \"/\""),
            ("/search?q={q}", "literal \"?\""),
        ]
        for (template, says) in cases {
            let mock = HTTPMock()
            let error = #expect(throws: HTTPMockError.self, "\(template)") {
                try mock.stub(.uriTemplate(template), responses: [.plaintext("x")])
            }
            #expect(error?.code == .invalidPattern)
            #expect(error?.message.contains("\"\(template)\"") == true, "message names \(template): \(error?.message ?? "")")
            #expect(error?.message.contains(says) == true, "message for \(template) says \(says): \(error?.message ?? "")")
        }
    }
}
