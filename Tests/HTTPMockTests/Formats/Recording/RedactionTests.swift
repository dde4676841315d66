import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock
import _HTTPMockJSON

@Suite struct RedactionTests {
    let redaction = Redaction.default

    @Test func headersAreMatchedCaseInsensitively() {
        #expect(redaction.header("authorization", "Bearer x") == "REDACTED")
        #expect(redaction.header("SET-COOKIE", "a=b") == "REDACTED")
        #expect(redaction.header("Accept", "text/plain") == "text/plain")
        #expect(redaction.adding(headers: ["X-Session"]).header("x-session", "s") == "REDACTED")
    }

    @Test func queryValuesAreReplacedAndTheRestKept() {
        let url = URL(string: "https://a.test/p?API_KEY=k1&q=swift+ui&token&Access_Token=t%20x#frag")!
        #expect(redaction.url(url).absoluteString == "https://a.test/p?API_KEY=REDACTED&q=swift+ui&token&Access_Token=REDACTED#frag")
        #expect(Redaction.none.url(url) == url)
    }

    @Test func jsonFieldsAreReplacedAtAnyDepthAndOtherBodiesKeptByteForByte() throws {
        let body = Data(#"{"user":{"name":"ann","Password":"p"},"items":[{"token":"t"},{"n":1}]}"#.utf8)
        let redacted = redaction.body(body, contentType: "application/json; charset=utf-8")
        let json = try #require(JSONValue(data: redacted))
        #expect(json == JSONValue(data: Data(#"{"user":{"name":"ann","Password":"REDACTED"},"items":[{"token":"REDACTED"},{"n":1}]}"#.utf8)))
        let clean = Data(#"{ "name" : "ann" }"#.utf8)
        #expect(redaction.body(clean, contentType: "application/json") == clean)
        let text = Data("password=p&x=1".utf8)
        #expect(redaction.body(text, contentType: "text/plain") == text)
    }

    @Test func formBodiesAreRedactedLikeQueries() {
        let body = Data("user=ann&password=hunter2".utf8)
        #expect(redaction.body(body, contentType: "application/x-www-form-urlencoded") == Data("user=ann&password=REDACTED".utf8))
    }

    @Test func customPlaceholder() {
        let custom = Redaction(headers: ["X-Key"], placeholder: "***")
        #expect(custom.header("x-key", "v") == "***")
        #expect(custom.header("Authorization", "v") == "v")
    }
}
