import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

extension Match {
    static func apiVersion(_ version: Int) -> Match {
        .header("Accept", "application/vnd.example.v\(version)+json")
    }
}

/// The samples of the Extending article, run against a real mock.
@Suite struct ExtendingSamplesTests {
    struct SignedRequest: RequestMatcher {
        let secret: String
        func matches(_ request: CapturedRequest) -> Bool {
            request.headers["X-Signature"] == "\(secret):\(request.bodyText ?? "")"
        }
        var matcherDescription: String { "signed with the test secret" }
    }

    func loadRoutes(_ text: String, into mock: HTTPMock) throws {
        var routes: [(method: HTTPMethod, host: String, path: String, response: MockResponse)] = []
        for (number, line) in text.split(separator: "\n").enumerated() {
            let parts = line.split(separator: " ", maxSplits: 3).map(String.init)
            guard parts.count == 4, let slash = parts[1].firstIndex(of: "/"), let status = Int(parts[2]) else {
                throw HTTPMockError(.invalidDefinition, "routes line \(number + 1): expected METHOD host/path STATUS body")
            }
            let response = MockResponse.plaintext(parts[3], status: .other(status), lifetime: .eternal)
            routes.append((HTTPMethod(parts[0]), String(parts[1][..<slash]), String(parts[1][slash...]), response))
        }
        try mock.register {   // all or nothing: a route the mock refuses (a bad path) registers none of them
            for route in routes {
                Host(route.host) {
                    Path(route.path, method: route.method) { route.response }
                }
            }
        }
    }

    func expectRequestOrder(_ paths: [String], in mock: HTTPMock, sourceLocation: SourceLocation = #_sourceLocation) {
        let seen = mock.journal.map(\.request.path)
        #expect(seen.filter(paths.contains) == paths, "requests arrived as \(seen)", sourceLocation: sourceLocation)
    }

    @Test func matcherFactory() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/items"), .apiVersion(2), responses: [.plaintext("version 2 items")])
        var request = URLRequest(url: URL(string: "https://api.example.com/items")!)
        request.setValue("application/vnd.example.v2+json", forHTTPHeaderField: "Accept")
        let (data, _) = try await mock.urlSession.data(for: request)
        #expect(String(decoding: data, as: UTF8.self) == "version 2 items")
    }

    @Test func matcherType() async throws {
        let mock = HTTPMock()
        try mock.stub(.method(.post), .custom(SignedRequest(secret: "s3cret")), responses: [.empty(status: .accepted)])
        var request = URLRequest(url: URL(string: "https://api.example.com/events")!)
        request.httpMethod = "POST"
        request.httpBody = Data("hi".utf8)
        #expect(try await mock.urlSession.fetch("https://api.example.com/events", method: "POST", body: Data("hi".utf8)).status == 404)
        #expect(mock.journal.last?.report?.description.contains("signed with the test secret") == true)
        request.setValue("s3cret:hi", forHTTPHeaderField: "X-Signature")
        let (_, response) = try await mock.urlSession.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 202)
    }

    @Test func fileFormat() async throws {
        let mock = HTTPMock()
        try loadRoutes("GET api.example.com/health 200 ok\nPOST api.example.com/jobs 202 queued", into: mock)
        #expect(try await mock.urlSession.fetch("https://api.example.com/health").text == "ok")
        let job = try await mock.urlSession.fetch("https://api.example.com/jobs", method: "POST")
        #expect(job.status == 202)
        #expect(job.text == "queued")
        #expect(throws: HTTPMockError.self) { try loadRoutes("GET nowhere", into: mock) }
        // A route the mock refuses leaves the mock as it was: the good line before it is not registered either.
        let before = mock.stubUsage.count
        #expect(throws: HTTPMockError.self) { try loadRoutes("GET api.example.com/fine 200 ok\nGET api.example.com/a***b 200 no", into: mock) }
        #expect(mock.stubUsage.count == before)
    }

    @Test func assertion() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/login", host: "api.example.com") { MockResponse.empty() }
        mock.addResponses(forPath: "/profile", host: "api.example.com") { MockResponse.plaintext("Alice") }
        _ = try await mock.urlSession.fetch("https://api.example.com/login")
        _ = try await mock.urlSession.fetch("https://api.example.com/profile")
        expectRequestOrder(["/login", "/profile"], in: mock)
    }
}
