import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

/// The capture's fast paths (plain URLs read from their bytes, case changes skipped when nothing changes) read
/// requests exactly as `URLComponents` does.
@Suite struct CaptureFastPathTests {
    @Test func aByteSetHoldsExactlyItsMembers() {
        let members = "AZaz09-._~/"
        let set = PlainURL.ByteSet(members)
        for byte in UInt8.min...UInt8.max {
            #expect(set.contains(byte) == members.utf8.contains(byte), "byte \(byte)")
        }
        #expect(!PlainURL.plainPathBytes.contains(UInt8(ascii: "%")))
        #expect(!PlainURL.plainPathBytes.contains(UInt8(ascii: ";")))
        #expect(PlainURL.hostBytes.contains(UInt8(ascii: "_")))
        #expect(!PlainURL.schemeBytes.contains(UInt8(ascii: "_")))
    }

    @Test(arguments: [
        "https://API.Example.COM:8443/a/b?x=1&y&z=%20+q#frag", "https://bücher.example/x", "https://xn--bcher-kva.example/x",
        "https://XN--BCHER-KVA.example/x", "http://[::1]:8080/v1", "http://127.0.0.1/x", "https://a%41b.example/x",
        "https://under_score.example/x", "http://localhost/", "http://localhost", "http://localhost?q=1",
        "mock://thing/x", "file:///tmp/x", "https://user:pw@host.example/x", "https://host.example:/x",
        "https://host.example:99999/x", "https://host.example/a;p=1/b", "https://host.example/caf%C3%A9/%2F/x",
        "https://host.example//a//b/", "https://host.example/a/../b/./c", "https://host.example/~user/a-b_c.d!$&'()*+,=:@",
        "https://host.example/a?b=%26&c=d#e?f", "HTTPS://HOST.EXAMPLE/A", "a+b-c.d://h/x", "https://h/x?",
        "HtTpS://h/x", "hTTp://h/x", "httpx://h/x", "http2://h/x", "http://h:08080/x", "http://h:123456/x",
        "ftp://h:65535/x", "https://h:65536/x", "https://h:0/x", "https://h/x?q=%C3%A9&r=é",
    ])
    func capturedPartsMatchURLComponents(_ text: String) throws {
        let url = try #require(URL(string: text))
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        let captured = CapturedRequest(method: "get", url: url)
        #expect(captured.host == (components?.host ?? "").lowercased())
        #expect(captured.port == components?.port)
        #expect(captured.scheme == (components?.scheme ?? "").lowercased())
        #expect(captured.pathSegments == PathNormalization.segments(ofEncodedPath: components?.percentEncodedPath ?? url.path))
        #expect(captured.queryItems == QueryItem.parse(rawQuery: components?.percentEncodedQuery))
        // A method is case-sensitive (RFC 9110, 9.1): kept as sent.
        #expect(captured.method == "get")
        #expect(CapturedRequest(method: "pOsT", url: url).method == "pOsT")
    }

    @Test func relativeURLsResolveAgainstTheirBase() throws {
        let base = try #require(URL(string: "https://api.example.com/v1/"))
        let url = try #require(URL(string: "items/3?x=1", relativeTo: base))
        let captured = CapturedRequest(url: url)
        #expect(captured.host == "api.example.com")
        #expect(captured.pathSegments == ["v1", "items", "3"])
        #expect(captured.queryItems == [QueryItem(name: "x", value: "1")])
    }

    @Test func punycodeMarkerIsFoundInAnyCase() throws {
        for host in ["a.xn--bcher-kva.example", "XN--ABC", "xxn--a", "Xn--a.example"] {
            #expect(PlainURL(try #require(URL(string: "https://\(host)/x"))) == nil, "\(host) is read by URLComponents")
        }
        for host in ["xn-a.example", "api.example.com", "xn.example"] {
            #expect(PlainURL(try #require(URL(string: "https://\(host)/x")))?.host == host)
        }
    }
}
