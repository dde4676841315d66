import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
@testable import HTTPMock

/// WireMock's webhooks in process: sent after the response through the mock's passthrough session (here another
/// mock standing in for the receiving server), filled from the answered request, only to loopback unless allowed,
/// and kept with the answered request's journal entry.
@Suite struct WireMockWebhookTests {
    /// The journal entry `id` of `mock` once it holds `count` webhook records (a bound against a hang, not a timing
    /// assertion).
    private func entry(_ id: Int, of mock: HTTPMock, withWebhooks count: Int) async throws -> JournalEntry {
        for _ in 0..<2_000 {
            if let entry = mock.journal.first(where: { $0.id == id }), entry.webhooks.count >= count { return entry }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        Issue.record("entry \(id) never had \(count) webhook(s): \(mock.journal.map(\.webhooks))")
        throw CancellationError()
    }

    @Test("serveEventListeners and postServeActions send their webhooks after the response, filled from the request")
    func sendsAfterTheResponse() async throws {
        let receiver = HTTPMock()
        receiver.addResponses(forPath: "/callbacks/order", host: "127.0.0.1:9090", method: .post) {
            MockResponse.empty(status: .accepted, lifetime: .eternal)
        }
        receiver.addResponses(forPath: "/legacy", host: "localhost:9090", method: .put) { MockResponse.empty(status: .noContent) }
        let mock = HTTPMock(passthroughSession: receiver.urlSession)
        try mock.loadWireMockMappings(from: try WireMockBadInputTests.folder(["mappings/orders.json": #"""
            {"mappings": [
              {"request": {"method": "POST", "urlPath": "/orders"}, "response": {"status": 201, "body": "created"},
               "serveEventListeners": [{"name": "webhook", "requestPhases": ["AFTER_COMPLETE"], "parameters": {
                 "url": "http://127.0.0.1:9090/callbacks/order?id={{jsonPath originalRequest.body '$.id'}}",
                 "headers": {"Content-Type": "application/json", "X-Trace": "{{request.headers.X-Trace}}"},
                 "body": "{\"order\": {{jsonPath originalRequest.body '$.id'}}, \"state\": \"paid\"}"}}]},
              {"request": {"urlPath": "/legacy"}, "response": {"status": 200},
               "postServeActions": {"webhook": {"method": "PUT", "url": "http://localhost:9090/legacy", "base64Body": "AAE="}}}
            ]}
            """#]))
        let reply = try await mock.urlSession.fetch("https://shop.example.com/orders", method: "POST",
                                                    headers: ["X-Trace": "t-42"], body: Data(#"{"id": 42}"#.utf8))
        #expect(reply.status == 201 && reply.text == "created")
        let answered = try await entry(0, of: mock, withWebhooks: 1)
        #expect(answered.webhooks == [WebhookRecord(method: "POST", url: "http://127.0.0.1:9090/callbacks/order?id=42", status: 202,
                                                    error: nil, completedAt: answered.webhooks[0].completedAt)])
        let sent = try #require(receiver.journal.first?.request)
        #expect(sent.method == "POST" && sent.headers["X-Trace"] == "t-42" && sent.headers["Content-Type"] == "application/json")
        #expect(sent.bodyText == #"{"order": 42, "state": "paid"}"#)
        // The webhook followed the response: the client had its answer first.
        #expect(try #require(mock.journal.first?.completedAt) <= answered.webhooks[0].completedAt)
        #expect(try await mock.urlSession.fetch("https://shop.example.com/legacy").status == 200)
        let legacy = try await entry(1, of: mock, withWebhooks: 1)
        #expect(legacy.webhooks.first?.status == 204)
        #expect(receiver.journal.last?.request.body == Data([0, 1]))
    }

    @Test("a webhook beyond this machine is refused when loaded, or not sent when its URL is a template; other listeners are named")
    func onlyLoopbackUnlessAllowed() async throws {
        let fixed = try WireMockBadInputTests.folder(["mappings/w.json": #"""
            {"request": {"urlPath": "/x"}, "serveEventListeners": [{"name": "webhook", "parameters": {"url": "https://hooks.example.com/in"}}]}
            """#])
        #expect { try HTTPMock().loadWireMockMappings(from: fixed) } throws: { error in
            "\(error)".contains("mappings/w.json") && "\(error)".contains("hooks.example.com, beyond this machine")
        }
        let allowed = HTTPMock()
        allowed.allowedProxyHosts = ["hooks.example.com"]
        #expect(throws: Never.self) { try allowed.loadWireMockMappings(from: fixed) }

        let templated = HTTPMock()
        try templated.loadWireMockMappings(from: try WireMockBadInputTests.folder(["mappings/w.json": #"""
            {"request": {"urlPath": "/x"}, "serveEventListeners": [{"name": "webhook", "parameters": {"url": "{{originalRequest.query.to}}"}}]}
            """#]))
        #expect(try await templated.urlSession.fetch("https://app.example.com/x?to=https://elsewhere.example.org/hook").status == 200)
        let refused = try await entry(0, of: templated, withWebhooks: 1).webhooks[0]
        #expect(refused.status == nil && refused.url == "https://elsewhere.example.org/hook")
        #expect(refused.error?.contains("elsewhere.example.org is beyond this machine") == true)

        for (listeners, message) in [
            (#""serveEventListeners": [{"name": "my-listener"}]"#, #""my-listener" is a WireMock extension"#),
            (#""serveEventListeners": [{"name": "webhook"}]"#, #"a webhook needs "parameters""#),
            (#""postServeActions": [{"name": "webhook", "parameters": {"url": "http://127.0.0.1/", "delay": {"type": "random"}}}]"#, #""random" is not a webhook delay"#),
        ] {
            let bad = try WireMockBadInputTests.folder(["mappings/w.json": #"{"request": {"urlPath": "/x"}, "# + listeners + "}"])
            #expect { try HTTPMock().loadWireMockMappings(from: bad) } throws: { "\($0)".contains(message) }
        }
    }

    @Test("a webhook's templated url and method are rendered for each request: sent to the loopback receiver they name, or not sent and the journal says why")
    func templatedURLAndMethod() async throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("templated webhook targets: seed \(seed)")
        var random = SplitMix(seed: seed)
        let receiver = HTTPMock()
        receiver.addResponses(forPath: "/hooks/**", host: "**") { MockResponse.empty(status: .accepted, lifetime: .eternal) }
        let mock = HTTPMock(passthroughSession: receiver.urlSession)
        try mock.loadWireMockMappings(from: try WireMockBadInputTests.folder(["mappings/w.json": #"""
            {"request": {"urlPath": "/orders"}, "response": {"status": 200},
             "serveEventListeners": [{"name": "webhook", "parameters": {
               "method": "{{request.headers.X-Hook-Method}}",
               "url": "http://{{request.headers.X-Hook-Host}}/hooks/{{request.query.id}}"}}]}
            """#]))
        let methods = ["put", "PATCH", "Delete", "POST", "GET"]
        let hosts = ["127.0.0.1:9090", "localhost:9091", "[::1]:9092", "127.0.0.5"]
        var expected: [(method: String, url: String)] = []
        for index in 0..<8 {
            let method = methods[Int(random.next() % UInt64(methods.count))]
            let host = hosts[Int(random.next() % UInt64(hosts.count))]
            let reply = try await mock.urlSession.fetch("https://shop.example.com/orders?id=\(index)",
                                                        headers: ["X-Hook-Method": method, "X-Hook-Host": host])
            #expect(reply.status == 200)
            let sent = try await entry(index, of: mock, withWebhooks: 1).webhooks[0]
            let url = "http://\(host)/hooks/\(index)"
            #expect(sent.method == method.uppercased() && sent.url == url && sent.status == 202 && sent.error == nil,
                    "seed \(seed), case \(index): \(sent)")
            expected.append((method.uppercased(), url))
        }
        #expect(receiver.journal.map { "\($0.request.method) \($0.request.url.absoluteString)" } == expected.map { "\($0.method) \($0.url)" },
                "seed \(seed)")

        // Refused when sent: a host beyond this machine, a rendering that is no method or no URL.
        for (index, (method, host, why)) in [
            ("POST", "hooks.example.com", "hooks.example.com is beyond this machine"),
            ("GE T", "127.0.0.1:9090", #""method" rendered to "GE T""#),
            ("", "127.0.0.1:9090", #""method" rendered to """#),
            ("POST", "", "is not an http or https URL"),
        ].enumerated() {
            let id = 8 + index
            #expect(try await mock.urlSession.fetch("https://shop.example.com/orders?id=\(id)",
                                                    headers: ["X-Hook-Method": method, "X-Hook-Host": host]).status == 200)
            let refused = try await entry(id, of: mock, withWebhooks: 1).webhooks[0]
            #expect(refused.status == nil && refused.error?.contains("not sent") == true && refused.error?.contains(why) == true,
                    "\(method) \(host): \(refused)")
            #expect(refused.error?.contains("mappings/w.json") == true)
        }
        #expect(receiver.journal.count == expected.count)
    }
}
