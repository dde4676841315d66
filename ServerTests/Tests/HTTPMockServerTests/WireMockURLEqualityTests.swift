import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock
import HTTPMockServer
import Testing

/// A WireMock `url` compares the path and query as the request wrote them, character for character, as WireMock
/// 2.35.1's standalone server does (tried side by side): query order, a trailing `/`, `%20` against `+`, the case of a
/// percent escape and an escaped letter all make a different URL.
@Suite("WireMock url equality is exact, and a request reads as WireMock reads it")
struct WireMockURLEqualityTests {
    static let mappings = #"""
        {"mappings": [
          {"request": {"method": "GET", "url": "/q?a=1&b=2"}, "response": {"status": 200, "body": "q"}},
          {"request": {"method": "GET", "url": "/slash"}, "response": {"status": 200, "body": "slash"}},
          {"request": {"method": "GET", "url": "/sp%20ace"}, "response": {"status": 200, "body": "escaped space"}},
          {"request": {"method": "GET", "url": "/enc%2Fx"}, "response": {"status": 200, "body": "escaped slash"}},
          {"request": {"method": "GET", "url": "/plus?x=a+b"}, "response": {"status": 200, "body": "plus"}},
          {"request": {"method": "GET", "url": "/dup?a=1&a=1"}, "response": {"status": 200, "body": "twice"}},
          {"request": {"method": "GET", "url": "/bare"}, "response": {"status": 200, "body": "bare"}},
          {"request": {"method": "GET", "url": "/"}, "response": {"status": 200, "body": "root"}},
          {"request": {"method": "GET", "url": "/raw?f[x]=1"}, "response": {"status": 200, "body": "raw brackets"}},
          {"request": {"method": "GET", "url": "/encoded?f%5Bx%5D=1"}, "response": {"status": 200, "body": "encoded brackets"}},
          {"request": {"method": "GET", "urlPattern": "/pattern\\?f\\[x\\]=.*"}, "response": {"status": 200, "body": "pattern of raw brackets"}},
          {"request": {"method": "GET", "urlPath": "/values", "queryParameters": {"q": {"equalTo": "a b"}}}, "response": {"status": 200, "body": "q is a b"}},
          {"request": {"method": "GET", "urlPathPattern": "/tpl/.*"}, "response": {"status": 200, "body": "{{request.path}}|{{request.url}}", "transformers": ["response-template"]}}
        ]}
        """#

    /// A request target and the body that answers it (`nil`: no mapping answers, 404).
    static let cases: [(target: String, body: String?)] = [
        ("/q?a=1&b=2", "q"), ("/q?b=2&a=1", nil), ("/q?a=%31&b=2", nil), ("/q?a=1&b=2&c=3", nil), ("/q", nil),
        ("/slash", "slash"), ("/slash/", nil),
        ("/sp%20ace", "escaped space"), ("/sp+ace", nil),
        ("/enc%2Fx", "escaped slash"), ("/enc%2fx", nil), ("/enc/x", nil),
        ("/plus?x=a+b", "plus"), ("/plus?x=a%20b", nil), ("/plus?x=a%2Bb", nil),
        ("/dup?a=1&a=1", "twice"), ("/dup?a=1", nil),
        ("/bare", "bare"), ("/bare?", "bare"), ("/bare?x=1", nil), ("/./bare", nil), ("//bare", nil), ("/b%61re", nil),
        ("/", "root"), ("/?", "root"),
        // As the client wrote them: raw brackets are not their escapes.
        ("/raw?f[x]=1", "raw brackets"), ("/raw?f%5Bx%5D=1", nil), ("/encoded?f%5Bx%5D=1", "encoded brackets"), ("/encoded?f[x]=1", nil),
        ("/pattern?f[x]=2", "pattern of raw brackets"), ("/pattern?f%5Bx%5D=2", nil),
        // A character a URL may not hold beside an escape: the escape still decodes once.
        ("/values?q=a%20b&f[x]=1", "q is a b"), ("/values?filter[name]=x&q=a%20b", "q is a b"), ("/values?q=a%20b&p=a|b^c{d}", "q is a b"),
        ("/values?q=a%2520b", nil),
        // request.path reads the path as written too.
        ("/tpl/a[1]?x=[2]", "/tpl/a[1]|/tpl/a[1]?x=[2]"),
    ]

    @Test("each request target is answered by the mapping whose url it equals, or by none")
    func exactURL() async throws {
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: temporaryFolder(["mappings/urls.json": Self.mappings]))
        try await HTTPMockServer.withServer(serving: mock) { server in
            for (target, body) in Self.cases {
                let reply = await RawSocket.exchange(
                    port: server.port, sending: Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)).reply
                if let body {
                    #expect(reply.hasPrefix("HTTP/1.1 200 "), "\(target): \(reply)")
                    #expect(reply.hasSuffix("\r\n\r\n" + body), "\(target): \(reply)")
                } else {
                    #expect(reply.hasPrefix("HTTP/1.1 404 "), "\(target): \(reply)")
                }
            }
        }
    }

    @Test("in process too: URLSession's request for a reordered query is not answered")
    func inProcess() async throws {
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: temporaryFolder(["mappings/urls.json": Self.mappings]))
        let exact = try await mock.urlSession.data(from: URL(string: "https://api.example.com/q?a=1&b=2")!)
        #expect((exact.1 as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: exact.0, as: UTF8.self) == "q")
        let reordered = try await mock.urlSession.data(from: URL(string: "https://api.example.com/q?b=2&a=1")!)
        #expect((reordered.1 as? HTTPURLResponse)?.statusCode == 404)
    }

    @Test("a query value of characters a URL may not hold and of escapes reads back decoded once, whatever their order (HTTPMOCK_URL_SEED replays a run)")
    func generatedQueryValues() async throws {
        let seed = ProcessInfo.processInfo.environment["HTTPMOCK_URL_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        var state = seed
        func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
        // Each piece as sent, and as it reads decoded.
        let pieces: [(sent: String, read: String)] = [
            ("a", "a"), ("Z", "Z"), ("[", "["), ("]", "]"), ("|", "|"), ("^", "^"), ("{", "{"), ("}", "}"), ("`", "`"),
            ("%20", " "), ("%5B", "["), ("%25", "%"), ("%C3%A9", "é"), ("%7C", "|"), ("~", "~"), ("'", "'"),
        ]
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: temporaryFolder(["mappings/echo.json": #"""
            {"request": {"method": "GET", "urlPath": "/echo"}, "response": {"status": 200, "body": "[{{{request.query.v}}}]", "transformers": ["response-template"]}}
            """#]))
        try await HTTPMockServer.withServer(serving: mock) { server in
            for round in 0..<30 {
                let chosen = (0..<next(9)).map { _ in pieces[next(pieces.count)] }
                let sent = chosen.map(\.sent).joined(), read = chosen.map(\.read).joined()
                let target = "/echo?w=x%20y&v=\(sent)&z=[1]"
                let reply = await RawSocket.exchange(
                    port: server.port, sending: Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)).reply
                #expect(reply.hasPrefix("HTTP/1.1 200 ") && reply.hasSuffix("\r\n\r\n[\(read)]"), "HTTPMOCK_URL_SEED=\(seed), round \(round): \(target) gave \(reply)")
            }
        }
    }

    @Test("request.host, request.port and request.baseUrl name what the Host header names, as WireMock's do, this machine included")
    func hostOfTheRequest() async throws {
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: temporaryFolder(["mappings/host.json": #"""
            {"request": {"method": "GET", "urlPath": "/where"}, "response": {"status": 200, "body": "{{request.host}} {{request.port}} {{request.baseUrl}}", "transformers": ["response-template"]}}
            """#]))
        try await HTTPMockServer.withServer(serving: mock) { server in
            for (host, expected) in [("127.0.0.1:\(server.port)", "127.0.0.1 \(server.port) http://127.0.0.1:\(server.port)"),
                                     ("localhost:\(server.port)", "localhost \(server.port) http://localhost:\(server.port)"),
                                     ("LocalHost", "localhost 80 http://localhost"), ("localhost:\(server.port) ", "localhost \(server.port) http://localhost:\(server.port)"),
                                     ("api.example.com:8443", "api.example.com 8443 http://api.example.com:8443")] {
                let reply = await RawSocket.exchange(
                    port: server.port, sending: Array("GET /where HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n".utf8)).reply
                #expect(reply.hasPrefix("HTTP/1.1 200 ") && reply.hasSuffix("\r\n\r\n" + expected), "\(host): \(reply)")
            }
        }
    }

    @Test("a header's value is matched without the spaces and tabs around it, as WireMock's Jetty reads it")
    func headerValuesTrimmed() async throws {
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: temporaryFolder(["mappings/h.json": #"""
            {"request": {"method": "GET", "urlPath": "/h", "headers": {"X-A": {"equalTo": "a b"}}}, "response": {"status": 200, "body": "[{{{request.headers.X-A}}}]", "transformers": ["response-template"]}}
            """#]))
        try await HTTPMockServer.withServer(serving: mock) { server in
            for value in ["a b", "a b ", " a b\t", "\ta b  \t"] {
                let reply = await RawSocket.exchange(
                    port: server.port, sending: Array("GET /h HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A:\(value)\r\nConnection: close\r\n\r\n".utf8)).reply
                #expect(reply.hasPrefix("HTTP/1.1 200 ") && reply.hasSuffix("\r\n\r\n[a b]"), "\(value.debugDescription): \(reply)")
            }
            let reply = await RawSocket.exchange(
                port: server.port, sending: Array("GET /h HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a  b\r\nConnection: close\r\n\r\n".utf8)).reply
            #expect(reply.hasPrefix("HTTP/1.1 404 "), "\(reply)")
        }
    }
}
