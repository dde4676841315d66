import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock
import HTTPMockServer
import Testing

/// WireMock folders answer alike in process and over the socket: the corpus of mapping files HTTPMock's own tests
/// read (written from WireMock's documentation), with mappings of the fields added since, sent through the mock's
/// URLSession and through HTTPMockServer; status, the headers the mappings set and the body must be the same.
@Suite("A WireMock folder answers alike through URLSession and over the socket")
struct WireMockParityTests {
    typealias Case = ParityTests.Case

    /// Mappings beside the corpus: newer fields (multipart, JSONPath functions and regular expressions, number,
    /// date and JSON Schema patterns, XML, form parameters, method lists, charsets, templating helpers).
    static let extra = #"""
        {"mappings": [
          {"request": {"method": "POST", "urlPath": "/upload", "multipartPatterns": [{"headers": {"Content-Disposition": {"contains": "name=\"meta\""}}, "bodyPatterns": [{"matchesJsonPath": "$.tags.length()"}]}]},
           "response": {"status": 201, "body": "uploaded"}},
          {"request": {"method": "POST", "urlPath": "/cart", "bodyPatterns": [{"matchesJsonPath": "$.items[?(@.sku =~ /A-.*/i)]"}, {"matchesJsonSchema": {"type": "object", "required": ["items"]}}]},
           "response": {"status": 200, "jsonBody": {"total": 12.50, "currency": "EUR"}}},
          {"request": {"method": {"oneOf": ["PUT", "PATCH"]}, "urlPath": "/profile", "formParameters": {"age": {"greaterThanNumber": 17}}},
           "response": {"status": 204}},
          {"request": {"method": "GET", "urlPath": "/legacy", "headers": {"X-Since": {"before": "now"}}},
           "response": {"status": 200, "headers": {"Content-Type": "text/plain; charset=ISO-8859-1"}, "body": "café"}},
          {"request": {"method": "POST", "urlPath": "/soap", "bodyPatterns": [{"matchesXPath": "//order[@id='7']"}]},
           "response": {"status": 200, "headers": {"Content-Type": "text/xml"}, "body": "<ok/>"}},
          {"request": {"method": "GET", "urlPath": "/whoami", "clientIp": {"matches": "127\\.0\\.0\\.1"}},
           "response": {"status": 200, "body": "you are {{request.clientIp}}", "transformers": ["response-template"]}},
          {"request": {"method": "GET", "urlPathTemplate": "/greet/{name}"},
           "response": {"status": 200, "body": "{{#if (eq request.path.name 'ann')}}Hi Ann{{else}}{{capitalize request.path.name}}{{/if}} {{math 6 '*' 7}}", "transformers": ["response-template"]}}
        ]}
        """#

    static let cases: [Case] = [
        Case(name: "ANY method", method: "DELETE", path: "/anything", comparesBody: false),
        Case(name: "header patterns", path: "/headers",
             headers: ["Accept": "application/json", "X-Version": "v2", "X-Tenant": "acme", "X-Trace": "t-1", "User-Agent": "app/1"]),
        Case(name: "cookies", path: "/account", headers: ["Cookie": "session=0a1b2c3d; theme=dark"]),
        Case(name: "basic credentials", path: "/secure", headers: ["Authorization": "Basic " + Data("ann:s3cret".utf8).base64EncodedString()]),
        Case(name: "priority over a broad pattern", path: "/catalog/42"),
        Case(name: "a broad pattern of a higher priority", path: "/stock/1"),
        Case(name: "jsonBody with its headers", path: "/users/7", compared: ["Content-Type", "Cache-Control"]),
        Case(name: "base64Body", path: "/logo", compared: ["Content-Type"]),
        Case(name: "bodyFileName", path: "/users/7/file"),
        Case(name: "a templated body file", path: "/greeting?name=Ann"),
        Case(name: "fixed delay", path: "/slow"),
        Case(name: "one mapping in a file", path: "/single"),
        Case(name: "request values in a template", method: "POST", path: "/echo/a?q=swift",
             headers: ["X-Client": "ios", "Content-Type": "application/json"], body: #"{"user": {"name": "Ann"}}"#, compared: ["X-Path"]),
        Case(name: "not templated", path: "/literal"),
        Case(name: "exact url", path: "/some/thing?colour=red"),
        Case(name: "url regex", path: "/reports/12?format=csv"),
        Case(name: "path regex", path: "/files/notes.txt"),
        Case(name: "path template and parameters", path: "/contacts/12345/addresses/9"),
        Case(name: "multipart, JSONPath function", method: "POST", path: "/upload",
             headers: ["Content-Type": "multipart/form-data; boundary=xyz"],
             body: "--xyz\r\nContent-Disposition: form-data; name=\"meta\"\r\nContent-Type: application/json\r\n\r\n{\"tags\": [\"a\"]}\r\n--xyz--\r\n"),
        Case(name: "JSONPath regex filter and a JSON Schema", method: "POST", path: "/cart", headers: ["Content-Type": "application/json"],
             body: #"{"items": [{"sku": "a-1"}]}"#),
        Case(name: "method list and form parameters", method: "PATCH", path: "/profile",
             headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "age=30", comparesBody: false),
        Case(name: "date pattern, body in its charset", path: "/legacy", headers: ["X-Since": "2020-01-01T00:00:00Z"]),
        Case(name: "XPath", method: "POST", path: "/soap", headers: ["Content-Type": "text/xml"], body: "<orders><order id='7'/></orders>"),
        Case(name: "Handlebars conditions, string and math helpers", path: "/greet/bob"),
        Case(name: "clientIp: this machine, in process and over loopback", path: "/whoami"),
        Case(name: "no mapping answers", path: "/nothing/here", compared: [], comparesBody: false),
    ]

    /// The corpus and the extra mappings in one WireMock folder.
    static func folder() throws -> URL {
        let root = try temporaryFolder(["mappings/extra.json": extra])
        let corpus = ServeCommandTests.wireMockFixture
        try FileManager.default.copyItem(at: corpus.appendingPathComponent("__files"), to: root.appendingPathComponent("__files"))
        for name in try FileManager.default.contentsOfDirectory(atPath: corpus.appendingPathComponent("mappings").path) {
            try FileManager.default.copyItem(at: corpus.appendingPathComponent("mappings/\(name)"),
                                             to: root.appendingPathComponent("mappings/\(name)"))
        }
        return root
    }

    @Test(arguments: cases)
    func sameAnswer(_ testCase: Case) async throws {
        let root = try Self.folder()
        let inProcess = HTTPMock()
        try inProcess.loadWireMockMappings(from: root)
        let intercepted = try await ParityTests.send(testCase, to: URL(string: "https://api.example.com")!, with: inProcess.urlSession)
        let served = HTTPMock()
        try served.loadWireMockMappings(from: root)
        let origin = HTTPMockServer.Configuration(origin: "https://api.example.com")
        let overTheSocket = try await HTTPMockServer.withServer(serving: served, configuration: origin) { server in
            try await ParityTests.send(testCase, to: server.baseURL, with: plainSession())
        }
        #expect(intercepted == overTheSocket)
        // Every case but the last is answered by a mapping.
        #expect((intercepted.status == 404) == (testCase.name == "no mapping answers"), "\(intercepted)")
    }

    @Test("statusMessage goes out as the reason phrase of the status line; without one, the standard phrase")
    func statusMessageOnTheStatusLine() async throws {
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: Self.folder())
        try await HTTPMockServer.withServer(serving: mock) { server in
            let request = { (path: String) in Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8) }
            let named = await RawSocket.exchange(port: server.port, sending: request("/users/7"))
            #expect(named.reply.hasPrefix("HTTP/1.1 200 Fine\r\n"), "\(named.reply)")
            let standard = await RawSocket.exchange(port: server.port, sending: request("/logo"))
            #expect(standard.reply.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(standard.reply)")
        }
    }
}
