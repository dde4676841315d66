import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

/// A request built from a URL read once (what HTTPMockServer keeps per connection) is the request the public
/// initializer builds from that URL, whatever the URL.
@Suite struct CapturedRequestPartsTests {
    @Test(arguments: [
        "https://API.Example.COM:8443/a/b?x=1&y&z=%20+q#frag", "https://bücher.example/x", "https://xn--bcher-kva.example/x",
        "http://[::1]:8080/v1", "http://127.0.0.1:8080/items/5", "https://a%41b.example/x", "http://localhost",
        "mock://thing/x", "https://user:pw@host.example/x", "https://host.example/a;p=1/b",
        "https://host.example/caf%C3%A9/%2F/x", "https://host.example//a//b/", "https://host.example/a?b=%26&c=d#e?f",
        "HTTPS://HOST.EXAMPLE/A", "https://h/x?",
    ])
    func sameRequestAsFromTheURL(_ text: String) throws {
        let url = try #require(URL(string: text))
        let headers: HeaderFields = ["Host": "h", "X-Tag": "a"]
        let parts = CapturedRequest.URLParts(url)
        let fromParts = CapturedRequest(method: "pAtCh", parts: parts, headers: headers, body: Data("b".utf8))
        let fromURL = CapturedRequest(method: "pAtCh", url: url, headers: headers, body: Data("b".utf8))
        #expect(fromParts == fromURL)
        #expect(fromParts.method == "pAtCh")
        #expect(fromParts.path == fromURL.path)
        // The parts are read once and can serve any number of requests.
        #expect(CapturedRequest(method: "GET", parts: parts, headers: [:], body: nil) == CapturedRequest(url: url))
    }
}
