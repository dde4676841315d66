import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMockTesting

/// One table of matching cases, run through the three faces that say "which requests": a stub registered with
/// `Match` values, a mapping file loaded from disk, and HTTPMockTesting's assertions over the journal. Every face
/// must give every request the same answer; the table is the one in the Matching article.
@Suite struct MatchingTableTests {
    /// A request of the table.
    struct Request: Sendable, CustomStringConvertible {
        var method = "GET"
        var url: String
        var headers: [String: String] = [:]
        var body: String?

        var description: String {
            "\(method) \(url)" + (headers.isEmpty ? "" : " \(headers)") + (body.map { " body \($0)" } ?? "")
        }

        var urlRequest: URLRequest {
            var request = URLRequest(url: URL(string: url)!)
            request.httpMethod = method
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            request.httpBody = body.map { Data($0.utf8) }
            return request
        }
    }

    /// A row: the same question asked in each face's own words, and the answer each request must get.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        /// The stub face.
        let stub: [Match]
        /// The mapping-file face: the `request` object of a mock, or `nil` where the format has no words for it.
        let mapping: String?
        /// The assertion face, in the words an assertion takes (the URL forms where they can say it).
        let assertion: @Sendable (HTTPMock) -> [JournalEntry]
        let requests: [(Request, Bool)]

        var testDescription: String { name }
    }

    static let base = "https://api.example.com"

    static let cases: [Case] = [
        Case(name: "method: case-sensitive; URLSession upper-cases the standard methods an app sets as `post`",
             stub: [.method(.post)], mapping: #"{"method": "POST"}"#,
             assertion: { HTTPRequests(url: base + "/items", method: .post, in: $0) },
             requests: [(Request(method: "POST", url: base + "/items"), true),
                        (Request(method: "post", url: base + "/items"), true),
                        (Request(url: base + "/items"), false)]),
        Case(name: "host: `*` is one label, case-insensitive, any port when the pattern names none",
             stub: [.host("*.example.com")], mapping: #"{"host": "*.example.com"}"#,
             assertion: { HTTPRequests(.host("*.example.com"), in: $0) },
             requests: [(Request(url: "https://api.example.com/x"), true),
                        (Request(url: "https://API.Example.COM/x"), true),
                        (Request(url: "https://api.example.com:8443/x"), true),
                        (Request(url: "https://a.b.example.com/x"), false),
                        (Request(url: "https://example.com/x"), false)]),
        Case(name: "host with a port: that port only",
             stub: [.host("localhost:8080")], mapping: #"{"host": "localhost:8080"}"#,
             assertion: { HTTPRequests(.host("localhost:8080"), in: $0) },
             requests: [(Request(url: "http://localhost:8080/x"), true),
                        (Request(url: "http://localhost/x"), false),
                        (Request(url: "http://localhost:9090/x"), false)]),
        Case(name: "path: `*` is one segment; trailing and doubled slashes do not matter",
             stub: [.path("/users/*")], mapping: #"{"path": "/users/*"}"#,
             assertion: { HTTPRequests(.path("/users/*"), in: $0) },
             requests: [(Request(url: base + "/users/42"), true),
                        (Request(url: base + "/users/42/"), true),
                        (Request(url: base + "//users//42"), true),
                        (Request(url: base + "/users"), false),
                        (Request(url: base + "/users/42/posts"), false)]),
        Case(name: "path: `**` is any number of segments, none included",
             stub: [.path("/api/**")], mapping: #"{"path": "/api/**"}"#,
             assertion: { HTTPRequests(.path("/api/**"), in: $0) },
             requests: [(Request(url: base + "/api"), true),
                        (Request(url: base + "/api/v1/users/7"), true),
                        (Request(url: base + "/apis"), false)]),
        Case(name: "path: percent-encoded characters compare decoded",
             stub: [.path("/files/caf%C3%A9")], mapping: #"{"path": "/files/caf%C3%A9"}"#,
             assertion: { HTTPRequests(url: base + "/files/caf%C3%A9", in: $0) },
             requests: [(Request(url: base + "/files/caf%C3%A9"), true),
                        (Request(url: base + "/files/caf%c3%a9"), true),
                        (Request(url: base + "/files/cafe"), false)]),
        Case(name: "query, exact (the default): these parameters and no others",
             stub: [.query(["q": "swift"])], mapping: #"{"query": {"q": "swift"}}"#,
             assertion: { HTTPRequests(url: base + "/search?q=swift", in: $0) },
             requests: [(Request(url: base + "/search?q=swift"), true),
                        (Request(url: base + "/search?q=swift&page=2"), false),
                        (Request(url: base + "/search?q=swift&q=linux"), false),
                        (Request(url: base + "/search"), false)]),
        Case(name: "query, contains: at least these values; others and repeats ignored",
             stub: [.query(["tag": "swift"], matching: .contains)],
             mapping: #"{"query": {"tag": "swift"}, "queryMatching": "contains"}"#,
             assertion: { HTTPRequests(url: base + "/search", queryParameters: ["tag": "swift"], in: $0) },
             requests: [(Request(url: base + "/search?tag=swift&tag=linux"), true),
                        (Request(url: base + "/search?page=1&tag=swift"), true),
                        (Request(url: base + "/search?tag=linux"), false),
                        (Request(url: base + "/search"), false)]),
        Case(name: "query: repeated keys in any order, value-less items, any value",
             stub: [.query(["tag": ["a", "b"], "debug": .flag, "page": .any])],
             mapping: #"{"query": {"tag": ["a", "b"], "debug": {"flag": true}, "page": {"any": true}}}"#,
             assertion: { HTTPRequests(.query(["tag": ["a", "b"], "debug": .flag, "page": .any]), in: $0) },
             requests: [(Request(url: base + "/s?tag=b&debug&page=3&tag=a"), true),
                        (Request(url: base + "/s?tag=a&debug=1&page=3&tag=b"), false),
                        (Request(url: base + "/s?tag=a&debug&page=3"), false)]),
        Case(name: "header value: name case-insensitive; every comma-separated value counts",
             stub: [.header("Accept", "application/json")], mapping: #"{"headers": {"Accept": "application/json"}}"#,
             assertion: { HTTPRequests(url: base + "/h", headers: ["accept": "application/json"], in: $0) },
             requests: [(Request(url: base + "/h", headers: ["Accept": "application/json"]), true),
                        (Request(url: base + "/h", headers: ["accept": "text/html, application/json"]), true),
                        (Request(url: base + "/h", headers: ["Accept": "application/json; charset=utf-8"]), false),
                        (Request(url: base + "/h"), false)]),
        Case(name: "header absent",
             stub: [.not(.header("Authorization"))], mapping: #"{"headers": {"Authorization": {"present": false}}}"#,
             assertion: { HTTPRequests(.not(.header("Authorization")), in: $0) },
             requests: [(Request(url: base + "/h"), true),
                        (Request(url: base + "/h", headers: ["Authorization": "Bearer t"]), false)]),
        Case(name: "header containing text (a regular expression matches anywhere)",
             stub: [.header("Authorization", matching: "Bearer ")],
             mapping: #"{"headers": {"Authorization": {"contains": "Bearer "}}}"#,
             assertion: { HTTPRequests(.header("Authorization", matching: "Bearer "), in: $0) },
             requests: [(Request(url: base + "/h", headers: ["Authorization": "Bearer abc"]), true),
                        (Request(url: base + "/h", headers: ["Authorization": "Basic abc"]), false)]),
        Case(name: "body: exactly these bytes",
             stub: [.body("hello")], mapping: #"{"body": {"equals": "hello"}}"#,
             assertion: { HTTPRequests(.body("hello"), in: $0) },
             requests: [(Request(method: "POST", url: base + "/b", body: "hello"), true),
                        (Request(method: "POST", url: base + "/b", body: "hello!"), false),
                        (Request(method: "POST", url: base + "/b"), false)]),
        Case(name: "body containing text (literal, not a pattern)",
             stub: [.body(matching: #"a\.c"#)], mapping: #"{"body": {"contains": "a.c"}}"#,
             assertion: { HTTPRequests(.body(matching: #"a\.c"#), in: $0) },
             requests: [(Request(method: "POST", url: base + "/b", body: "xa.cx"), true),
                        (Request(method: "POST", url: base + "/b", body: "abc"), false)]),
        Case(name: "JSON body: equal as JSON, key order and spacing ignored, arrays in order",
             stub: [.json(object: ["name": "Ann", "tags": [1, 2]])], mapping: #"{"body": {"json": {"name": "Ann", "tags": [1, 2]}}}"#,
             assertion: { HTTPRequests(.json(object: ["name": "Ann", "tags": [1, 2]]), in: $0) },
             requests: [(Request(method: "POST", url: base + "/j", body: #"{ "tags" : [1, 2], "name" : "Ann" }"#), true),
                        (Request(method: "POST", url: base + "/j", body: #"{"name":"Ann","tags":[1.0,2e0]}"#), true),
                        (Request(method: "POST", url: base + "/j", body: #"{"name":"Ann","tags":[1,2],"x":1}"#), false),
                        (Request(method: "POST", url: base + "/j", body: #"{"name":"Ann","tags":[2,1]}"#), false),
                        (Request(method: "POST", url: base + "/j", body: "name=Ann"), false)]),
        Case(name: "URL regular expression: matches anywhere unless anchored",
             stub: [.urlRegex(#"example\.com/users/[0-9]+"#)], mapping: nil,
             assertion: { HTTPRequests(urlPattern: #"example\.com/users/[0-9]+"#, in: $0) },
             requests: [(Request(url: base + "/users/42"), true),
                        (Request(url: base + "/users/42/posts"), true),
                        (Request(url: base + "/users/x"), false)]),
        Case(name: "URL regular expression anchored with ^ and $: the whole URL",
             stub: [.urlRegex(#"^https://api\.example\.com/users/[0-9]+$"#)], mapping: nil,
             assertion: { HTTPRequests(urlPattern: #"^https://api\.example\.com/users/[0-9]+$"#, in: $0) },
             requests: [(Request(url: base + "/users/42"), true),
                        (Request(url: base + "/users/42/posts"), false),
                        (Request(url: "http://api.example.com/users/42"), false)]),
        Case(name: "URL equality: scheme and host case-insensitive, default port, trailing slash, query in any order",
             stub: [.url("https://API.example.com:443/a/b/?y=2&x=1")], mapping: nil,
             assertion: { HTTPRequests(url: "https://API.example.com:443/a/b/?y=2&x=1", in: $0) },
             requests: [(Request(url: base + "/a/b?x=1&y=2"), true),
                        (Request(url: "HTTPS://api.example.com:443/a/b/?y=2&x=1"), true),
                        (Request(url: "http://api.example.com/a/b?x=1&y=2"), false),
                        (Request(url: base + "/a/b?x=1"), false),
                        (Request(url: "https://api.example.com:8443/a/b?x=1&y=2"), false)]),
        Case(name: "URL equality ignoring the query",
             stub: [.url(base + "/login", options: .ignoreQuery)], mapping: nil,
             assertion: { HTTPRequests(url: base + "/login", in: $0) },
             requests: [(Request(url: base + "/login?user=ann"), true),
                        (Request(url: base + "/login"), true),
                        (Request(url: base + "/logout"), false)]),
        Case(name: "URL equality ignoring the path ignores the query too",
             stub: [.url(base, options: .ignorePath)], mapping: nil,
             assertion: { HTTPRequests(.url(base, options: .ignorePath), in: $0) },
             requests: [(Request(url: base + "/any/path?x=1"), true),
                        (Request(url: "https://other.example.com/any/path"), false)]),
        Case(name: "URI template: variables match one segment; the query part is optional",
             stub: [.uriTemplate("/users/{id}{?page}")], mapping: nil,
             assertion: { HTTPRequests(.uriTemplate("/users/{id}{?page}"), in: $0) },
             requests: [(Request(url: base + "/users/7"), true),
                        (Request(url: base + "/users/7?page=2"), true),
                        (Request(url: base + "/users/7/posts"), false)]),
        Case(name: "form fields, contains",
             stub: [.form(["user": "ann"], matching: .contains)], mapping: nil,
             assertion: { HTTPRequests(.form(["user": "ann"], matching: .contains), in: $0) },
             requests: [(Request(method: "POST", url: base + "/f", body: "user=ann&remember=1"), true),
                        (Request(method: "POST", url: base + "/f", body: "user=bob"), false)]),
        Case(name: "several matchers: all must hold",
             stub: [.method(.post), .path("/login"), .header("Content-Type", "application/json")],
             mapping: #"{"method": "POST", "path": "/login", "headers": {"Content-Type": "application/json"}}"#,
             assertion: { HTTPRequests(url: base + "/login", method: .post, headers: ["Content-Type": "application/json"], in: $0) },
             requests: [(Request(method: "POST", url: base + "/login", headers: ["Content-Type": "application/json"]), true),
                        (Request(method: "POST", url: base + "/login"), false),
                        (Request(url: base + "/login", headers: ["Content-Type": "application/json"]), false)]),
    ]

    @Test(arguments: cases)
    func stubFace(_ row: Case) async throws {
        for (request, expected) in row.requests {
            let mock = HTTPMock()
            try mock.stub(row.stub, responses: [.plaintext("stubbed", lifetime: .eternal)])
            #expect(try await Self.answered(request, by: mock) == expected, "stub: \(request)")
        }
    }

    @Test(arguments: cases.filter { $0.mapping != nil })
    func mappingFileFace(_ row: Case) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("matching-table-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = #"{"mocks": [{"request": "# + row.mapping! + #", "response": {"text": "stubbed"}}]}"#
        try Data(file.utf8).write(to: folder.appendingPathComponent("table.mock.json"))
        for (request, expected) in row.requests {
            let mock = HTTPMock()
            try mock.loadMappings(from: folder)
            #expect(try await Self.answered(request, by: mock) == expected, "mapping file: \(request)")
        }
    }

    @Test(arguments: cases)
    func assertionFace(_ row: Case) async throws {
        for (request, expected) in row.requests {
            let mock = HTTPMock()
            try mock.stub(.path("/**"), responses: [.plaintext("anything", lifetime: .eternal)])
            _ = try await mock.urlSession.data(for: request.urlRequest)
            #expect(row.assertion(mock).count == (expected ? 1 : 0), "assertion: \(request)")
            // The matchers the stub face used, passed to an assertion as they are, agree too.
            #expect(HTTPRequests(in: mock, row.stub).count == (expected ? 1 : 0), "assertion with the stub's matchers: \(request)")
        }
    }

    /// Whether the mock's stub answered `request` (the body says so), rather than the unmocked policy.
    static func answered(_ request: Request, by mock: HTTPMock) async throws -> Bool {
        let (data, _) = try await mock.urlSession.data(for: request.urlRequest)
        return String(decoding: data, as: UTF8.self) == "stubbed"
    }
}

/// `HTTPRequests` with matchers from an array, for the table.
private func HTTPRequests(in mock: HTTPMock, _ matchers: [Match]) -> [JournalEntry] {
    switch matchers.count {
    case 1: HTTPRequests(matchers[0], in: mock)
    case 2: HTTPRequests(matchers[0], matchers[1], in: mock)
    case 3: HTTPRequests(matchers[0], matchers[1], matchers[2], in: mock)
    default: fatalError("the table's rows have one to three matchers")
    }
}
