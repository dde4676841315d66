import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
@testable import HTTPMock

/// `"key": null` in a WireMock mapping: an optional key given null is read as absent, as WireMock 2.35.1 reads it
/// (IntegrationTests/wiremock-oracle holds the same against WireMock's jar); a null where a value is needed (an
/// operand of a value pattern, a header, a request) is refused, never read as a test every request meets.
@Suite struct WireMockNullKeysTests {
    /// A mapping and requests it is tried with (method, path, headers, body).
    private struct Base {
        let mapping: [String: Any]
        let requests: [(method: String, path: String, headers: [String: String], body: String?)]
        /// The modifiers its value patterns may be given null (key paths to the pattern).
        let patterns: [(path: [String], modifiers: [String])]
    }

    // Built for each use: `[String: Any]` is not Sendable.
    private static var bases: [Base] { [
        Base(mapping: ["request": ["method": "GET", "urlPath": "/a", "queryParameters": ["q": ["equalTo": "1"]]],
                       "response": ["status": 201, "body": "a", "headers": ["X-A": "1"]]],
             requests: [("GET", "/a?q=1", [:], nil), ("GET", "/a?q=2", [:], nil), ("POST", "/a?q=1", [:], nil), ("GET", "/b", [:], nil)],
             patterns: [(["request", "queryParameters", "q"], ["caseInsensitive"])]),
        Base(mapping: ["request": ["method": "POST", "url": "/b", "bodyPatterns": [["equalToJson": ["x": [1, 2]]]]],
                       "response": ["jsonBody": ["ok": true], "headers": ["Content-Type": "application/json"]]],
             requests: [("POST", "/b", [:], #"{"x": [1, 2]}"#), ("POST", "/b", [:], #"{"x": [2, 1]}"#),
                        ("POST", "/b", [:], #"{"x": [1, 2], "y": 3}"#), ("GET", "/b", [:], nil)],
             patterns: [(["request", "bodyPatterns", "0"], ["ignoreArrayOrder", "ignoreExtraElements"])]),
        Base(mapping: ["request": ["urlPathPattern": "/c/[a-z]+", "headers": ["X-C": ["equalTo": "Abc"]]],
                       "response": ["body": "c {{request.path.[1]}}", "transformers": ["response-template"]]],
             requests: [("GET", "/c/one", ["X-C": "Abc"], nil), ("PUT", "/c/two", ["X-C": "Abc"], nil),
                        ("GET", "/c/one", ["X-C": "abc"], nil), ("GET", "/c/1", ["X-C": "Abc"], nil), ("GET", "/c/one", [:], nil)],
             patterns: [(["request", "headers", "X-C"], ["caseInsensitive"])]),
        Base(mapping: ["scenarioName": "s", "newScenarioState": "next",
                       "request": ["method": "DELETE", "urlPath": "/d"], "response": ["status": 204]],
             requests: [("DELETE", "/d", [:], nil), ("DELETE", "/d", [:], nil), ("GET", "/d", [:], nil)],
             patterns: []),
    ] }

    /// `value` with `null` set at `path` (objects only; a number names an array's element).
    private static func setting(_ path: ArraySlice<String>, in value: Any) -> Any {
        guard let key = path.first else { return value }
        if var array = value as? [Any], let index = Int(key) {
            array[index] = setting(path.dropFirst(), in: array[index])
            return array
        }
        var object = value as? [String: Any] ?? [:]
        object[key] = path.count == 1 ? NSNull() : setting(path.dropFirst(), in: object[key] ?? [String: Any]())
        return object
    }

    /// Each request's status, body and `X-A`/`Content-Type` headers, in order.
    private static func answers(_ mapping: [String: Any], _ base: Base) async throws -> [String] {
        let text = String(decoding: try JSONSerialization.data(withJSONObject: mapping, options: [.sortedKeys]), as: UTF8.self)
        let root = try WireMockBadInputTests.folder(["mappings/m.json": text])
        defer { try? FileManager.default.removeItem(at: root) }
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: root)
        var answers: [String] = []
        for request in base.requests {
            let reply = try await mock.urlSession.fetch("http://localhost" + request.path, method: request.method, headers: request.headers,
                                                        body: request.body.map { Data($0.utf8) })
            answers.append("\(reply.status) \(reply.text) \(reply.header("X-A") ?? "-") \(reply.header("Content-Type") ?? "-")")
        }
        return answers
    }

    @Test("every optional key given null loads the same mapping as without it, lists the same, and answers the same")
    func nullIsAbsent() async throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("WireMock null keys: seed \(seed)")
        var random = SplitMix(seed: seed)
        // Every key the decoder knows at each level, from its own lists: a key added later is covered too.
        let levels: [(path: [String], keys: [String])] = [
            ([], WireMockStubMapping.keys), (["request"], WireMockRequest.keys), (["response"], WireMockResponse.keys),
        ]
        for (number, base) in Self.bases.enumerated() {
            let expected = try await Self.answers(base.mapping, base)
            // Each absent key alone, then random sets of them with the patterns' modifiers.
            var absent: [[String]] = []
            for level in levels {
                let present = (level.path.isEmpty ? base.mapping : base.mapping[level.path[0]] as? [String: Any] ?? [:]).keys
                absent += level.keys.filter { !present.contains($0) }.map { level.path + [$0] }
            }
            let modifiers = base.patterns.flatMap { pattern in pattern.modifiers.map { pattern.path + [$0] } }
            var trials: [[[String]]] = (absent + modifiers).map { [$0] }
            for _ in 0..<6 {
                trials.append((absent + modifiers).filter { _ in random.next() % 2 == 0 })
            }
            for nulls in trials {
                var mapping: Any = base.mapping
                for path in nulls { mapping = Self.setting(path[...], in: mapping) }
                let given = try #require(mapping as? [String: Any])
                let shown = nulls.map { $0.joined(separator: ".") }
                #expect(try await Self.answers(given, base) == expected, "seed \(seed), mapping \(number), null at \(shown)")
                // Listed (over WireMock's admin API, and when saved) without the keys given null, as WireMock lists it.
                guard !nulls.contains(where: { modifiers.contains($0) }) else { continue }
                let withID = given.merging(["id": "6f1c3a52-0d0e-4b8e-9a51-3c0f5b7e2a10"]) { $1 }
                let listed = try WireMockStubMapping(json: try JSONSerialization.data(withJSONObject: withID), source: "m.json").json
                let plain = try WireMockStubMapping(json: try JSONSerialization.data(withJSONObject: base.mapping.merging(
                    ["id": "6f1c3a52-0d0e-4b8e-9a51-3c0f5b7e2a10"]) { $1 }), source: "m.json").json
                #expect(try JSONSerialization.jsonObject(with: listed) as? NSDictionary == JSONSerialization.jsonObject(with: plain) as? NSDictionary,
                        "seed \(seed), mapping \(number), null at \(shown): \(String(decoding: listed, as: UTF8.self))")
            }
        }
    }

    @Test("a null operand, header, request or required value is refused, naming where it is and what to give")
    func nullWhereAValueIsNeeded() throws {
        let cases: [(mapping: String, place: String, message: String)] = [
            (#"{"request": null, "response": {"body": "x"}}"#, "mappings/bad.json at the top level", #""request" is null; give the request this mapping answers"#),
            (#"{"request": {"headers": {"X": {"equalTo": null}}}}"#, "at request.headers.X.equalTo", #""equalTo" is null; give what it tests, such as {"equalTo": "…"}"#),
            (#"{"request": {"headers": {"X": {"absent": null}}}}"#, "at request.headers.X.absent", #"such as {"absent": true}"#),
            (#"{"request": {"queryParameters": {"q": {"matches": null, "caseInsensitive": true}}}}"#, "at request.queryParameters.q.matches", #""matches" is null"#),
            (#"{"request": {"cookies": {"c": {"not": null}}}}"#, "at request.cookies.c.not", #""not" is null"#),
            (#"{"request": {"bodyPatterns": [{"equalToJson": null}]}}"#, "at request.bodyPatterns[0].equalToJson", #""equalToJson" is null"#),
            (#"{"request": {"bodyPatterns": [{"and": null}]}}"#, "at request.bodyPatterns[0].and", #""and" is null"#),
            (#"{"request": {"bodyPatterns": [null]}}"#, "at request.bodyPatterns[0]", "expected a value pattern such as"),
            (#"{"request": {"headers": {"X": null}}}"#, "at request.headers.X", "expected a value pattern such as"),
            (#"{"request": {"method": {"oneOf": null}}}"#, "at request.method", #"one of "oneOf" and "noneOf""#),
            (#"{"request": {"basicAuthCredentials": {"username": null, "password": "p"}}}"#, "at request.basicAuthCredentials", #"needs "username" and "password""#),
            (#"{"request": {}, "response": {"headers": {"X": null}}}"#, "at response.headers.X", "expected a string, not null"),
            (#"{"request": {}, "response": {"transformers": [null]}}"#, "at response.transformers[0]", "expected a string, not null"),
            (#"{"request": {}, "response": {"chunkedDribbleDelay": {"numberOfChunks": null, "totalDuration": 10}}}"#, "at response.chunkedDribbleDelay", "needs"),
            (#"{"request": {}, "response": {"delayDistribution": {"type": "uniform", "lower": null, "upper": 5}}}"#, "at response.delayDistribution", #"needs "lower" and "upper""#),
            (#"{"request": {}, "response": {"proxyBaseUrl": "http://127.0.0.1:8081", "additionalProxyRequestHeaders": {"X": null}}}"#,
             "at response.additionalProxyRequestHeaders.X", "expected a string, not null"),
        ]
        for (mapping, place, message) in cases {
            let root = try WireMockBadInputTests.folder(["mappings/bad.json": mapping])
            defer { try? FileManager.default.removeItem(at: root) }
            let mock = HTTPMock()
            #expect {
                try mock.loadWireMockMappings(from: root)
            } throws: { error in
                "\(error)".contains(place) && "\(error)".contains(message)
            }
            #expect(mock.stubUsage.isEmpty, "\(mapping)")
            // The admin API reads a mapping with the same decoder.
            #expect(throws: HTTPMockError.self, "\(mapping)") { try WireMockStubMapping(json: Data(mapping.utf8), source: "the mapping") }
        }
    }

    @Test("null keys read as absent in a request pattern alone, as the admin API counts and finds requests with")
    func requestPatternAlone() throws {
        let matches = try WireMockStubMapping.requestPattern(json: Data(#"{"method": "GET", "url": null, "urlPath": "/x", "headers": null, "bodyPatterns": null}"#.utf8),
                                                             source: "the pattern")
        let plain = try WireMockStubMapping.requestPattern(json: Data(#"{"method": "GET", "urlPath": "/x"}"#.utf8), source: "the pattern")
        #expect(matches.count == plain.count && !matches.isEmpty)
        #expect(throws: HTTPMockError.self) {
            try WireMockStubMapping.requestPattern(json: Data(#"{"urlPath": "/x", "headers": {"A": {"contains": null}}}"#.utf8), source: "the pattern")
        }
    }
}

/// `null` in a WireMock message mapping where a pattern is written: refused, never read as absent (a trigger with
/// no body or channel pattern fires on every message of every channel).
@Suite struct WireMockMessageMappingNullTests {
    private static let action = #""actions": [{"type": "send", "message": {"body": {"data": "pong"}}}]"#

    @Test("a message trigger's pattern given null is refused, naming where it is; left out, it loads", arguments: [
        (#"{"type": "message", "message": {"body": null}}"#, "at trigger.message.body", #"{"type": "message", "message": {}}"#),
        (#"{"type": "message", "message": {"body": {"equalTo": "ping"}, "channel": null}}"#, "at trigger.message.channel",
         #"{"type": "message", "message": {"body": {"equalTo": "ping"}}}"#),
        (#"{"type": "message", "channel": {"initiatingRequestPattern": null}, "message": {"body": {"equalTo": "ping"}}}"#,
         "at trigger.channel.initiatingRequestPattern", #"{"type": "message", "channel": {}, "message": {"body": {"equalTo": "ping"}}}"#),
        (#"{"type": "message", "channel": null, "message": {"body": {"equalTo": "ping"}}}"#, "at trigger.channel",
         #"{"type": "message", "message": {"body": {"equalTo": "ping"}}}"#),
        (#"{"type": "message", "channel": {"type": "websocket"}, "message": null}"#, "at trigger.message",
         #"{"type": "message", "channel": {"type": "websocket"}}"#),
    ])
    func patternGivenNull(trigger: String, place: String, left: String) throws {
        let mock = HTTPMock()
        let json = #"{"name": "n", "trigger": \#(trigger), \#(Self.action)}"#
        #expect {
            try mock.readMessageMappings(Data(json.utf8), source: "m.json", filesFolder: nil)
        } throws: { error in
            "\(error)".contains(place) && "\(error)".contains("is null")
        }
        // The same key left out loads (a trigger may leave its channel or body open on purpose).
        let stubs = try mock.readMessageMappings(Data(#"{"name": "n", "trigger": \#(left), \#(Self.action)}"#.utf8),
                                                 source: "m.json", filesFolder: nil)
        #expect(stubs.count == 1, "\(left)")
    }

    @Test("a sent message whose data is null is refused as one without data, not sent empty")
    func sentDataGivenNull() throws {
        let mock = HTTPMock()
        for body in [#"{"data": null}"#, #"{"data": null, "filePath": null}"#, #"{"data": null, "encoding": "binary"}"#] {
            let json = #"{"trigger": {"type": "message"}, "actions": [{"type": "send", "message": {"body": \#(body)}}]}"#
            #expect {
                try mock.readMessageMappings(Data(json.utf8), source: "m.json", filesFolder: nil)
            } throws: { error in
                "\(error)".contains("at actions[0].message.body") && "\(error)".contains("needs \"data\" or \"filePath\"")
            }
        }
    }
}
