import Foundation
import HTTPMock
import HTTPMockServer
import Testing

/// The files of `__files` answer a `GET` no mapping answers, at their own path, as WireMock 2.35.1's standalone server
/// serves them (tried side by side); nothing outside `__files` is ever served.
@Suite("A WireMock folder's __files served at their own path")
struct WireMockStaticFilesTests {
    /// A WireMock folder inside a parent that also holds a secret beside it, with a link from `__files` to it.
    static func folder() throws -> URL {
        let parent = try temporaryFolder([
            "secret.txt": "the-secret-content",
            "site/mappings/stubs.json": #"{"mappings": [{"request": {"method": "GET", "url": "/shadowed.txt"}, "response": {"body": "from the mapping"}}]}"#,
            "site/__files/hello.txt": "hello",
            "site/__files/data.json": #"{"x": 1}"#,
            "site/__files/shadowed.txt": "from the file",
            "site/__files/noext": "plain",
            "site/__files/docs/index.html": "<p>docs</p>",
            "site/__files/docs/a.txt": "a",
            "site/__files/api/index.json": "[]",
            "site/__files/api/index.html": "<p>not this</p>",
            "site/__files/empty/x.txt": "x",
        ])
        try FileManager.default.createSymbolicLink(atPath: parent.appendingPathComponent("site/__files/link.txt").path,
                                                   withDestinationPath: parent.appendingPathComponent("secret.txt").path)
        return parent.appendingPathComponent("site")
    }

    /// The status line, the `Content-Type` and the body of `method path`.
    static func fetch(_ method: String, _ path: String, port: Int) async -> (status: String, contentType: String?, body: String) {
        let reply = await RawSocket.exchange(
            port: port, sending: Array("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)).reply
        let (head, body) = reply.range(of: "\r\n\r\n").map { (String(reply[..<$0.lowerBound]), String(reply[$0.upperBound...])) } ?? (reply, "")
        let lines = head.components(separatedBy: "\r\n")
        let type = lines.first { $0.lowercased().hasPrefix("content-type:") }.map { String($0.dropFirst(13)).trimmingCharacters(in: .whitespaces) }
        return (lines[0], type, body)
    }

    @Test("files at their path with WireMock's Content-Type, folders by index.json then index.html, mappings first")
    func served() async throws {
        let root = try Self.folder()
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: root)
        try await HTTPMockServer.withServer(serving: mock, configuration: .init(wireMockFolder: root)) { server in
            let port = server.port
            let cases: [(String, String, String, String?, String)] = [
                ("GET", "/hello.txt", "200", "text/plain", "hello"),
                ("GET", "/hello.txt?any=query", "200", "text/plain", "hello"),
                ("GET", "/data.json", "200", "application/json", #"{"x": 1}"#),
                ("GET", "/noext", "200", "application/json", "plain"),
                ("GET", "/docs/a.txt", "200", "text/plain", "a"),
                ("GET", "/__files/docs/a.txt", "200", "text/plain", "a"),
                ("GET", "/docs%2Fa.txt", "200", "text/plain", "a"),
                ("GET", "/docs/../hello.txt", "200", "text/plain", "hello"),
                ("GET", "/docs/", "200", "text/html", "<p>docs</p>"),
                ("GET", "/docs", "200", "text/html", "<p>docs</p>"),
                ("GET", "/api/", "200", "application/json", "[]"),
                ("GET", "/shadowed.txt", "200", nil, "from the mapping"),
            ]
            for (method, path, status, type, body) in cases {
                let got = await Self.fetch(method, path, port: port)
                #expect(got.status.hasPrefix("HTTP/1.1 \(status) "), "\(path): \(got)")
                if let type { #expect(got.contentType == type, "\(path): \(got)") }
                #expect(got.body == body, "\(path): \(got)")
            }
            // A folder with no index: 403, as WireMock answers.
            #expect(await Self.fetch("GET", "/empty/", port: port).status.hasPrefix("HTTP/1.1 403 "))
            // Not found: another method, another case, a file named as a folder, nothing there.
            for (method, path) in [("POST", "/hello.txt"), ("HEAD", "/hello.txt"), ("GET", "/HELLO.TXT"), ("GET", "/hello.txt/"),
                                   ("GET", "/missing.txt")] {
                #expect(await Self.fetch(method, path, port: port).status.hasPrefix("HTTP/1.1 404 "), "\(method) \(path)")
            }
        }
    }

    @Test("nothing outside __files: neither .. above it, escaped or not, nor a link leading out of it")
    func neverEscapes() async throws {
        let root = try Self.folder()
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: root)
        try await HTTPMockServer.withServer(serving: mock, configuration: .init(wireMockFolder: root)) { server in
            for path in ["/../secret.txt", "/%2e%2e/secret.txt", "/__files/../secret.txt", "/__files/../../secret.txt", "/docs/../../secret.txt", "/..%2Fsecret.txt", "/link.txt",
                         "/../../../../etc/passwd", "/..", "/%2e%2e"] {
                let got = await Self.fetch("GET", path, port: server.port)
                #expect(!got.status.hasPrefix("HTTP/1.1 200 "), "\(path): \(got)")
                #expect(!got.body.contains("the-secret-content") && !got.body.contains("root:x:"), "\(path): \(got)")
            }
        }
    }

    @Test("without a WireMock folder served, no file answers")
    func onlyForAWireMockFolder() async throws {
        let root = try Self.folder()
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: root)
        try await HTTPMockServer.withServer(serving: mock) { server in
            #expect(await Self.fetch("GET", "/hello.txt", port: server.port).status.hasPrefix("HTTP/1.1 404 "))
        }
    }
}
