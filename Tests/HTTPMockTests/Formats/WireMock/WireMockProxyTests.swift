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
}
