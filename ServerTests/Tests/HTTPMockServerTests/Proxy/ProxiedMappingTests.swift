import Foundation
import HTTPMock
import HTTPMockServer
import Testing

/// WireMock's `proxyBaseUrl` over the socket: a mapping whose answer is another server's. The upstream is another
/// HTTPMockServer on 127.0.0.1.
@Suite("A WireMock mapping with proxyBaseUrl is answered by the server it names; its webhooks go after the answer")
struct ProxiedMappingTests {
    @Test("the request goes on to the mapping's base URL, rewritten as WireMock does; the answer comes back as it is")
    func forwardsToTheMappingsTarget() async throws {
        let upstream = HTTPMock()
        upstream.addResponses(forPath: "/base/orders/9", method: .put) {
            MockResponse.plaintext("updated", status: .accepted, headers: ["X-Upstream": "yes"])
        }
        try await HTTPMockServer.withServer(serving: upstream) { upstreamServer in
            let target = upstreamServer.baseURL.absoluteString + "/base"
            let folder = try temporaryFolder([
                "mappings/proxy.json": #"""
                    {"request": {"urlPathPattern": "/api/.*"},
                     "response": {"proxyBaseUrl": "\#(target)", "proxyUrlPrefixToRemove": "/api",
                                  "additionalProxyRequestHeaders": {"X-Via": "front"}, "removeProxyRequestHeaders": ["Cookie"]}}
                    """#,
                "mappings/local.json": #"{"request": {"urlPath": "/local"}, "response": {"body": "front"}}"#,
            ])
            let front = HTTPMock()
            try front.loadWireMockMappings(from: folder)
            try await HTTPMockServer.withServer(serving: front) { server in
                let reply = try await call("PUT", server.baseURL.adding("/api/orders/9?v=2"), body: "{}",
                                           headers: ["Cookie": "session=1", "X-Trace": "t"])
                #expect(reply.status == 202)
                #expect(reply.text == "updated")
                #expect(reply.headers["x-upstream"] == "yes")
                let sent = try #require(upstream.journal.last?.request)
                #expect(sent.path == "/base/orders/9")
                #expect(sent.queryValues(for: "v") == ["2"])
                #expect(sent.headers["X-Via"] == "front" && sent.headers["X-Trace"] == "t" && sent.headers["Cookie"] == nil)
                #expect(sent.bodyText == "{}")
                #expect(front.journal.last?.statusCode == 202)
                #expect(try await call("GET", server.baseURL.adding("/local")).text == "front")
                #expect(upstream.journal.count == 1)
            }
        }
    }

    @Test("a templated proxyBaseUrl is rendered for each request: to the loopback server it names, or refused with 500 when it names another host")
    func templatedTargetPerRequest() async throws {
        let upstream = HTTPMock()
        upstream.addResponses(forPath: "/base/orders/9") { MockResponse.plaintext("from upstream", lifetime: .eternal) }
        try await HTTPMockServer.withServer(serving: upstream) { upstreamServer in
            let port = try #require(upstreamServer.baseURL.port)
            let folder = try temporaryFolder([
                "mappings/proxy.json": #"""
                    {"request": {"urlPathPattern": "/api/.*"},
                     "response": {"proxyBaseUrl": "http://{{request.headers.X-Target}}:{{request.headers.X-Port}}/base",
                                  "proxyUrlPrefixToRemove": "/api", "transformers": ["response-template"]}}
                    """#,
            ])
            let front = HTTPMock()
            try front.loadWireMockMappings(from: folder)
            try await HTTPMockServer.withServer(serving: front) { server in
                let reply = try await call("GET", server.baseURL.adding("/api/orders/9"), headers: ["X-Target": "127.0.0.1", "X-Port": "\(port)"])
                #expect(reply.status == 200 && reply.text == "from upstream")
                #expect(upstream.journal.count == 1)
                let refused = try await call("GET", server.baseURL.adding("/api/orders/9"),
                                             headers: ["X-Target": "upstream.example.com", "X-Port": "\(port)"])
                #expect(refused.status == 500)
                #expect(refused.text.contains("mappings/proxy.json") && refused.text.contains("upstream.example.com, beyond this machine"))
                #expect(refused.text.contains("--allow-proxy-to upstream.example.com"))
                #expect(front.journal.last?.statusCode == 500)
                // Nothing went out for the refused one.
                #expect(upstream.journal.count == 1)
            }
        }
    }

    @Test("a webhook goes to its loopback target after the server has answered, and is kept with the answered request")
    func webhookAfterTheAnswer() async throws {
        let receiver = HTTPMock()
        let arrived = AsyncStream.makeStream(of: String.self)
        receiver.addResponses(forPath: "/hooks/paid", method: .post) {
            MockResponse.dynamic(lifetime: .eternal) { request, _ in
                arrived.continuation.yield(request.bodyText ?? "")
                return .empty(status: .noContent)
            }
        }
        try await HTTPMockServer.withServer(serving: receiver) { receiverServer async throws in
            let folder = try temporaryFolder([
                "mappings/pay.json": #"""
                    {"request": {"method": "POST", "urlPath": "/pay"}, "response": {"status": 200, "body": "paid"},
                     "serveEventListeners": [{"name": "webhook", "parameters": {
                       "url": "\#(receiverServer.baseURL.absoluteString)/hooks/paid", "body": "paid {{originalRequest.body}}"}}]}
                    """#,
            ])
            let front = HTTPMock()
            try front.loadWireMockMappings(from: folder)
            try await HTTPMockServer.withServer(serving: front) { server async throws in
                #expect(try await call("POST", server.baseURL.adding("/pay"), body: "order 7").text == "paid")
            }
            // A bound against a hang: a webhook that never comes ends the stream, and the test fails.
            let watchdog = Task { try await Task.sleep(nanoseconds: 60_000_000_000); arrived.continuation.finish() }
            defer { watchdog.cancel() }
            var iterator = arrived.stream.makeAsyncIterator()
            #expect(await iterator.next() == "paid order 7")
        }
    }

    @Test("httpmock check refuses a proxyBaseUrl beyond this machine, and passes it with --allow-proxy-to",
          .disabled(if: runsUnderAddressSanitizer, "launches processes"))
    func onlyLoopbackUnlessAllowed() async throws {
        let folder = try temporaryFolder([
            "mappings/proxy.json": #"{"request": {"urlPath": "/x"}, "response": {"proxyBaseUrl": "https://staging.example.com"}}"#,
        ])
        let refused = try await ChildProcess.runToEnd("httpmock", arguments: ["check", folder.path])
        #expect(refused.status == 1)
        #expect(refused.output.contains("staging.example.com, beyond this machine") && refused.output.contains("--allow-proxy-to"))
        let allowed = try await ChildProcess.runToEnd("httpmock", arguments: ["check", folder.path, "--allow-proxy-to", "staging.example.com"])
        #expect(allowed.status == 0, "\(allowed.output)\(allowed.errors)")
    }
}
