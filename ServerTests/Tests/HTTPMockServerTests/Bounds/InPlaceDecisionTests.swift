import Foundation
import HTTPMock
import HTTPMockServer
import Testing

/// The regular expressions and templates of mapping files are the package's own, bounded work: the server tries
/// them on its event loop within a small budget, and hands a decision that needs more to the decision pool. Either
/// way the answer must be the one the mapping gives.
@Suite("Regular expressions and templates of mapping files decided in place answer as the mappings say")
struct InPlaceDecisionTests {
    static let mappings = #"""
        {"mappings": [
          {"priority": 1, "request": {"method": "GET", "urlPathPattern": "/users/[0-9]+"},
           "response": {"status": 200, "body": "user {{request.pathSegments.[1]}}", "transformers": ["response-template"]}},
          {"priority": 2, "request": {"method": "GET", "urlPath": "/search", "queryParameters": {"q": {"matches": "[a-z]{1,5}"}}},
           "response": {"status": 200, "body": "q={{request.query.q}}", "transformers": ["response-template"]}},
          {"priority": 3, "request": {"method": "GET", "urlPathPattern": "/files/.+", "headers": {"X-Key": {"matches": "k-[0-9]{2}"}}},
           "response": {"status": 200, "body": "key"}},
          {"priority": 4, "request": {"method": "GET", "urlPathPattern": "/files/.+", "headers": {"X-Key": {"doesNotMatch": "k-.*"}}},
           "response": {"status": 200, "body": "other"}},
          {"priority": 5, "request": {"method": "GET", "urlPathPattern": "/long/[a-z]+"},
           "response": {"status": 200, "body": "{{#each (range 1 40000)}}x{{/each}}", "transformers": ["response-template"]}},
          {"priority": 6, "request": {"method": "GET", "urlPathPattern": "/r/(a+)+$"},
           "response": {"status": 200, "body": "matched"}}
        ]}
        """#

    /// A request the generator made, and what the mappings answer it (`nil`: none does, 404).
    struct Case {
        let target: String
        let headers: [String: String]
        let body: String?
    }

    /// Requests around each mapping's expressions, and what the test's own reading of the mappings expects.
    static func cases(seed: UInt64, count: Int) -> [Case] {
        var random = SplitMix(seed: seed)
        func word(_ alphabet: String, _ length: ClosedRange<Int>) -> String {
            let letters = Array(alphabet)
            let count = length.lowerBound + random.next(below: length.count)
            return String((0..<count).map { _ in letters[random.next(below: letters.count)] })
        }
        return (0..<count).map { _ -> Case in
            switch random.next(below: 3) {
            case 0:
                let id = random.next(below: 2) == 0 ? word("0123456789", 1...4) : word("0123456789a", 1...4)
                let digits = id.allSatisfy(\.isNumber)
                return Case(target: "/users/\(id)", headers: [:], body: digits ? "user \(id)" : nil)
            case 1:
                let q = word("abcxyz7", 1...7)
                let matches = q.count <= 5 && q.allSatisfy { $0.isLetter }
                return Case(target: "/search?q=\(q)", headers: [:], body: matches ? "q=\(q)" : nil)
            default:
                let key: String
                switch random.next(below: 3) {
                case 0: key = "k-" + word("0123456789", 2...2)
                case 1: key = "k-" + word("0123456789", 3...3)
                default: key = word("zq", 1...2) + "-1"
                }
                let body: String? = key.hasPrefix("k-") ? (key.count == 4 ? "key" : nil) : "other"
                return Case(target: "/files/\(word("abc", 1...3))", headers: ["X-Key": key], body: body)
            }
        }
    }

    static func get(_ target: String, headers: [String: String] = [:], port: Int) async -> String {
        let lines = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
        return await RawSocket.exchange(
            port: port, sending: Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(lines)Connection: close\r\n\r\n".utf8)).reply
    }

    @Test("generated requests get the answer the test's own reading of the mappings expects")
    func generated() async throws {
        let seed = ProcessInfo.processInfo.environment["HTTPMOCK_IN_PLACE_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: temporaryFolder(["mappings/in-place.json": Self.mappings]), ranking: .mostRecentlyAdded)
        try await HTTPMockServer.withServer(serving: mock) { server in
            for request in Self.cases(seed: seed, count: 120) {
                let reply = await Self.get(request.target, headers: request.headers, port: server.port)
                if let body = request.body {
                    #expect(reply.hasPrefix("HTTP/1.1 200 ") && reply.hasSuffix("\r\n\r\n" + body),
                            "seed \(seed): \(request.target) \(request.headers): \(reply.prefix(300))")
                } else {
                    #expect(reply.hasPrefix("HTTP/1.1 404 "), "seed \(seed): \(request.target) \(request.headers): \(reply.prefix(300))")
                }
            }
        }
    }

    @Test("a template that needs more than the in-place budget is rendered whole where user code runs")
    func templatePastTheInPlaceBudget() async throws {
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: temporaryFolder(["mappings/in-place.json": Self.mappings]), ranking: .mostRecentlyAdded)
        try await HTTPMockServer.withServer(serving: mock) { server in
            let reply = await Self.get("/long/abc", port: server.port)
            #expect(reply.hasPrefix("HTTP/1.1 200 "), "\(reply.prefix(300))")
            #expect(reply.hasSuffix("\r\n\r\n" + String(repeating: "x", count: 40_000)), "\(reply.prefix(300))")
        }
    }

    @Test("an expression that backtracks past the in-place budget goes on with its whole budget, and then answers 500 naming it")
    func backtrackingExpression() async throws {
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: temporaryFolder(["mappings/in-place.json": Self.mappings]), ranking: .mostRecentlyAdded)
        try await HTTPMockServer.withServer(serving: mock) { server in
            // A short one backtracks a little: past the in-place budget, well within the whole one.
            let short = await Self.get("/r/" + String(repeating: "a", count: 12), port: server.port)
            #expect(short.hasPrefix("HTTP/1.1 200 ") && short.hasSuffix("matched"), "\(short.prefix(300))")
            let long = await Self.get("/r/" + String(repeating: "a", count: 30) + "b", port: server.port)
            #expect(long.hasPrefix("HTTP/1.1 500 "), "\(long.prefix(300))")
            #expect(long.contains("/r/(a+)+$") && long.contains("budget"), "\(long.prefix(300))")
        }
    }
}
