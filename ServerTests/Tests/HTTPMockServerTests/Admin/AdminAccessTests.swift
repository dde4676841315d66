import Foundation
import HTTPMock
import HTTPMockServer
import Testing

/// The admin API answers its own tools, never a web page: the requests a browser sends for a page of another
/// origin, or for a page whose host name was rebound to 127.0.0.1, are refused. Sent over a raw socket, as a
/// browser would send them.
@Suite("The admin API refuses what a web page can send, and asks for credentials when told to")
struct AdminAccessTests {
    @Test("a page of another origin cannot shut the server down, even with a simple text/plain POST")
    func crossOriginShutdownRefused() async throws {
        try await withAdminServer { server, _ in
            let reply = await rawReply(server, ["POST /__admin/shutdown HTTP/1.1", "Host: 127.0.0.1:\(server.port)",
                                            "Origin: http://evil.example", "Content-Type: text/plain"], body: "x")
            #expect(reply.hasPrefix("HTTP/1.1 403"), "\(reply)")
            #expect(reply.contains("requests from a web page of another origin (http://evil.example) are refused"))
            #expect(!reply.lowercased().contains("access-control-"))
            // Still serving.
            #expect(await rawReply(server, ["GET /ok HTTP/1.1", "Host: 127.0.0.1"]).hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test("a rebound host name cannot read the journal or add mappings; the server's own names can")
    func reboundHostRefused() async throws {
        try await withAdminServer { server, _ in
            for path in ["GET /__admin/requests HTTP/1.1", "GET /__admin/mappings HTTP/1.1"] {
                let reply = await rawReply(server, [path, "Host: attacker.example:\(server.port)"])
                #expect(reply.hasPrefix("HTTP/1.1 403"), "\(reply)")
                #expect(reply.contains("Host attacker.example:\(server.port) is not this server's address"))
            }
            let mapping = #"{"request": {"urlPath": "/planted"}, "response": {"status": 200}}"#
            let planted = await rawReply(server, ["POST /__admin/mappings HTTP/1.1", "Host: evil.example",
                                              "Content-Type: application/json"], body: mapping)
            #expect(planted.hasPrefix("HTTP/1.1 403"))
            for host in ["127.0.0.1:\(server.port)", "localhost:\(server.port)", "[::1]:\(server.port)"] {
                #expect(await rawReply(server, ["GET /__admin/requests HTTP/1.1", "Host: \(host)"]).hasPrefix("HTTP/1.1 200"), "\(host)")
            }
        }
    }

    @Test("a browser's state-changing request with a body a page can send unasked (text/plain, forms) is refused; JSON, and curl's -d, are not")
    func simpleContentTypesRefused() async throws {
        try await withAdminServer { server, mock in
            let mapping = #"{"request": {"urlPath": "/added"}, "response": {"status": 200, "body": "added"}}"#
            let browser = "User-Agent: Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0"
            for type in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
                let reply = await rawReply(server, ["POST /__admin/mappings HTTP/1.1", "Host: 127.0.0.1", browser, "Content-Type: \(type)"], body: mapping)
                #expect(reply.hasPrefix("HTTP/1.1 415"), "\(type): \(reply)")
            }
            #expect(mock.stubUsage.count == 1)
            let accepted = await rawReply(server, ["POST /__admin/mappings HTTP/1.1", "Host: 127.0.0.1", browser, "Content-Type: application/json"], body: mapping)
            #expect(accepted.hasPrefix("HTTP/1.1 201"), "\(accepted)")
            // curl -d, as WireMock's documentation writes its commands: the form type, from a tool.
            let curl = await rawReply(server, ["POST /__admin/mappings HTTP/1.1", "Host: 127.0.0.1", "User-Agent: curl/8.5.0",
                                           "Content-Type: application/x-www-form-urlencoded"], body: mapping)
            #expect(curl.hasPrefix("HTTP/1.1 201"), "\(curl)")
            // No body at all, as curl -X POST sends a reset: allowed.
            #expect(await rawReply(server, ["POST /__admin/reset HTTP/1.1", "Host: 127.0.0.1"]).hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test("a browser's cross-site fetch, a CORS preflight and a request with two Host headers are refused")
    func browserSignalsRefused() async throws {
        try await withAdminServer { server, _ in
            let crossSite = await rawReply(server, ["GET /__admin/requests HTTP/1.1", "Host: 127.0.0.1", "Sec-Fetch-Site: cross-site"])
            #expect(crossSite.hasPrefix("HTTP/1.1 403"))
            let preflight = await rawReply(server, ["OPTIONS /__admin/mappings HTTP/1.1", "Host: 127.0.0.1",
                                                "Origin: http://evil.example", "Access-Control-Request-Method: POST"])
            #expect(preflight.hasPrefix("HTTP/1.1 403"))
            #expect(!preflight.lowercased().contains("access-control-"))
            let twoHosts = await rawReply(server, ["GET /__admin/requests HTTP/1.1", "Host: 127.0.0.1", "Host: evil.example"])
            #expect(twoHosts.hasPrefix("HTTP/1.1 400"))
            // The same origin as the server's own address is no other origin.
            let sameOrigin = await rawReply(server, ["GET /__admin/requests HTTP/1.1", "Host: 127.0.0.1:\(server.port)",
                                                 "Origin: http://127.0.0.1:\(server.port)"])
            #expect(sameOrigin.hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test("Configuration.adminHosts lets a name of this machine through")
    func allowedHost() async throws {
        try await withAdminServer({ $0.adminHosts = ["10.0.2.2"] }) { server, _ in
            #expect(await rawReply(server, ["GET /__admin/requests HTTP/1.1", "Host: 10.0.2.2:\(server.port)"]).hasPrefix("HTTP/1.1 200"))
            #expect(await rawReply(server, ["GET /__admin/requests HTTP/1.1", "Host: 10.0.2.3:\(server.port)"]).hasPrefix("HTTP/1.1 403"))
        }
    }

    @Test("with credentials, the admin API answers only requests that carry them; stubs stay open")
    func credentials() async throws {
        let credentials = try #require(HTTPMockServer.AdminCredentials("admin:s3cret-pass"))
        try await withAdminServer({ $0.adminCredentials = credentials }) { server, _ in
            let missing = await rawReply(server, ["GET /__admin/requests HTTP/1.1", "Host: 127.0.0.1"])
            #expect(missing.hasPrefix("HTTP/1.1 401"))
            #expect(missing.contains("WWW-Authenticate: Basic realm=\"httpmock admin\""))
            let wrong = "Basic " + Data("admin:guess".utf8).base64EncodedString()
            #expect(await rawReply(server, ["GET /__admin/requests HTTP/1.1", "Host: 127.0.0.1", "Authorization: \(wrong)"]).hasPrefix("HTTP/1.1 401"))
            let right = "Basic " + Data("admin:s3cret-pass".utf8).base64EncodedString()
            #expect(await rawReply(server, ["GET /__admin/requests HTTP/1.1", "Host: 127.0.0.1", "Authorization: \(right)"]).hasPrefix("HTTP/1.1 200"))
            #expect(await rawReply(server, ["GET /ok HTTP/1.1", "Host: 127.0.0.1"]).hasPrefix("HTTP/1.1 200"))
        }
        #expect(HTTPMockServer.AdminCredentials("no-colon") == nil)
        #expect(HTTPMockServer.AdminCredentials(":password") == nil)
    }

    @Test("listening beyond loopback with the admin API and no credentials: the server refuses to start")
    func credentialsRequiredOffLoopback() async throws {
        await #expect {
            // Refused before anything is bound: nothing listens on the network.
            _ = try await HTTPMockServer.start(serving: HTTPMock(), address: "0.0.0.0", configuration: .init(adminAPI: true))
        } throws: { error in
            "\(error)".contains("would answer every machine that reaches 0.0.0.0; set Configuration.adminCredentials")
        }
    }

    @Test("a port in use: an error that says so")
    func portInUse() async throws {
        try await withAdminServer { server, _ in
            await #expect {
                _ = try await HTTPMockServer.start(serving: HTTPMock(), port: server.port)
            } throws: { error in
                "\(error)" == "HTTPMock: port \(server.port) on 127.0.0.1 is in use by another process; choose another port, or 0 for a free one"
            }
        }
    }
}

/// What a real server refuses whatever the path.
@Suite("Requests a real server refuses: HTTP/1.1 without Host, or with two")
struct HostHeaderTests {
    @Test("no Host, or two Host headers: 400, as RFC 9112 says; HTTP/1.0 without Host is served")
    func hostRequired() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/ok") { MockResponse.plaintext("ok", lifetime: .eternal) }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let none = await RawSocket.exchange(port: server.port, sending: Array("GET /ok HTTP/1.1\r\nConnection: close\r\n\r\n".utf8))
            #expect(none.reply.hasPrefix("HTTP/1.1 400"))
            #expect(none.reply.contains("has no Host header"))
            let two = await RawSocket.exchange(port: server.port, sending: Array("GET /ok HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n".utf8))
            #expect(two.reply.hasPrefix("HTTP/1.1 400"))
            #expect(two.reply.contains("has 2 Host headers"))
            let old = await RawSocket.exchange(port: server.port, sending: Array("GET /ok HTTP/1.0\r\n\r\n".utf8))
            #expect(old.reply.contains("200"))
            #expect(mock.journal.count == 1)   // the refused ones were never matched
        }
    }

    @Test("a custom method token (FOO), which SwiftNIO's parser does not know, reaches its stub")
    func customMethod() async throws {
        let mock = HTTPMock()
        try mock.stub(.method("FOO"), .path("/ok"), responses: [.plaintext("foo", lifetime: .eternal)])
        try await HTTPMockServer.withServer(serving: mock) { server in
            let reply = await RawSocket.exchange(port: server.port, sending: Array("FOO /ok HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
            #expect(reply.reply.hasPrefix("HTTP/1.1 200"))
            #expect(reply.reply.hasSuffix("foo"))
            #expect(mock.journal.map(\.request.method) == ["FOO"])
        }
    }
}
