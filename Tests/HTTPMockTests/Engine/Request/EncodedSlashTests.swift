import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

/// A percent-encoded slash (`%2F`) belongs to its path segment: for globs, templates and URL equality.
@Suite struct EncodedSlashTests {
    @Test func encodedSlashStaysInsideItsSegment() throws {
        let request = CapturedRequest(url: try #require(URL(string: "https://e.test/files/a%2Fb/raw")))
        #expect(request.pathSegments == ["files", "a/b", "raw"])
        // The path keeps the slash encoded, so it reads back as the same three segments.
        #expect(request.path == "/files/a%2Fb/raw")
        #expect(CapturedRequest(url: try #require(URL(string: "https://e.test/caf%C3%A9/x"))).pathSegments == ["café", "x"])
    }

    @Test func globMatchesAnEncodedSlashAsOneSegment() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/files/*", host: "e.test", responses: [.plaintext("one segment")])
        mock.addResponses(forPath: "/files/*/*", host: "e.test", responses: [.plaintext("two segments")])
        #expect(try await mock.urlSession.fetch("https://e.test/files/a%2Fb").text == "one segment")
    }

    @Test func templateVariableReceivesTheSlashDecoded() async throws {
        let mock = HTTPMock()
        try mock.stub(.uriTemplate("/files/{name}"), responses: [
            .dynamic { _, captures in .plaintext(captures["name"] ?? "none") },
        ])
        #expect(try await mock.urlSession.fetch("https://e.test/files/a%2Fb").text == "a/b")
    }

    @Test func urlEqualityKeepsTheEncodedSlash() async throws {
        let mock = HTTPMock()
        try mock.stub(.url("https://e.test/files/a%2Fb"), responses: [.plaintext("encoded", lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch("https://e.test/files/a%2Fb").text == "encoded")
        #expect(try await mock.urlSession.fetch("https://e.test/files/a/b").status == 404)
    }
}
