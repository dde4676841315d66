import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

/// `httpmock convert`'s conversions: the WireMock folder answers the source's requests as the source does.
@Suite struct WireMockConversionTests {
    private func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("httpmock-convert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Status and body of each request, in order, through `mock`.
    private func answers(_ mock: HTTPMock, _ requests: [(String, String)]) async -> [String] {
        var result: [String] = []
        for (method, url) in requests {
            var request = URLRequest(url: URL(string: url)!)
            request.httpMethod = method
            if method == "POST" {
                request.httpBody = Data(#"{"user":"ann","password":"REDACTED"}"#.utf8)
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
            do {
                let (data, response) = try await mock.urlSession.data(for: request)
                result.append("\((response as? HTTPURLResponse)?.statusCode ?? 0) \(data.count) \(String(decoding: data.prefix(40), as: UTF8.self))")
            } catch {
                result.append("error \((error as? URLError)?.code.rawValue ?? 0)")
            }
        }
        return result
    }

    @Test func aHARBecomesAFolderThatAnswersTheSameInTheSameOrder() async throws {
        let har = fixtures.appendingPathComponent("HAR/poll.har")
        let folder = try scratch()
        let outcome = try WireMockConversion.convertHAR(at: har, into: folder)
        #expect(outcome.mappings == 6)
        #expect(outcome.files == 1)   // the PNG pixel
        let original = HTTPMock()
        try original.loadHAR(at: har, options: HARReplayOptions(matchesBody: false))
        let converted = HTTPMock()
        try converted.loadWireMockMappings(from: folder)
        let requests = [("GET", "https://api.example.com/jobs/7"), ("GET", "https://api.example.com/jobs/7"),
                        ("GET", "https://api.example.com/jobs/7"), ("GET", "https://api.example.com/jobs/7"),
                        ("POST", "https://api.example.com/login?client=ios"),
                        ("GET", "https://cdn.example.com/pixel.png?token=another"), ("GET", "https://offline.example.com/")]
        let expected = await answers(original, requests)
        #expect(await answers(converted, requests).dropLast() == expected.dropLast())
        // A recorded failure: WireMock drops the connection, so the request fails either way.
        #expect(expected.last?.hasPrefix("error") == true)
        #expect(await answers(converted, requests).last?.hasPrefix("error") == true)
    }

    @Test func aMockingbirdBundleBecomesAFolderThatAnswersTheSame() async throws {
        let bundle = fixtures.appendingPathComponent("Mockingbird/httpbin")
        let folder = try scratch()
        let outcome = try WireMockConversion.convertMockingbird(at: bundle, into: folder)
        #expect(outcome.mappings == 4)
        let original = HTTPMock()
        try original.loadMockingbirdBundle(at: bundle)
        let converted = HTTPMock()
        try converted.loadWireMockMappings(from: folder)
        let requests = [("GET", "https://httpbin.org/ip"), ("POST", "https://httpbin.org/anything?page=2&session=abc"),
                        ("GET", "https://httpbin.org/raw"), ("DELETE", "https://httpbin.org/anything"),
                        ("GET", "https://httpbin.org/ip")]
        #expect(await answers(converted, requests) == answers(original, requests))
    }

    @Test func aBadSourceIsNamedAndNothingIsWritten() throws {
        let folder = try scratch()
        let source = try scratch()
        try Data(#"[{"request": {"url": "httpbin.org/ip"}, "response": {"code": 200}}]"#.utf8).write(to: source.appendingPathComponent("bundle.json"))
        #expect {
            try WireMockConversion.convertMockingbird(at: source, into: folder)
        } throws: { error in
            "\(error)".contains("bundle.json at [0].request.url") && "\(error)".contains("must start with \"://\"")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("mappings").path))
    }

    /// Status, the headers a mapping file sets, and the whole body of each request, in order, through `mock`.
    private func fullAnswers(_ mock: HTTPMock, _ requests: [URLRequest]) async -> [String] {
        var result: [String] = []
        for request in requests {
            do {
                let (data, response) = try await mock.urlSession.data(for: request)
                let http = response as? HTTPURLResponse
                let headers = ["Content-Type", "Location", "X-Served-By"].map { "\($0)=\(http?.value(forHTTPHeaderField: $0) ?? "-")" }
                // Near misses name each side's own stubs: only that nothing answered must agree.
                if data.starts(with: Data("HTTPMock: no stub answered".utf8)) {  result.append("\(http?.statusCode ?? 0) no stub answered"); continue }
                result.append("\(http?.statusCode ?? 0) \(headers.joined(separator: " ")) \(data.count) \(String(decoding: data, as: UTF8.self))")
            } catch {
                result.append("error \((error as? URLError)?.code.rawValue ?? 0)")
            }
        }
        return result
    }

    private func request(_ method: String, _ url: String, headers: [String: String] = [:], body: String? = nil) -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body.map { Data($0.utf8) }
        return request
    }

    @Test func mappingFilesBecomeAFolderThatAnswersTheSame() async throws {
        let source = fixtures.appendingPathComponent("Mappings/api")
        let folder = try scratch()
        let outcome = try WireMockConversion.convertMappings(at: source, into: folder)
        // users.mock.json's five mocks; flaky's three answers (one, then two of the same, then the one that repeats).
        #expect(outcome.mappings == 5 + 4)
        #expect(outcome.files == 2)
        #expect(outcome.notes.count == 2)
        #expect(outcome.notes.contains { $0.hasPrefix("flaky/flaky.mock.json at mocks[0]: its failure \"notConnectedToInternet\"") })
        #expect(outcome.notes.contains { $0.hasPrefix("users.mock.json at mocks[1]: its query is exact") })
        let original = HTTPMock()
        try original.loadMappings(from: source)
        let converted = HTTPMock()
        try converted.loadWireMockMappings(from: folder)
        let search = "https://api.example.com/search?tag=b&q=swift&page=3&debug&tag=a"
        let requests = [
            request("GET", "https://api.example.com/users/42"),
            request("GET", search, headers: ["X-Client": "app"]),
            request("HEAD", search),
            request("GET", "https://api.example.com/search?q=swift&tag=a&tag=b&page=3"),
            request("POST", "https://api.example.com/users", headers: ["Authorization": "Bearer t0k", "Content-Type": "application/json"],
                    body: #"{"admin": false, "name": "Ann"}"#),
            request("POST", "https://api.example.com/users", headers: ["Authorization": "Basic x", "Content-Type": "application/json"],
                    body: #"{"admin": false, "name": "Ann"}"#),
            request("GET", "https://api.example.com/logo"),
            request("GET", "https://api.example.com/other"),
            request("GET", "https://eu.status.example.com/health"),
            request("GET", "https://eu.status.example.com/health"),
            request("GET", "https://us.status.example.com/health"),
            request("GET", "https://eu.status.example.com/health"),
            request("GET", "https://eu.status.example.com/health"),
            request("GET", "https://status.example.com/health"),
        ]
        let expected = await fullAnswers(original, requests)
        var got = await fullAnswers(converted, requests)
        // The one difference its note names: WireMock has no "not connected", so the connection drops instead.
        #expect(expected[8] == "error \(URLError.Code.notConnectedToInternet.rawValue)")
        #expect(got[8] == "error \(URLError.Code.networkConnectionLost.rawValue)")
        got[8] = expected[8]
        #expect(got.count == expected.count)
        for (answer, wanted) in zip(got, expected) { #expect(answer == wanted) }
        #expect(expected[0].hasPrefix("200 Content-Type=application/json Location=- X-Served-By=mappings"))
        #expect(expected[0].contains(#"{"id": "42", "segment": "users", "name": "User 42"}"#))
        #expect(expected[3] == "404 no stub answered" && expected.last == "404 no stub answered")
        #expect(expected[9].hasPrefix("503") && expected[12].hasPrefix("200"))
        let users = try String(contentsOf: folder.appendingPathComponent("mappings").appendingPathComponent(
            try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("mappings").path).first { name in
                (try? String(contentsOf: folder.appendingPathComponent("mappings/\(name)"), encoding: .utf8))?.contains("one user") == true
            } ?? ""), encoding: .utf8)
        #expect(users.contains(#""urlPathTemplate" : "/users/{id}""#) || users.contains(#""urlPathTemplate": "/users/{id}""#))
    }

    @Test("a JSON body template converts to Handlebars that WireMock 3 prints unescaped: any value (quotes, backslashes, control characters, line separators, markup, a missing one) gives the same JSON (HTTPMOCK_CONVERT_SEED replays a run)")
    func jsonTemplatesKeepTheirValuesWhole() async throws {
        let seed = ProcessInfo.processInfo.environment["HTTPMOCK_CONVERT_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        var random = SplitMix(seed: seed)
        let source = try scratch()
        try Data(#"""
        { "mocks": [ { "request": { "path": "/users/{id}" }, "response": { "template": true, "json": {
            "id": "{{path.id}}", "greeting": "Hello \"{{query.name}}\"!", "both": "{{header.X-A}}|{{query.name}}",
            "nested": [ { "m": "{{method}}" }, "{{url}}" ], "plain": "<&'>" } } } ] }
        """#.utf8).write(to: source.appendingPathComponent("users.mock.json"))
        let folder = try scratch()
        #expect(try WireMockConversion.convertMappings(at: source, into: folder).mappings == 1)
        let original = HTTPMock()
        try original.loadMappings(from: source)
        let converted = HTTPMock()
        try converted.loadWireMockMappings(from: folder)
        let pool: [String] = ["a", "Z", "0", " ", "\"", "\\", "/", "<", ">", "&", "'", "=", "{", "}", "é", "😀", "\u{2028}", "\u{85}", "\t", "\n", "\u{1}", "\u{1F}", "\u{7F}", "%"]
        func value(_ pool: [String]) -> String { (0..<Int(random.next() % 9)).map { _ in pool.randomElement(using: &random)! }.joined() }
        let headerPool = pool.filter { $0.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F } }
        for index in 0..<40 {
            let (id, name, header) = (value(pool.filter { $0 != "/" }), value(pool), value(headerPool).trimmingCharacters(in: .whitespaces))
            let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }
            // Sometimes given twice: the first value is the one printed.
            let query = random.next() % 4 == 0 ? "" : "?name=\(encode(name))" + (random.next() % 3 == 0 ? "&name=second" : "")
            let headers = random.next() % 4 == 0 ? [:] : ["X-A": header]
            let asked = request(["GET", "POST"][Int(random.next() % 2)], "https://api.example.com/users/\(encode(id.isEmpty ? "x" : id))\(query)", headers: headers)
            // Status and headers alike; the bodies the same JSON (Jackson writes \u001F where HTTPMock writes \u001f).
            let (want, got) = (await fullAnswers(original, [asked]), await fullAnswers(converted, [asked]))
            let (wanted, answered) = (try #require(want.first).split(separator: " ", maxSplits: 5), try #require(got.first).split(separator: " ", maxSplits: 5))
            #expect(wanted.count == 6 && wanted.prefix(4) == answered.prefix(4), "seed \(seed), case \(index): \(got) against \(want)")
            let object = try JSONSerialization.jsonObject(with: Data(try #require(wanted.last).utf8)) as? NSDictionary
            let convertedObject = try JSONSerialization.jsonObject(with: Data(try #require(answered.last).utf8)) as? NSDictionary
            #expect(object != nil && object == convertedObject, "seed \(seed), case \(index): \(got) against \(want)")
            // The answer holds the value as it was sent.
            #expect(object?["greeting"] as? String == "Hello \"\(query.isEmpty ? "" : name)\"!", "seed \(seed), case \(index): \(want)")
        }
    }

    @Test func mappingFilesKeepTheirOrderQueriesAndAnswersInTurn() async throws {
        let source = try scratch()
        try Data(#"""
        { "host": "shop.example.com", "mocks": [
          { "name": "any item", "request": { "path": "/items/**" }, "response": { "text": "some item" } },
          { "name": "the special item", "request": { "method": "GET", "path": "/items/special" },
            "responses": [ { "text": "first", "times": 2 }, { "status": 202, "json": { "b": 1, "a": [true, null, 2.5] } } ] },
          { "name": "exact query", "request": { "path": "/find", "query": { "q": "a b", "n": ["1", "2"] } },
            "response": { "text": "found {{query.q}}", "template": true } },
          { "name": "no cookie", "request": { "path": "/private", "headers": { "Cookie": { "present": false } } },
            "response": { "status": 401, "base64": "AAEC/w==" } },
          { "name": "login", "request": { "method": "POST", "path": "/login",
              "body": { "json": { "user": "ann", "password": "REDACTED" }, "wildcard": "REDACTED" } },
            "response": { "status": 204 } },
          { "name": "echo", "request": { "method": ["PUT", "PATCH"], "path": "/echo/*", "body": { "contains": "hello" } },
            "response": { "text": "{{method}} {{path.1}} {{header.X-Trace}}", "template": true, "contentType": "text/x-echo" } },
          { "name": "stream", "request": { "path": "/events" },
            "response": { "parts": [ { "after": 0, "text": "data: 1\n\n" }, { "after": 0.01, "text": "data: 2\n\n" } ] } }
        ] }
        """#.utf8).write(to: source.appendingPathComponent("shop.mock.json"))
        let folder = try scratch()
        let outcome = try WireMockConversion.convertMappings(at: source, into: folder)
        #expect(outcome.mappings == 9)
        // A stream is kept whole: its parts in the mapping's metadata, so no note is needed.
        #expect(outcome.notes.isEmpty, "\(outcome.notes)")
        let base = "https://shop.example.com"
        let requests = [
            request("GET", base + "/items/special"), request("GET", base + "/items/special"),
            request("GET", base + "/items/special"), request("GET", base + "/items/special"),
            request("POST", base + "/items/special"), request("GET", base + "/items/a/b"),
            request("GET", base + "/find?n=2&q=a%20b&n=1"), request("GET", base + "/find?q=a%20b&n=1&n=2&more=1"),
            request("GET", base + "/find?q=a%20b&n=1"),
            request("GET", base + "/private"), request("GET", base + "/private", headers: ["Cookie": "s=1"]),
            request("POST", base + "/login", body: #"{"password": "hunter2", "user": "ann"}"#),
            request("POST", base + "/login", body: #"{"password": "hunter2", "user": "bob"}"#),
            request("PATCH", base + "/echo/7", headers: ["X-Trace": "t-1"], body: "say hello"),
            request("PUT", base + "/echo/7", body: "bye"),
            request("GET", base + "/events"),
            request("GET", "https://other.example.com/items/special"),
        ]
        let original = HTTPMock()
        try original.loadMappings(from: source)
        let expected = await fullAnswers(original, requests)
        #expect(expected[0].hasSuffix(" first") && expected[1].hasSuffix(" first") && expected[2].hasPrefix("202"))
        #expect(expected[4].hasSuffix(" some item") && expected[7] == "404 no stub answered" && expected[11].hasPrefix("204"))
        // Under HTTPMock's ranking and under WireMock's (the most recently added first among equal priorities).
        for ranking in [WireMockRanking.specificity, .mostRecentlyAdded] {
            let converted = HTTPMock()
            try converted.loadWireMockMappings(from: folder, ranking: ranking)
            #expect(await fullAnswers(converted, requests) == expected, "ranking \(ranking)")
        }
    }

    @Test func everyBadMappingFileIsNamedAndNothingIsWritten() throws {
        let source = try scratch()
        try Data(#"{ "mocks": [ { "request": { "path": "/a/{id}" }, "response": { "text": "{{path.name}}", "template": true } } ] }"#.utf8)
            .write(to: source.appendingPathComponent("a.mock.json"))
        try Data(#"{ "mocks": [ { "request": { "path": "/b" }, "responses": [ { "text": "x", "times": 1001 }, { "text": "y" } ] } ] }"#.utf8)
            .write(to: source.appendingPathComponent("b.mock.json"))
        try Data(#"{ "mocks": [ { "request": { "path": "/c" }, "response": { "file": "../outside.txt" } } ] }"#.utf8)
            .write(to: source.appendingPathComponent("c.mock.json"))
        let folder = try scratch()
        #expect {
            try WireMockConversion.convertMappings(at: source, into: folder)
        } throws: { error in
            let text = "\(error)"
            return text.contains("a.mock.json at mocks[0]") && text.contains("{{path.name}}") && text.contains("c.mock.json at mocks[0]")
                && text.contains("2 problems")
        }
        try Data(#"{ "mocks": [ { "request": { "path": "/b" }, "responses": [ { "text": "x", "times": 1001 }, { "text": "y" } ] } ] }"#.utf8)
            .write(to: source.appendingPathComponent("a.mock.json"))
        try FileManager.default.removeItem(at: source.appendingPathComponent("c.mock.json"))
        #expect {
            try WireMockConversion.convertMappings(at: source, into: folder)
        } throws: { error in
            "\(error)".contains("a.mock.json at mocks[0].responses[0].times") && "\(error)".contains("b.mock.json at mocks[0].responses[0].times")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("mappings").path))
    }
}
