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
@Suite("WireMock url equality is exact, as WireMock's")
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
          {"request": {"method": "GET", "url": "/"}, "response": {"status": 200, "body": "root"}}
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
}
