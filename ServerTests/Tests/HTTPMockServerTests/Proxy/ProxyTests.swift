import Foundation
import HTTPMock
import HTTPMockServer
import HTTPMockTesting
import Testing

/// The upstream is always another HTTPMockServer on 127.0.0.1: nothing leaves the machine.
@Suite("HTTPMockServer forwards what no stub answers to Configuration.proxy")
struct ProxyTests {
    /// A server answering for `upstream`'s stubs, and one in front of it that forwards to `prefix` on it.
    private func withProxy(upstream: HTTPMock, front: HTTPMock, prefix: String = "",
                           _ body: (_ front: HTTPMockServer, _ upstream: HTTPMockServer) async throws -> Void) async throws {
        try await HTTPMockServer.withServer(serving: upstream) { upstreamServer in
            front.unmockedPolicy = .passthrough
            let configuration = HTTPMockServer.Configuration(proxy: upstreamServer.baseURL.adding(prefix))
            try await HTTPMockServer.withServer(serving: front, configuration: configuration) { frontServer in
                try await body(frontServer, upstreamServer)
            }
        }
    }

    @Test("a stub answers what it matches; the rest goes upstream with method, path, query, headers and body")
    func forwards() async throws {
        let upstream = HTTPMock()
        upstream.addResponses(forPath: "/v1/notes", method: .post) {
            MockResponse.plaintext("stored", status: .created, headers: ["X-Upstream": "yes"])
        }
        let front = HTTPMock()
        front.addResponses(forPath: "/health") { MockResponse.plaintext("mocked") }
        try await withProxy(upstream: upstream, front: front, prefix: "/v1") { server, _ in
            #expect(try await call("GET", server.baseURL.adding("/health")).text == "mocked")
            let reply = try await call("POST", server.baseURL.adding("/notes?draft=1"), body: "buy milk",
                                       headers: ["X-Trace": "t-1", "Content-Type": "text/plain"])
            #expect(reply.status == 201)
            #expect(reply.text == "stored")
            #expect(reply.headers["x-upstream"] == "yes")
            let sent = try #require(upstream.journal.first?.request)
            #expect(sent.path == "/v1/notes")
            #expect(sent.queryValues(for: "draft") == ["1"])
            #expect(sent.headers["X-Trace"] == "t-1")
            #expect(sent.bodyText == "buy milk")
            // The front's journal has what the upstream answered.
            let entry = try #require(front.journal.last)
            #expect(entry.resolution == .passedThrough)
            #expect(entry.statusCode == 201)
            #expect(entry.responseBody == Data("stored".utf8))
            HTTPAssertRequested("http://example.com/notes", method: .post, count: .exactly(1), in: front)
        }
    }

    @Test("the forwarded request carries the client's headers and Via, and none the client did not send")
    func addsNoHeaders() async throws {
        let upstream = HTTPMock()
        upstream.addResponses(forPath: "/plain") { MockResponse.plaintext("upstream", lifetime: .eternal) }
        try await withProxy(upstream: upstream, front: HTTPMock()) { server, _ in
            for request in ["GET /plain HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Mine: 1\r\nConnection: close\r\n\r\n",
                            "POST /plain HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Mine: 1\r\nContent-Length: 4\r\nConnection: close\r\n\r\nbody"] {
                let (reply, _) = await RawSocket.exchange(port: server.port, sending: Array(request.utf8))
                #expect(reply.hasSuffix("upstream"))
                let sent = try #require(upstream.journal.last?.request)
                let names = Set(sent.headers.map { $0.name.lowercased() })
                #expect(names.subtracting(["host", "x-mine", "via", "content-length"]).isEmpty,
                        "added to \(sent.method): \(sent.headers.map { "\($0.name): \($0.value)" })")
            }
            #expect(upstream.journal.last?.request.bodyText == "body")
        }
    }

    @Test("a redirect from upstream reaches the client as it came: the proxy does not follow it")
    func redirectRelayed() async throws {
        let upstream = HTTPMock()
        upstream.addResponses(forPath: "/old") { MockResponse.redirect(to: "/new", follow: false) }
        try await withProxy(upstream: upstream, front: HTTPMock()) { server, _ in
            let request = "GET /old HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            let (reply, _) = await RawSocket.exchange(port: server.port, sending: Array(request.utf8))
            #expect(reply.hasPrefix("HTTP/1.1 302"))
            #expect(reply.lowercased().contains("location: /new"))
            #expect(upstream.journal.count == 1)
        }
    }

    @Test("an upstream that cannot be reached gets 502 Bad Gateway; the journal entry fails with the error")
    func upstreamDown() async throws {
        let closed = try await HTTPMockServer.start(serving: HTTPMock())
        let address = closed.baseURL
        await closed.stop()
        let front = HTTPMock()
        front.unmockedPolicy = .passthrough
        try await HTTPMockServer.withServer(serving: front, configuration: .init(proxy: address)) { server in
            let reply = try await call("GET", server.baseURL.adding("/anything"))
            #expect(reply.status == 502)
            #expect(reply.text.contains("could not be forwarded to the proxy \(address.absoluteString)"))
            let entry = try #require(front.journal.last)
            #expect(entry.error != nil)
            #expect(entry.statusCode == nil)
        }
    }

    @Test("a recording through the proxy writes mapping files with secrets redacted, which replay")
    func recordsThroughProxy() async throws {
        let upstream = HTTPMock()
        upstream.addResponses(forPath: "/login", method: .post) {
            MockResponse.dictionary(["token": "s3cret-token", "name": "Ann"], headers: ["Set-Cookie": "session=abc"])
        }
        let front = HTTPMock()
        let folder = try temporaryFolder()
        let recording = try front.startRecording(to: folder, format: .mappings, mode: .always)
        try await withProxy(upstream: upstream, front: front) { server, _ in
            let reply = try await call("POST", server.baseURL.adding("/login"), body: #"{"password": "hunter2"}"#,
                                       headers: ["Content-Type": "application/json", "Authorization": "Bearer real"])
            #expect(reply.status == 200)
            #expect(reply.text.contains("s3cret-token"))   // the client gets the real answer
        }
        try recording.finish()
        let written = try String(contentsOf: folder.appendingPathComponent("recorded.mock.json"), encoding: .utf8)
        #expect(!written.contains("s3cret-token"))
        #expect(!written.contains("hunter2"))
        #expect(!written.contains("session=abc"))
        #expect(written.contains("REDACTED"))

        let replay = HTTPMock()
        try replay.loadMappings(from: folder)
        try await HTTPMockServer.withServer(serving: replay) { server in
            let reply = try await call("POST", server.baseURL.adding("/login"), body: #"{"password": "anything"}"#,
                                       headers: ["Content-Type": "application/json"])
            #expect(reply.status == 200)
            #expect(reply.json?["name"] as? String == "Ann")
        }
    }

    @Test("a proxy pointed at the server itself answers 508 Loop Detected instead of going round")
    func loopDetected() async throws {
        // Find a free port, then serve on it with the proxy pointing at that same port. Tests run in parallel, so
        // another server may take the port in between: then try again with another one.
        let mock = HTTPMock()
        mock.unmockedPolicy = .passthrough
        var attempts = 0
        while true {
            attempts += 1
            let probe = try await HTTPMockServer.start(serving: HTTPMock())
            let port = probe.port
            await probe.stop()
            let configuration = HTTPMockServer.Configuration(proxy: URL(string: "http://127.0.0.1:\(port)")!)
            do {
                try await HTTPMockServer.withServer(serving: mock, port: port, configuration: configuration) { server in
                    let reply = try await call("GET", server.baseURL.adding("/anything"))
                    #expect(reply.status == 508)
                    #expect(reply.text.contains("came back to this server through its own proxy"))
                }
                return
            } catch let error as HTTPMockError where "\(error)".contains("is in use by another process") && attempts < 20 {
                continue
            }
        }
    }
}
