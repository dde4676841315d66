import Foundation
import HTTPMock
import HTTPMockServer
import Testing

/// A hostile client over raw sockets: names rebound to 127.0.0.1, connections kept open after a refusal, bodies that
/// never end. Each test asserts what the server does and in which order, never how long it takes (see
/// docs/reliability.md, "The server under attack").
@Suite("An adversary over raw sockets")
struct AdversaryTests {
    /// The status of the reply to one request on a connection of its own.
    private func status(_ server: HTTPMockServer, _ lines: [String], body: String = "") async -> Int {
        let reply = await rawReply(server, lines, body: body)
        return Int(reply.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    // MARK: DNS rebinding

    @Test("names that only start like a loopback name reach no admin route: not the journal, not mappings, not shutdown",
          arguments: ["127.attacker.example", "127.0.0.1.attacker.example", "127.0.0.1.nip.io", "localhost.attacker.example",
                      "127.1", "0177.0.0.1", "127.0.0.256", "127.0.0.1:80.evil", "[::1].evil", "::1.evil", "127.0.0.1:"])
    func reboundNames(host: String) async throws {
        try await withAdminServer { server, mock in
            #expect(await status(server, ["GET /__admin/requests HTTP/1.1", "Host: \(host)"]) == 403, "\(host)")
            let mapping = #"{"request": {"urlPath": "/planted"}, "response": {"status": 200}}"#
            #expect(await status(server, ["POST /__admin/mappings HTTP/1.1", "Host: \(host)", "Content-Type: application/json"],
                                 body: mapping) == 403, "\(host)")
            #expect(await status(server, ["POST /__admin/shutdown HTTP/1.1", "Host: \(host)"]) == 403, "\(host)")
            #expect(mock.stubUsage.count == 1)
            // Still serving, and the exact loopback names still reach the admin API.
            for name in ["127.0.0.1", "127.9.8.7:\(server.port)", "LOCALHOST", "localhost:\(server.port)", "[::1]", "[::1]:\(server.port)"] {
                #expect(await status(server, ["GET /__admin/requests HTTP/1.1", "Host: \(name)"]) == 200, "\(name)")
            }
        }
    }

    @Test("a recording's target must be an exact loopback name")
    func recordingTargetIsLoopback() async throws {
        try await withAdminServer { server, _ in
            for target in ["http://127.attacker.example:8081", "http://127.0.0.1.nip.io", "http://localhost.example"] {
                let body = #"{"targetBaseUrl": "\#(target)"}"#
                #expect(await status(server, ["POST /__admin/recordings/start HTTP/1.1", "Host: 127.0.0.1",
                                              "Content-Type: application/json"], body: body) == 422, "\(target)")
            }
        }
    }

    // MARK: Connections that close when they say so

    /// Sends `request` on a connection of its own, reads the reply, then sends `GET /ok` on the same connection:
    /// the reply's status and headers, and whether the connection ended instead of answering the second request.
    private func replyThenEnded(_ server: HTTPMockServer, _ request: String) async -> (status: Int, connection: String?, ended: Bool) {
        let port = server.port
        return await offPool {
            guard let connection = RawConnection(port: port) else { return (0, nil, false) }
            connection.send(request)
            guard let reply = connection.nextResponse() else { return (0, nil, false) }
            connection.send("GET /ok HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            return (reply.status, reply.headers["connection"], connection.isEnded())
        }
    }

    @Test("a 401 or 403 marked Connection: close closes its connection, and answers nothing sent after it")
    func refusalsClose() async throws {
        let credentials = try #require(HTTPMockServer.AdminCredentials("admin:s3cret-pass"))
        try await withAdminServer({ $0.adminCredentials = credentials }) { server, _ in
            let unauthorized = await replyThenEnded(server, "GET /__admin/requests HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(unauthorized.status == 401)
            #expect(unauthorized.connection == "close")
            #expect(unauthorized.ended)
            let forbidden = await replyThenEnded(server, "GET /__admin/requests HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
            #expect(forbidden.status == 403)
            #expect(forbidden.connection == "close")
            #expect(forbidden.ended)
            // A request pipelined right behind the refusal, in the same write, is not answered either.
            let port = server.port
            let pipelined = await offPool { () -> (status: Int?, ended: Bool) in
                guard let connection = RawConnection(port: port) else { return (nil, false) }
                connection.send("GET /__admin/requests HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                                + "GET /ok HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                let status = connection.nextResponse()?.status
                return (status, connection.isEnded())
            }
            #expect(pipelined.status == 401)
            #expect(pipelined.ended)
            // Without Connection: close, a refusal keeps the connection, as any response does.
            let kept = await replyThenEnded(server, "GET /__admin/requests HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(kept.status == 401)
            #expect(kept.connection == nil)
            #expect(!kept.ended)
        }
    }

    @Test("every plain refusal marked Connection: close closes its connection (400, 413, a bad Host)")
    func plainRefusalsClose() async throws {
        try await withAdminServer({ $0.maximumBodyBytes = 1024 }) { server, _ in
            let noHost = await replyThenEnded(server, "GET /ok HTTP/1.1\r\n\r\n")
            #expect(noHost.status == 400)
            #expect(noHost.connection == "close")
            #expect(noHost.ended)
            let tooLarge = await replyThenEnded(server, "POST /ok HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2048\r\n\r\n"
                                                    + String(repeating: "x", count: 2048))
            #expect(tooLarge.status == 413)
            #expect(tooLarge.connection == "close")
            #expect(tooLarge.ended)
        }
    }

    @Test("a refused body is not read on: the 413 is readable, then the connection is cut off",
          arguments: ["Transfer-Encoding: chunked", "Content-Length: 100000000000"])
    func refusedBodyCutOff(framing: String) async throws {
        try await withAdminServer({ $0.maximumBodyBytes = 64 * 1024 }) { server, _ in
            let port = server.port
            let chunked = framing.hasPrefix("Transfer")
            let outcome = await offPool { () -> (status: Int, connection: String?, sent: Int, refused: Bool) in
                guard let connection = RawConnection(port: port) else { return (0, nil, 0, false) }
                let piece = String(repeating: "x", count: 64 * 1024)
                let chunk = Array((chunked ? "10000\r\n\(piece)\r\n" : piece).utf8)
                connection.send("POST /ok HTTP/1.1\r\nHost: 127.0.0.1\r\n\(framing)\r\n\r\n")
                _ = connection.sendRepeatedly(chunk, upTo: 2 * chunk.count)
                guard let reply = connection.nextResponse() else { return (0, nil, 0, false) }
                // Far more than the server drops while it closes, and than the sockets' buffers hold.
                let (sent, refused) = connection.sendRepeatedly(chunk, upTo: 512 << 20)
                return (reply.status, reply.headers["connection"], sent, refused)
            }
            #expect(outcome.status == 413)
            #expect(outcome.connection == "close")
            #expect(outcome.refused, "sent \(outcome.sent) bytes after the 413 without the connection closing")
            #expect(outcome.sent < 512 << 20)
        }
    }

    // MARK: Credentials

    @Test("the Basic scheme is read in any case (RFC 9110, 11.1); the token is not")
    func basicSchemeAnyCase() async throws {
        let credentials = try #require(HTTPMockServer.AdminCredentials("admin:s3cret-pass"))
        try await withAdminServer({ $0.adminCredentials = credentials }) { server, _ in
            let token = Data("admin:s3cret-pass".utf8).base64EncodedString()
            for scheme in ["Basic", "basic", "BASIC", "bAsIc"] {
                #expect(await status(server, ["GET /__admin/requests HTTP/1.1", "Host: 127.0.0.1", "Authorization: \(scheme) \(token)"]) == 200,
                        "\(scheme)")
            }
            #expect(await status(server, ["GET /__admin/requests HTTP/1.1", "Host: 127.0.0.1", "Authorization: Basic \(token.lowercased())"]) == 401)
            #expect(await status(server, ["GET /__admin/requests HTTP/1.1", "Host: 127.0.0.1", "Authorization: Bearer \(token)"]) == 401)
        }
    }

    // MARK: Methods

    @Test("a method is case-sensitive (RFC 9110, 9.1): foo reaches no FOO mapping, get no GET one")
    func methodsAreCaseSensitive() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/ok"), .method(.get), responses: [.plaintext("ok", lifetime: .eternal)])
        try mock.stub(.path("/custom"), .method("FOO"), responses: [.plaintext("foo", lifetime: .eternal)])
        try await HTTPMockServer.withServer(serving: mock) { server in
            func status(_ method: String, _ path: String) async -> Int {
                let text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                let reply = await RawSocket.exchange(port: server.port, sending: Array(text.utf8)).reply
                return Int(reply.split(separator: " ").dropFirst().first ?? "") ?? 0
            }
            #expect(await status("FOO", "/custom") == 200)
            #expect(await status("foo", "/custom") == 404)
            #expect(await status("GET", "/ok") == 200)
            #expect(await status("get", "/ok") == 404)
            #expect(mock.journal.map(\.request.method) == ["FOO", "foo", "GET", "get"])
        }
    }

    // MARK: A fair decision pool

    private static func get(_ port: Int, _ path: String) async -> String {
        await RawSocket.exchange(port: port, sending: Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)).reply
    }

    @Test("more decisions held in user code than the pool has threads for good: a cheap decision sent meanwhile is answered before any of them")
    func cheapDecisionNotQueued() async throws {
        let mock = HTTPMock()
        let gate = Gate()
        try mock.stub(.path("/held"), .custom("held by the test") { _ in gate.pass() }, responses: [.plaintext("held", lifetime: .eternal)])
        try mock.stub(.path("/cheap"), .custom("cheap") { _ in true }, responses: [.plaintext("cheap", lifetime: .eternal)])
        // More than the threads the pool keeps (one per core, two at least), fewer than it grows to.
        let count = max(2, ProcessInfo.processInfo.activeProcessorCount) + 2
        try await HTTPMockServer.withServer(serving: mock) { server in
            let port = server.port
            let order = Arrivals()
            let held = (0..<count).map { index in
                Task {
                    let reply = await Self.get(port, "/held")
                    order.append("held \(index)")
                    return reply
                }
            }
            let holding = await offPool { gate.waitUntilHolding(count) }
            #expect(holding, "all \(count) requests reach their matcher at once")
            if holding {
                let cheap = await Self.get(port, "/cheap")
                order.append("cheap")
                #expect(cheap.hasSuffix("cheap"))
            }
            gate.openUp()
            for request in held { #expect(await request.value.hasSuffix("held")) }
            #expect(order.names.first == "cheap", "answered in the order \(order.names)")
        }
    }

    /// Which finishes first, the cheap request or the storm, hangs on how fast this machine backtracks (under
    /// ThreadSanitizer the server is slow and ICU is not): `cheapDecisionNotQueued` asserts the order with a gate.
    @Test("requests burning their regular expression's budget: all of them decided at once, each stopped with a 500 naming the expression, and a cheap request sent meanwhile answered")
    func regexStormIsFair() async throws {
        let mock = HTTPMock()
        let gate = Gate()
        // Holds the requests ahead of the expression until every one has a thread; then they all backtrack at once,
        // each until its budget stops it.
        try mock.stub(.custom("held by the test") { _ in gate.pass() }, .urlRegex("/(r|cheap)/?(a+)+$"),
                      responses: [.plaintext("matched", lifetime: .eternal)])
        mock.addResponses(forPath: "/cheap") { MockResponse.plaintext("cheap", lifetime: .eternal) }
        let storm = 2 * max(2, ProcessInfo.processInfo.activeProcessorCount) + 2
        try await HTTPMockServer.withServer(serving: mock) { server in
            let port = server.port
            let order = Arrivals()
            let slowTarget = "/r/" + String(repeating: "a", count: 30) + "b"
            let slow = (0..<storm).map { index in
                Task {
                    let reply = await Self.get(port, slowTarget)
                    order.append("slow \(index)")
                    return reply
                }
            }
            let holding = await offPool { gate.waitUntilHolding(storm) }
            #expect(holding, "all \(storm) requests reach the expression at once")
            gate.openUp()
            let cheap = await Self.get(port, "/cheap")
            order.append("cheap")
            #expect(cheap.hasSuffix("cheap"))
            for request in slow {
                let reply = await request.value
                #expect(reply.hasPrefix("HTTP/1.1 500") && reply.contains("budget"))
            }
            #expect(order.names.count == storm + 1)
        }
    }

    @Test("a mapping whose template would build megabytes of random values is stopped by its step budget, and names it")
    func heavyTemplateStopped() async throws {
        try await withAdminServer { server, _ in
            let base = URL(string: "http://127.0.0.1:\(server.port)/__admin/")!
            let template = String(repeating: "{{randomValue length=10000 type='ALPHANUMERIC'}}", count: 150)
            let mapping = try JSONSerialization.data(withJSONObject: [
                "request": ["method": "GET", "urlPath": "/random"],
                "response": ["status": 200, "body": template, "transformers": ["response-template"]],
            ])
            let created = try await call("POST", base.adding("mappings"), body: String(decoding: mapping, as: UTF8.self))
            #expect(created.status == 201)
            let port = server.port
            let reply = await offPool { () -> RawConnection.Response? in
                let connection = RawConnection(port: port)
                connection?.send("GET /random HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                return connection?.nextResponse(keepingBody: true)
            }
            let body = String(decoding: reply?.body ?? [], as: UTF8.self)
            #expect(body.contains("took more than 1000000 steps"), "\(reply?.bodySize ?? 0) bytes: \(body.prefix(200))")
            #expect((reply?.bodySize ?? .max) < 4_096)
        }
    }

    // MARK: An admin API that never queues

    /// Journals `count` requests to `/ok` on one pipelined connection.
    private static func journal(_ count: Int, port: Int) async {
        await offPool {
            guard let connection = RawConnection(port: port) else { return }
            connection.send(String(repeating: "GET /ok HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", count: count))
            for _ in 0..<count { _ = connection.nextResponse() }
        }
    }

    @Test("GET /__admin/requests pages with offset and limit, newest first; meta.total counts the whole journal")
    func requestsArePaged() async throws {
        try await withAdminServer { server, mock in
            await Self.journal(30, port: server.port)
            let base = URL(string: "http://127.0.0.1:\(server.port)/__admin/")!
            let page = try await call("GET", base.adding("requests?offset=5&limit=10"))
            #expect(page.status == 200)
            let requests = page.json?["requests"] as? [[String: Any]] ?? []
            let ids = requests.compactMap { ($0["httpmock"] as? [String: Any])?["journalID"] as? Int }
            let newest = mock.journal.map(\.id).reversed()
            #expect(ids == Array(newest.dropFirst(5).prefix(10)))
            #expect((page.json?["meta"] as? [String: Any])?["total"] as? Int == 30)
            let past = try await call("GET", base.adding("requests?offset=100"))
            #expect((past.json?["requests"] as? [Any])?.isEmpty == true)
            #expect(try await call("GET", base.adding("requests?offset=-1")).status == 400)
        }
    }

    @Test("reads of the whole journal in flight (searches that backtrack on every entry, a listing): a mapping created and a stub request sent after them are answered before the searches end")
    func adminStorm() async throws {
        try await withAdminServer { server, mock in
            let port = server.port
            // Each search's regular expression backtracks on every journaled body until its budget stops it: the
            // searches take seconds, however fast the machine.
            let body = String(repeating: "a", count: 26) + "b"
            await offPool {
                guard let connection = RawConnection(port: port) else { return }
                for _ in 0..<6 {
                    connection.send("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                    _ = connection.nextResponse()
                }
            }
            let order = Arrivals()
            let search = #"{"bodyPatterns": [{"matches": "(a+)+$"}]}"#
            let readers = (0..<3).compactMap { _ in RawConnection(port: port) }
            #expect(readers.count == 3)
            for (index, reader) in readers.enumerated() {
                reader.send(index == 2 ? "GET /__admin/requests HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                                       : "POST /__admin/requests/find HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(search.utf8.count)\r\n\r\n\(search)")
            }
            let reads = readers.enumerated().map { index, reader in
                Task {
                    let reply = await offPool { reader.nextResponse() }
                    order.append(index == 2 ? "listing" : "search \(index)")
                    return reply?.status
                }
            }
            let mapping = #"{"request": {"urlPath": "/during"}, "response": {"status": 200, "body": "during"}}"#
            let created = await offPool { () -> Int? in
                let connection = RawConnection(port: port)
                connection?.send("POST /__admin/mappings HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(mapping.utf8.count)\r\n\r\n\(mapping)")
                return connection?.nextResponse()?.status
            }
            order.append("mapping")
            let plain = await Self.get(port, "/during")
            order.append("plain")
            #expect(created == 201)
            #expect(plain.hasSuffix("during"))
            for read in reads { #expect(await read.value == 200) }
            let names = order.names
            let firstSearch = names.firstIndex { $0.hasPrefix("search") } ?? -1
            #expect((names.firstIndex(of: "plain") ?? names.count) < firstSearch, "answered in the order \(names)")
            #expect(mock.journal.count == 7)
        }
    }
}
