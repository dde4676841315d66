import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

/// WireMock's `contains` and `doesNotContain` outside bodies are a literal search: refused where the regular
/// expression they stand for was refused, never a stub that answers everything or nothing without a word.
@Suite struct WireMockContainsTests {
    static func refusal(_ mapping: String) throws -> String? {
        do {
            _ = try WireMockMorePatternsTests.mock([mapping])
            return nil
        } catch let error as HTTPMockError {
            return error.message
        }
    }

    @Test("an empty text is refused, as in bodies, for contains and doesNotContain", arguments: ["contains", "doesNotContain"])
    func emptyText(_ pattern: String) throws {
        for place in [#""headers": {"X-Token": {"\#(pattern)": ""}}"#, #""queryParameters": {"q": {"\#(pattern)": ""}}"#,
                      #""bodyPatterns": [{"\#(pattern)": ""}]"#] {
            let message = try Self.refusal(#"{"request": {"urlPath": "/x", \#(place)}, "response": {"body": "x"}}"#)
            #expect(message?.contains("empty") == true, "\(place): \(message ?? "loaded")")
        }
    }

    @Test("a header name that cannot be one is refused for contains and doesNotContain, as for equalTo", arguments: ["contains", "doesNotContain", "equalTo"])
    func badHeaderName(_ pattern: String) throws {
        for name in ["X Token", "X:Token", ""] {
            let message = try Self.refusal(#"{"request": {"urlPath": "/x", "headers": {"\#(name)": {"\#(pattern)": "a"}}}, "response": {"body": "x"}}"#)
            #expect(message?.contains("is not a header name") == true, "\(String(reflecting: name)): \(message ?? "loaded")")
        }
    }

    @Test("contains and doesNotContain find their text in a header and a query parameter")
    func finds() async throws {
        let mock = try WireMockMorePatternsTests.mock([
            #"{"request": {"urlPath": "/h", "headers": {"Accept": {"contains": "json"}}}, "response": {"body": "h"}}"#,
            #"{"request": {"urlPath": "/q", "queryParameters": {"q": {"doesNotContain": "é"}}}, "response": {"body": "q"}}"#,
        ])
        let session = mock.urlSession
        var request = URLRequest(url: URL(string: "https://example.com/h")!)
        request.setValue("application/json; charset=utf-8", forHTTPHeaderField: "Accept")
        #expect(String(decoding: try await session.data(for: request).0, as: UTF8.self) == "h")
        request.setValue("text/html", forHTTPHeaderField: "Accept")
        #expect((try await session.data(for: request).1 as? HTTPURLResponse)?.statusCode == 404)
        let plain = URL(string: "https://example.com/q?q=cafe")!, accented = URL(string: "https://example.com/q?q=caf%C3%A9")!
        #expect(String(decoding: try await session.data(from: plain).0, as: UTF8.self) == "q")
        #expect((try await session.data(from: accented).1 as? HTTPURLResponse)?.statusCode == 404)
    }
}
