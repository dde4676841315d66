import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock
import HTTPMockServer
import Testing

/// One table of requests, sent through URLSession interception (`mock.urlSession`) and through the server (a plain
/// URLSession over loopback, and curl in a child process): the status, the headers the stubs set and the body must
/// be the same.
@Suite("Interception and the server answer alike")
struct ParityTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var method = "GET"
        var path: String
        var headers: [String: String] = [:]
        var body: String?
        /// Response headers to compare.
        var compared: [String] = ["Content-Type"]
        var comparesBody = true

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "plain text", path: "/text"),
        Case(name: "JSON", path: "/json"),
        Case(name: "empty 204", path: "/empty"),
        Case(name: "custom status and headers", path: "/created", compared: ["Content-Type", "X-Request-Id", "Location"]),
        Case(name: "query match", path: "/search?q=swift"),
        Case(name: "header condition", path: "/secure", headers: ["Authorization": "Bearer token"]),
        Case(name: "POST echo", method: "POST", path: "/echo", headers: ["Content-Type": "text/plain"], body: "ping",
             compared: ["Content-Type"]),
        Case(name: "dynamic from a URI template", path: "/users/42"),
        Case(name: "followed redirect", path: "/old"),
        Case(name: "file", path: "/file"),
        Case(name: "unmatched", path: "/missing", compared: ["X-HTTPMock"], comparesBody: false),
    ]

    struct User: Codable, Sendable {
        var id: Int
        var name: String
    }

    static func makeMock(file: URL) throws -> HTTPMock {
        let mock = HTTPMock()
        let host = "api.example.com"
        mock.addResponses(forPath: "/text", host: host) { MockResponse.plaintext("hello") }
        mock.addResponses(forPath: "/json", host: host) { MockResponse.encodable(User(id: 1, name: "Alice")) }
        mock.addResponses(forPath: "/empty", host: host) { MockResponse.empty(status: .other(204)) }
        mock.addResponses(forPath: "/created", host: host) {
            MockResponse.plaintext("made", status: .other(201), headers: ["X-Request-Id": "r-1", "Location": "/created/1"])
        }
        mock.addResponses(forPath: "/search", host: host, query: ["q": "swift"]) { MockResponse.plaintext("found") }
        _ = try mock.stub(.host(host), .path("/secure"), .header("Authorization", "Bearer token"), responses: [.plaintext("secret")])
        mock.addResponses(forPath: "/echo", host: host, method: .post) { MockResponse.echo(headers: ["Content-Type": "text/plain"]) }
        _ = try mock.stub(.host(host), .uriTemplate("/users/{id}"), responses: [
            .dynamic { _, captures in .encodable(User(id: Int(captures["id"] ?? "") ?? 0, name: "User")) },
        ])
        mock.addResponses(forPath: "/old", host: host) { MockResponse.redirect(to: "/new") }
        mock.addResponses(forPath: "/new", host: host) { MockResponse.plaintext("arrived") }
        mock.addResponses(forPath: "/file", host: host) { MockResponse.file(url: file) }
        return mock
    }

    struct Answer: Equatable {
        var status: Int
        var headers: [String: String]
        var body: Data?
    }

    static func send(_ testCase: Case, to base: URL, with session: URLSession) async throws -> Answer {
        var request = URLRequest(url: URL(string: base.absoluteString + testCase.path)!)
        request.httpMethod = testCase.method
        for (name, value) in testCase.headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = testCase.body.map { Data($0.utf8) }
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var headers: [String: String] = [:]
        for name in testCase.compared { headers[name] = http.value(forHTTPHeaderField: name) }
        var body = data
        if http.value(forHTTPHeaderField: "Content-Type") == "application/json" {
            // Each mock encodes its own copy, and JSONEncoder's key order is not fixed: compare the JSON.
            body = try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: data), options: .sortedKeys)
        }
        return Answer(status: http.statusCode, headers: headers, body: testCase.comparesBody ? body : nil)
    }

    /// The same request with curl in a child process, following redirects as URLSession does (`-L`).
    static func curl(_ testCase: Case, base: URL) async throws -> Answer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bodyFile = folder.appendingPathComponent("body").path
        let headerFile = folder.appendingPathComponent("headers").path
        var arguments = ["-L", "-o", bodyFile, "-D", headerFile, "-w", "%{http_code}", "-X", testCase.method]
        for (name, value) in testCase.headers { arguments += ["-H", "\(name): \(value)"] }
        if let body = testCase.body { arguments += ["--data-binary", body] }
        let result = try await Curl.run(arguments + [base.absoluteString + testCase.path])
        #expect(result.exitCode == 0, "\(result.errors)")
        // The last header block is the final response's (after any redirect).
        let dump = try String(contentsOfFile: headerFile, encoding: .utf8)
        let block = dump.components(separatedBy: "\r\n\r\n").last { !$0.isEmpty } ?? ""
        var received: [String: String] = [:]
        for line in block.components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            received[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var headers: [String: String] = [:]
        for name in testCase.compared { headers[name] = received[name.lowercased()] }
        var body = (try? Data(contentsOf: URL(fileURLWithPath: bodyFile))) ?? Data()
        if received["content-type"] == "application/json" {
            body = try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: body), options: .sortedKeys)
        }
        return Answer(status: Int(result.output) ?? 0, headers: headers, body: testCase.comparesBody ? body : nil)
    }

    @Test(.disabled(if: runsUnderAddressSanitizer, "launches curl, which Foundation cannot do reliably under AddressSanitizer"), arguments: cases)
    func sameAnswer(_ testCase: Case) async throws {
        let file = try temporaryFile(size: 100_000)
        defer { try? FileManager.default.removeItem(at: file) }
        let interceptor = try Self.makeMock(file: file)
        let intercepted = try await Self.send(testCase, to: URL(string: "https://api.example.com")!,
                                              with: interceptor.urlSession)
        let served = try Self.makeMock(file: file)
        let origin = HTTPMockServer.Configuration(origin: "https://api.example.com")
        let overTheNetwork = try await HTTPMockServer.withServer(serving: served, configuration: origin) { server in
            try await Self.send(testCase, to: server.baseURL, with: plainSession())
        }
        // A mock of its own: the first one's single-use responses are spent.
        let withCurl = try await HTTPMockServer.withServer(serving: try Self.makeMock(file: file), configuration: origin) { server in
            try await Self.curl(testCase, base: server.baseURL)
        }
        #expect(intercepted == overTheNetwork)
        #expect(intercepted == withCurl)
        #expect(interceptor.journal.count >= 1)
    }
}
