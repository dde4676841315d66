import Foundation
import HTTPMock
import HTTPMockServer
import Testing

/// The head of a WireMock mapping's answer on the wire, read with a raw socket, as WireMock 2.35.1's standalone
/// server sends it: a HEAD answer's `Content-Length`, and a header given several values.
@Suite("WireMock answers' heads on the wire, as WireMock sends them")
struct WireMockWireTests {
    static let mappings = #"""
        {"mappings": [
          {"request": {"method": "ANY", "url": "/declared"}, "response": {"headers": {"Content-Length": "42"}}},
          {"request": {"method": "ANY", "url": "/declared-body"}, "response": {"body": "hello world", "headers": {"content-length": "100"}}},
          {"request": {"method": "ANY", "url": "/not-a-length"}, "response": {"body": "hello world", "headers": {"Content-Length": "ten"}}},
          {"request": {"method": "ANY", "url": "/undeclared"}, "response": {"body": "hello world"}},
          {"request": {"url": "/values"}, "response": {"body": "x", "headers": {
            "X-A": ["1", "2"], "X-B": ["a, b", "c"], "X-One": ["only"], "Set-Cookie": ["a=1", "b=2; Path=/"],
            "Cache-Control": ["no-cache", "no-store"], "Content-Type": ["text/plain", "application/json"]}}},
          {"request": {"url": "/cookie-text"}, "response": {"body": "x", "headers": {"Set-Cookie": "a=1, b=2"}}},
          {"request": {"urlPath": "/templated"}, "response": {"body": "x", "transformers": ["response-template"],
            "headers": {"X-T": ["{{request.path}}", "{{request.query.q}}", "b"]}}}
        ]}
        """#

    /// The head of the reply to `method path` (status line and header lines) and the bytes after it.
    static func reply(_ method: String, _ path: String, from server: HTTPMockServer) async -> (lines: [String], body: String) {
        let request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        let (reply, _) = await RawSocket.exchange(port: server.port, sending: Array(request.utf8))
        let parts = reply.components(separatedBy: "\r\n\r\n")
        return (parts[0].components(separatedBy: "\r\n"), parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    /// The values of the header lines named `name` (any case), in order.
    static func values(_ name: String, in lines: [String]) -> [String] {
        lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == name.lowercased() else { return nil }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
    }

    @Test("HEAD: the stub's own Content-Length, as WireMock sends it; GET: the size of the body sent")
    func headContentLength() async throws {
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: temporaryFolder(["mappings/head.json": Self.mappings]))
        try await HTTPMockServer.withServer(serving: mock) { server in
            let declared = await Self.reply("HEAD", "/declared", from: server)
            #expect(declared.lines.first == "HTTP/1.1 200 OK")
            #expect(Self.values("Content-Length", in: declared.lines) == ["42"])
            #expect(declared.body.isEmpty)
            let withBody = await Self.reply("HEAD", "/declared-body", from: server)
            #expect(Self.values("Content-Length", in: withBody.lines) == ["100"])
            #expect(withBody.body.isEmpty)
            // A value that is no length, or none: the size of the body a GET gets.
            #expect(Self.values("Content-Length", in: await Self.reply("HEAD", "/not-a-length", from: server).lines) == ["11"])
            #expect(Self.values("Content-Length", in: await Self.reply("HEAD", "/undeclared", from: server).lines) == ["11"])
            // A GET is framed by the body it gets, whatever the stub declares.
            let get = await Self.reply("GET", "/declared-body", from: server)
            #expect(Self.values("Content-Length", in: get.lines) == ["11"])
            #expect(get.body == "hello world")
        }
    }

    @Test("a header given several values: a line each, in order; a Set-Cookie text as written; one Content-Type, the last")
    func headerValues() async throws {
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: temporaryFolder(["mappings/values.json": Self.mappings]))
        try await HTTPMockServer.withServer(serving: mock) { server in
            let values = await Self.reply("GET", "/values", from: server).lines
            #expect(values.first == "HTTP/1.1 200 OK")
            #expect(Self.values("X-A", in: values) == ["1", "2"])
            #expect(Self.values("X-B", in: values) == ["a, b", "c"])
            #expect(Self.values("X-One", in: values) == ["only"])
            #expect(Self.values("Set-Cookie", in: values) == ["a=1", "b=2; Path=/"])
            #expect(Self.values("Cache-Control", in: values) == ["no-cache", "no-store"])
            #expect(Self.values("Content-Type", in: values) == ["application/json"])
            let cookie = await Self.reply("GET", "/cookie-text", from: server).lines
            #expect(Self.values("Set-Cookie", in: cookie) == ["a=1, b=2"])
            let templated = await Self.reply("GET", "/templated?q=z", from: server).lines
            #expect(Self.values("X-T", in: templated) == ["/templated", "z", "b"])
        }
    }

    @Test("an HTTPMock stub's Set-Cookie joining several cookies still goes out a line per cookie")
    func joinedCookies() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/login") {
            MockResponse.plaintext("ok", lifetime: .eternal, headers: ["Set-Cookie": "a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT, b=2"])
        }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let lines = await Self.reply("GET", "/login", from: server).lines
            #expect(Self.values("Set-Cookie", in: lines) == ["a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT", "b=2"])
        }
    }
}
