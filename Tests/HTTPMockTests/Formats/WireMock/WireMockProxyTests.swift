import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
@testable import HTTPMock

/// WireMock's `proxyBaseUrl` in process: the mapping's request goes on through the mock's passthrough session (here
/// another mock standing in for the upstream server), rewritten as WireMock rewrites it, and only to loopback unless
/// the host is allowed.
@Suite struct WireMockProxyTests {
    @Test("a proxied mapping sends the request on to its base URL and relays the answer; other mappings still answer")
    func forwardsAndRelays() async throws {
        let upstream = HTTPMock()
        upstream.addResponses(forPath: "/base/users/7", host: "127.0.0.1:8081") {
            MockResponse.plaintext(#"{"id":7}"#, status: .created, headers: ["X-Upstream": "yes"])
        }
        let mock = HTTPMock(passthroughSession: upstream.urlSession)
        try mock.loadWireMockMappings(from: try WireMockBadInputTests.folder(["mappings/all.json": #"""
            {"mappings": [
              {"priority": 10, "request": {"urlPattern": "/api/.*"},
               "response": {"proxyBaseUrl": "http://127.0.0.1:8081/base", "proxyUrlPrefixToRemove": "/api",
                            "additionalProxyRequestHeaders": {"X-Via": "mock", "Authorization": "Bearer upstream"},
                            "removeProxyRequestHeaders": ["X-Secret"]}},
              {"request": {"urlPath": "/api/local"}, "response": {"body": "stubbed"}}
            ]}
            """#]))
        let reply = try await mock.urlSession.fetch("https://app.example.com/api/users/7?full=1", method: "POST",
                                                    headers: ["X-Secret": "s", "Authorization": "Bearer app", "X-Kept": "k"],
                                                    body: Data("hi".utf8))
        #expect(reply.status == 201)
        #expect(reply.text == #"{"id":7}"#)
        #expect(reply.header("X-Upstream") == "yes")
        let sent = try #require(upstream.journal.last?.request)
        #expect(sent.url.absoluteString == "http://127.0.0.1:8081/base/users/7?full=1")
        #expect(sent.method == "POST" && sent.body == Data("hi".utf8))
        #expect(sent.headers["X-Secret"] == nil && sent.headers["X-Kept"] == "k" && sent.headers["X-Via"] == "mock")
        #expect(sent.headers["Authorization"] == "Bearer upstream")
        // The mock's journal has the stub's answer: what the upstream sent.
        if case .response(let status, _, let body)? = mock.journal.first?.outcome {
            #expect(status == 201 && body == Data(#"{"id":7}"#.utf8))
        } else {
            Issue.record("the proxied request is journaled with the upstream's answer")
        }
        #expect(try await mock.urlSession.fetch("https://app.example.com/api/local").text == "stubbed")
        #expect(upstream.journal.count == 1)
    }

    @Test("a proxyBaseUrl beyond this machine is refused unless its host is allowed; proxy fields need proxyBaseUrl")
    func onlyLoopbackUnlessAllowed() throws {
        let folder = try WireMockBadInputTests.folder(["mappings/p.json": #"""
            {"request": {"urlPath": "/x"}, "response": {"proxyBaseUrl": "https://staging.example.com"}}
            """#])
        let mock = HTTPMock()
        #expect {
            try mock.loadWireMockMappings(from: folder)
        } throws: { error in
            let text = "\(error)"
            return text.contains("mappings/p.json") && text.contains("staging.example.com, beyond this machine")
                && text.contains("mock.allowedProxyHosts")
        }
        mock.allowedProxyHosts = ["STAGING.example.com"]
        #expect(throws: Never.self) { try mock.loadWireMockMappings(from: folder) }
        for (response, message) in [
            (#"{"proxyUrlPrefixToRemove": "/api"}"#, #""proxyUrlPrefixToRemove" applies to a proxied response"#),
            (#"{"proxyBaseUrl": "ftp://127.0.0.1"}"#, "is not a base URL to proxy to"),
            (#"{"proxyBaseUrl": "http://127.0.0.1:8081?a=b"}"#, "is not a base URL to proxy to"),
        ] {
            let bad = try WireMockBadInputTests.folder(["mappings/p.json": #"{"request": {"urlPath": "/x"}, "response": "# + response + "}"])
            #expect { try HTTPMock().loadWireMockMappings(from: bad) } throws: { "\($0)".contains(message) }
        }
    }

    /// An upstream that answers every request with the host, port and path it was sent to.
    private func echoingUpstream() -> HTTPMock {
        let upstream = HTTPMock()
        upstream.addResponses(forPath: "/**", host: "**") {
            MockResponse.dynamic(lifetime: .eternal) { request, _ in
                .plaintext("\(request.url.host ?? ""):\(request.url.port ?? 0)\(request.url.path)")
            }
        }
        return upstream
    }

    private static let templatedProxy = #"""
        {"request": {"urlPathPattern": "/api/.*"},
         "response": {"proxyBaseUrl": "http://{{request.headers.X-Target}}:{{request.headers.X-Port}}/base",
                      "proxyUrlPrefixToRemove": "/api", "transformers": ["response-template"]}}
        """#

    @Test("a templated proxyBaseUrl loads and is rendered for each request: each goes to the loopback target its headers name")
    func templatedTargetPerRequest() async throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("templated proxy targets: seed \(seed)")
        var random = SplitMix(seed: seed)
        let upstream = echoingUpstream()
        let mock = HTTPMock(passthroughSession: upstream.urlSession)
        try mock.loadWireMockMappings(from: try WireMockBadInputTests.folder(["mappings/p.json": Self.templatedProxy]))
        let hosts = ["127.0.0.1", "localhost", "127.0.0.2", "127.1.2.3", "api.localhost"]
        for index in 0..<12 {
            let host = hosts[Int(random.next() % UInt64(hosts.count))]
            let port = 1024 + Int(random.next() % 60_000)
            let reply = try await mock.urlSession.fetch("https://app.example.com/api/users/\(index)",
                                                        headers: ["X-Target": host, "X-Port": "\(port)"])
            #expect(reply.status == 200, "seed \(seed), case \(index)")
            #expect(reply.text == "\(host):\(port)/base/users/\(index)", "seed \(seed), case \(index)")
        }
        #expect(upstream.journal.count == 12)
    }

    @Test("a templated proxyBaseUrl that renders to a host beyond this machine is refused when the request is answered, and nothing is sent")
    func templatedTargetRefusedWhenAnswered() async throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("refused templated proxy targets: seed \(seed)")
        var random = SplitMix(seed: seed)
        func label() -> String { String((0..<(3 + Int(random.next() % 6))).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement(using: &random)! }) }
        let upstream = echoingUpstream()
        let mock = HTTPMock(passthroughSession: upstream.urlSession)
        // Loads: the host is not known until a request names it.
        try mock.loadWireMockMappings(from: try WireMockBadInputTests.folder(["mappings/p.json": Self.templatedProxy]))
        var refused: [String] = []
        for index in 0..<12 {
            let host = switch random.next() % 7 {
            case 0: "\(label()).example.com"
            case 1: "10.\(random.next() % 256).\(random.next() % 256).\(random.next() % 256)"
            case 2: "128.0.0.\(1 + random.next() % 254)"
            case 3: "127.0.0.1.\(label()).com"
            case 4: "localhost.\(label()).com"
            case 5: "\(label())localhost"
            default: "0.0.0.0"
            }
            refused.append(host)
            let reply = try await mock.urlSession.fetch("https://app.example.com/api/x", headers: ["X-Target": host, "X-Port": "8081"])
            #expect(reply.status == 500, "seed \(seed), case \(index): \(host)")
            #expect(reply.text.contains("mappings/p.json") && reply.text.contains("\(host), beyond this machine")
                    && reply.text.contains("mock.allowedProxyHosts = [\"\(host)\"]"), "seed \(seed), case \(index): \(reply.text)")
            #expect(mock.journal.last?.statusCode == 500)
        }
        #expect(upstream.journal.isEmpty, "seed \(seed): \(upstream.journal.map(\.request.url))")
        // Checked when answered, against the hosts allowed then.
        mock.allowedProxyHosts = [refused[0]]
        let reply = try await mock.urlSession.fetch("https://app.example.com/api/x", headers: ["X-Target": refused[0], "X-Port": "8081"])
        #expect(reply.status == 200 && reply.text == "\(refused[0]):8081/base/x", "seed \(seed)")
        #expect(upstream.journal.count == 1)
    }

    @Test("a templated proxyBaseUrl that renders to no base URL answers 500 saying what it rendered to; without templating, how to turn it on")
    func malformedRenderingRefused() async throws {
        let upstream = echoingUpstream()
        let mock = HTTPMock(passthroughSession: upstream.urlSession)
        try mock.loadWireMockMappings(from: try WireMockBadInputTests.folder([
            "mappings/p.json": #"{"request": {"urlPath": "/p"}, "response": {"proxyBaseUrl": "{{request.headers.X-Target}}", "transformers": ["response-template"]}}"#,
            "mappings/plain.json": #"{"request": {"urlPath": "/plain"}, "response": {"proxyBaseUrl": "http://{{request.headers.X-Target}}"}}"#,
        ]))
        for target in ["", "ftp://127.0.0.1", "127.0.0.1:8081", "http://", "http://127.0.0.1:8081/x?q=1", "http://127.0.0.1#top",
                       "http://upstream.example.com@127.0.0.1", "not a url", "http://127.0.0.1:99999999999"] {
            let reply = try await mock.urlSession.fetch("https://app.example.com/p", headers: ["X-Target": target])
            #expect(reply.status == 500, "\(target)")
            #expect(reply.text.contains("mappings/p.json at response.proxyBaseUrl") && reply.text.contains("is not a base URL to proxy to"),
                    "\(target): \(reply.text)")
        }
        // A long rendering is quoted in part.
        let long = "ftp://127.0.0.1/" + String(repeating: "a", count: 8_000)
        let reply = try await mock.urlSession.fetch("https://app.example.com/p", headers: ["X-Target": long])
        #expect(reply.status == 500 && reply.text.contains("…") && reply.text.count < 1_000)
        // WireMock renders proxyBaseUrl only when the response is templated: the text stays as it is, and says so.
        let plain = try await mock.urlSession.fetch("https://app.example.com/plain", headers: ["X-Target": "127.0.0.1"])
        #expect(plain.status == 500)
        #expect(plain.text.contains(#""transformers": ["response-template"]"#), "\(plain.text)")
        #expect(upstream.journal.isEmpty, "sent: \(upstream.journal.map { $0.request.url.absoluteString.prefix(80) })")
    }

    private static let templatedHeaders = #"""
        {"mappings": [
          {"request": {"urlPathPattern": "/api/.*"},
           "response": {"proxyBaseUrl": "http://127.0.0.1:8081/base", "proxyUrlPrefixToRemove": "/api", "transformers": ["response-template"],
                        "additionalProxyRequestHeaders": {"X-Id": "id={{request.headers.X-Id}}", "X-Segment": "{{request.path.[2]}}",
                                                          "X-Fixed": "fixed", "X-Method": ["{{request.method}}"]}}},
          {"request": {"urlPathPattern": "/both/.*"},
           "response": {"proxyBaseUrl": "http://{{request.headers.X-Target}}:8081", "transformers": ["response-template"],
                        "additionalProxyRequestHeaders": {"X-Id": "{{request.headers.X-Id}}"}}},
          {"request": {"urlPathPattern": "/plain/.*"},
           "response": {"proxyBaseUrl": "http://127.0.0.1:8081", "additionalProxyRequestHeaders": {"X-Id": "id={{request.headers.X-Id}}"}}}
        ]}
        """#

    @Test("additionalProxyRequestHeaders are rendered for each request when the response is templated, as WireMock 3 renders them (unescaped); without templating they go as written")
    func templatedHeadersPerRequest() async throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("templated proxy headers: seed \(seed)")
        var random = SplitMix(seed: seed)
        func word() -> String { String((0..<(1 + Int(random.next() % 12))).map { _ in "abcXYZ0189-_.~".randomElement(using: &random)! }) }
        let upstream = echoingUpstream()
        let mock = HTTPMock(passthroughSession: upstream.urlSession)
        try mock.loadWireMockMappings(from: try WireMockBadInputTests.folder(["mappings/p.json": Self.templatedHeaders]))
        for index in 0..<12 {
            let (id, segment) = (word(), word())
            let method = ["GET", "POST", "PUT", "DELETE"][Int(random.next() % 4)]
            let reply = try await mock.urlSession.fetch("https://app.example.com/api/users/\(segment)?n=\(index)", method: method,
                                                        headers: ["X-Id": id, "X-Fixed": "mine"])
            #expect(reply.status == 200 && reply.text == "127.0.0.1:8081/base/users/\(segment)", "seed \(seed), case \(index): \(reply.text)")
            let sent = try #require(upstream.journal.last?.request)
            #expect(sent.headers["X-Id"] == "id=\(id)" && sent.headers["X-Segment"] == segment, "seed \(seed), case \(index): \(sent.headers)")
            #expect(sent.headers.values(for: "X-Fixed") == ["fixed"] && sent.headers["X-Method"] == method, "seed \(seed), case \(index): \(sent.headers)")
        }
        // `{{…}}` prints as it is, as in WireMock 3 (`id=<a&b>` reaches the upstream); a header not sent is empty.
        _ = try await mock.urlSession.fetch("https://app.example.com/api/x/y", headers: ["X-Id": "<a&b>"])
        #expect(upstream.journal.last?.request.headers["X-Id"] == "id=<a&b>")
        _ = try await mock.urlSession.fetch("https://app.example.com/api/x/y")
        #expect(upstream.journal.last?.request.headers["X-Id"] == "id=")
        // With a templated proxyBaseUrl too: both from the same request.
        let both = try await mock.urlSession.fetch("https://app.example.com/both/z", headers: ["X-Target": "127.0.0.7", "X-Id": "b7"])
        #expect(both.text == "127.0.0.7:8081/both/z" && upstream.journal.last?.request.headers["X-Id"] == "b7")
        // Not templated: sent as written, as WireMock sends it.
        _ = try await mock.urlSession.fetch("https://app.example.com/plain/p", headers: ["X-Id": "7"])
        #expect(upstream.journal.last?.request.headers["X-Id"] == "id={{request.headers.X-Id}}")
        #expect(upstream.journal.count == 16)
    }

    @Test("a templated additionalProxyRequestHeaders value that renders a line break or fails answers 500 saying where, and nothing is sent; a fixed base beyond this machine is still refused when loaded")
    func templatedHeadersRefused() async throws {
        let upstream = echoingUpstream()
        let mock = HTTPMock(passthroughSession: upstream.urlSession)
        try mock.loadWireMockMappings(from: try WireMockBadInputTests.folder(["mappings/p.json": #"""
            {"mappings": [
              {"request": {"urlPath": "/body"},
               "response": {"proxyBaseUrl": "http://127.0.0.1:8081", "transformers": ["response-template"],
                            "additionalProxyRequestHeaders": {"X-Body": "{{request.body}}"}}},
              {"request": {"urlPath": "/big"},
               "response": {"proxyBaseUrl": "http://127.0.0.1:8081", "transformers": ["response-template"],
                            "additionalProxyRequestHeaders": {"X-Big": ["ok", "{{#each (range 1 1000000)}}x{{/each}}"]}}}
            ]}
            """#]))
        for body in ["a\r\nX-Injected: 1", "a\nb", "a\rb", "nul\u{0}", "bell\u{7}", "del\u{7F}"] {
            let reply = try await mock.urlSession.fetch("https://app.example.com/body", method: "POST", body: Data(body.utf8))
            #expect(reply.status == 500, "\(body.debugDescription)")
            #expect(reply.text.contains("mappings/p.json mappings[0] at response.additionalProxyRequestHeaders.X-Body: rendered to")
                    && reply.text.contains("line break or another control character") && reply.text.contains("nothing was sent"),
                    "\(body.debugDescription): \(reply.text)")
        }
        let tabbed = try await mock.urlSession.fetch("https://app.example.com/body", method: "POST", body: Data("a\tb é".utf8))
        #expect(tabbed.status == 200 && upstream.journal.last?.request.headers["X-Body"] == "a\tb é")
        let big = try await mock.urlSession.fetch("https://app.example.com/big")
        #expect(big.status == 500)
        #expect(big.text.contains("mappings/p.json mappings[1] at response.additionalProxyRequestHeaders.X-Big[1]: the additionalProxyRequestHeaders template could not be rendered")
                && big.text.contains("more than the 100000 a template may build") && big.text.contains("nothing was sent"), "\(big.text)")
        #expect(upstream.journal.count == 1, "sent: \(upstream.journal.map(\.request.url))")

        let far = try WireMockBadInputTests.folder(["mappings/far.json": #"""
            {"request": {"urlPath": "/x"}, "response": {"proxyBaseUrl": "https://far.example.com", "transformers": ["response-template"],
                                                        "additionalProxyRequestHeaders": {"X-Id": "{{request.headers.X-Id}}"}}}
            """#])
        #expect { try HTTPMock().loadWireMockMappings(from: far) } throws: { "\($0)".contains("far.example.com, beyond this machine") }
        let bad = try WireMockBadInputTests.folder(["mappings/bad.json": #"""
            {"request": {"urlPath": "/x"}, "response": {"proxyBaseUrl": "http://127.0.0.1:1", "transformers": ["response-template"],
                                                        "additionalProxyRequestHeaders": {"X-Id": "{{#if}}"}}}
            """#])
        #expect { try HTTPMock().loadWireMockMappings(from: bad) } throws: { "\($0)".contains("mappings/bad.json at response.additionalProxyRequestHeaders.X-Id") }
    }

    @Test("a fixed proxyBaseUrl or webhook beyond this machine is still refused when loaded, every one at once; a templated one loads")
    func fixedTargetsStillRefusedAtLoad() throws {
        let folder = try WireMockBadInputTests.folder([
            "mappings/a.json": #"{"request": {"urlPath": "/a"}, "response": {"proxyBaseUrl": "https://a.example.com"}}"#,
            "mappings/b.json": #"{"request": {"urlPath": "/b"}, "serveEventListeners": [{"name": "webhook", "parameters": {"url": "https://b.example.com/in"}}]}"#,
            "mappings/c.json": #"{"request": {"urlPath": "/c"}, "response": {"proxyBaseUrl": "https://{{request.headers.X-C}}", "transformers": ["response-template"]}}"#,
        ])
        #expect {
            try HTTPMock().loadWireMockMappings(from: folder)
        } throws: { error in
            let text = "\(error)"
            return text.contains("mappings/a.json") && text.contains("a.example.com, beyond this machine")
                && text.contains("mappings/b.json") && text.contains("b.example.com, beyond this machine") && !text.contains("mappings/c.json")
        }
    }
}

/// SplitMix64: the same numbers for the same seed, on every platform.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
