import Foundation
import HTTPMock
@testable import HTTPMockServer
import Testing

/// The traffic page under `/__admin/webapp`: its files, its protections (those of the admin API), and its stream of
/// journal events.
@Suite("The traffic page: served with its policy, behind the admin API's checks, live and bounded")
struct WebAppTests {
    static let paths = ["/__admin/webapp", "/__admin/webapp/app.js", "/__admin/webapp/app.css", "/__admin/webapp/events"]
    /// The page's listings of the stubs and the scenarios.
    static let listings = ["/__admin/webapp/stubs", "/__admin/webapp/scenarios?limit=1"]

    @Test("the page, its script and its style sheet go out with a policy that forbids inline script, and nosniff")
    func filesAndHeaders() async throws {
        try await withAdminServer { server, _ in
            for (path, type) in [("/__admin/webapp", "text/html"), ("/__admin/webapp/", "text/html"),
                                 ("/__admin/webapp/app.js", "text/javascript"), ("/__admin/webapp/app.css", "text/css")] {
                let reply = try #require(await fetch(server, path))
                #expect(reply.status == 200, "\(path)")
                #expect(reply.headers["content-type"]?.hasPrefix(type) == true, "\(path)")
                #expect(reply.headers["x-content-type-options"] == "nosniff", "\(path)")
                let policy = try #require(reply.headers["content-security-policy"], "\(path)")
                #expect(policy.contains("script-src 'self'"))
                #expect(policy.contains("default-src 'none'"))
                #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"))
            }
            let page = try #require(await fetch(server, "/__admin/webapp")).text
            // Every script element names its file: none carries script of its own.
            let scripts = page.components(separatedBy: "<script").dropFirst()
            #expect(scripts.count == 1)
            #expect(scripts.allSatisfy { $0.hasPrefix(" src=\"/__admin/webapp/app.js\"") && $0.contains("></script>") })
            #expect(!page.contains("style=\""))
            #expect(!page.contains("http://") && !page.contains("https://"))
            // Other files under the prefix do not exist; only GET reads the page.
            #expect(try #require(await fetch(server, "/__admin/webapp/other.js")).status == 404)
            #expect(await rawReply(server, ["POST /__admin/webapp HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json"],
                                   body: "{}").hasPrefix("HTTP/1.1 405"))
        }
    }

    @Test("the page's script never builds markup from data: no innerHTML, outerHTML, insertAdjacentHTML, document.write or eval")
    func scriptWritesText() async throws {
        try await withAdminServer { server, _ in
            let script = try #require(await fetch(server, "/__admin/webapp/app.js")).text
            #expect(script.contains("textContent"))
            // The scenarios' graphs are SVG elements made one by one, their names text nodes.
            #expect(script.contains("createElementNS"))
            for forbidden in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "srcdoc"] {
                #expect(!script.contains(forbidden), "app.js uses \(forbidden)")
            }
        }
    }

    @Test("from a rebound host name, another origin or another site, the page is refused exactly as the admin API is")
    func browserSignalsRefused() async throws {
        try await withAdminServer { server, _ in
            let cases: [[String]] = [
                ["Host: attacker.example:\(server.port)"],
                ["Host: 127.0.0.1:\(server.port)", "Origin: http://evil.example"],
                ["Host: 127.0.0.1:\(server.port)", "Sec-Fetch-Site: cross-site"],
                ["Host: 127.0.0.1", "Host: evil.example"],
            ]
            for headers in cases {
                let api = statusLine(await rawReply(server, ["GET /__admin/requests HTTP/1.1"] + headers))
                #expect(api.hasPrefix("HTTP/1.1 4"), "\(headers)")
                for path in Self.paths + Self.listings + ["/__admin/webapp/requests/00000000-0000-4000-8000-000000000000/timeline"] {
                    let page = statusLine(await rawReply(server, ["GET \(path) HTTP/1.1"] + headers))
                    #expect(page == api, "\(path) with \(headers)")
                }
            }
            // The server's own names, and its own origin, are let through.
            for headers in [["Host: localhost:\(server.port)"], ["Host: 127.0.0.1:\(server.port)", "Origin: http://127.0.0.1:\(server.port)", "Sec-Fetch-Site: same-origin"]] {
                #expect(await rawReply(server, ["GET /__admin/webapp HTTP/1.1"] + headers).hasPrefix("HTTP/1.1 200"), "\(headers)")
            }
        }
    }

    @Test("with admin credentials, the page, its files and its events need them, as the admin API does")
    func credentials() async throws {
        let credentials = try #require(HTTPMockServer.AdminCredentials("admin:s3cret-pass"))
        try await withAdminServer({ $0.adminCredentials = credentials }) { server, _ in
            let wrong = "Authorization: Basic " + Data("admin:guess".utf8).base64EncodedString()
            for path in Self.paths {
                let missing = await rawReply(server, ["GET \(path) HTTP/1.1", "Host: 127.0.0.1"])
                #expect(missing.hasPrefix("HTTP/1.1 401"), "\(path)")
                #expect(missing.contains("WWW-Authenticate: Basic realm=\"httpmock admin\""), "\(path)")
                #expect(await rawReply(server, ["GET \(path) HTTP/1.1", "Host: 127.0.0.1", wrong]).hasPrefix("HTTP/1.1 401"), "\(path)")
            }
            let right = "Authorization: Basic " + Data("admin:s3cret-pass".utf8).base64EncodedString()
            for path in Self.paths.dropLast() + Self.listings {
                #expect(await rawReply(server, ["GET \(path) HTTP/1.1", "Host: 127.0.0.1", right]).hasPrefix("HTTP/1.1 200"), "\(path)")
            }
            for path in Self.listings {
                #expect(await rawReply(server, ["GET \(path) HTTP/1.1", "Host: 127.0.0.1"]).hasPrefix("HTTP/1.1 401"), "\(path)")
            }
            let events = try #require(EventReader(port: server.port, extraHeaders: [right]))
            let head = await offPool { events.head() }
            #expect(head?.status == 200)
            #expect(head?.headers["content-type"]?.hasPrefix("text/event-stream") == true)
            #expect(await offPool { events.next() }?.name == "ready")
        }
    }

    @Test("with the admin API off there is no page: its path is matched against the stubs like any other")
    func offWithTheAdminAPI() async throws {
        let mock = HTTPMock()
        try await HTTPMockServer.withServer(serving: mock) { server in
            let reply = try #require(await fetch(server, "/__admin/webapp"))
            #expect(reply.status == 404)
            #expect(reply.headers["content-security-policy"] == nil)
            #expect(mock.journal.map(\.request.url.path) == ["/__admin/webapp"])
        }
    }

    @Test("a request made after the event stream opened arrives on it: appended, then completed, in order")
    func liveEvents() async throws {
        try await withAdminServer { server, mock in
            let events = try #require(EventReader(port: server.port))
            let head = await offPool { events.head() }
            #expect(head?.status == 200)
            #expect(head?.headers["x-content-type-options"] == "nosniff")
            #expect(await offPool { events.next() }?.name == "ready")
            #expect(await rawReply(server, ["GET /ok?first HTTP/1.1", "Host: 127.0.0.1"]).hasPrefix("HTTP/1.1 200"))
            #expect(await rawReply(server, ["GET /nothing-here HTTP/1.1", "Host: 127.0.0.1"]).hasPrefix("HTTP/1.1 404"))
            var seen: [(String, String, Bool)] = []
            while seen.count < 4, let event = await offPool({ events.next() }) {
                guard event.name == "request", let json = event.json, let request = json["request"] as? [String: Any] else { continue }
                seen.append((request["url"] as? String ?? "", json["event"] as? String ?? "", json["wasMatched"] as? Bool ?? false))
            }
            // Each request's own events in order; the second request was sent after the first was answered.
            let first = seen.filter { $0.0 == "/ok?first" }, second = seen.filter { $0.0 == "/nothing-here" }
            #expect(first.map(\.1) == ["appended", "completed"])
            #expect(second.map(\.1) == ["appended", "completed"])
            #expect(seen.firstIndex { $0.0 == "/ok?first" } == 0)
            #expect(first.allSatisfy(\.2) && !second.contains(where: \.2))
            // Admin requests, the page's among them, are not journaled.
            #expect(mock.journal.count == 2)
        }
    }

    @Test("an unmatched request's events name its closest stub and how it differs, as its serve event does")
    func nearMissInEvents() async throws {
        try await withAdminServer { server, _ in
            let events = try #require(EventReader(port: server.port))
            _ = await offPool { events.head() }
            #expect(await offPool { events.next() }?.name == "ready")
            #expect(await rawReply(server, ["GET /okay HTTP/1.1", "Host: 127.0.0.1"]).hasPrefix("HTTP/1.1 404"))
            var answered: EventReader.Event?
            while answered == nil, let next = await offPool({ events.next() }) {
                if next.json?["event"] as? String == "completed" { answered = next }
            }
            let event = try #require(answered)
            #expect(event.json?["wasMatched"] as? Bool == false)
            let extra = try #require(event.json?["httpmock"] as? [String: Any])
            let closest = try #require((extra["closest"] as? [[String: Any]])?.first)
            #expect((closest["summary"] as? String)?.contains("/ok") == true)
            #expect((closest["differences"] as? [String])?.contains { $0.hasPrefix("path") } == true)
            // The journal's serve event carries them too, and, once answered, WireMock's timing.
            let id = try #require(event.json?["id"] as? String)
            let served = try #require(await fetch(server, "/__admin/requests/\(id)")?.json)
            let listed = try #require((served["httpmock"] as? [String: Any])?["closest"] as? [[String: Any]])
            #expect(listed.first?["summary"] as? String == closest["summary"] as? String)
            #expect((served["timing"] as? [String: Any])?["totalTime"] is Int)
        }
    }

    @Test("a <script> in a request's path, header and body is carried as JSON data, in the stream and the journal")
    func scriptInRequestIsData() async throws {
        try await withAdminServer { server, mock in
            let events = try #require(EventReader(port: server.port))
            _ = await offPool { events.head() }
            #expect(await offPool { events.next() }?.name == "ready")
            let evil = "<script>alert(1)</script>"
            let reply = await rawReply(server, ["POST /x?q=\(evil) HTTP/1.1", "Host: 127.0.0.1", "X-Evil: \(evil)", "Content-Type: text/html"],
                                       body: evil)
            #expect(reply.hasPrefix("HTTP/1.1 404"), "\(reply)")
            let event = try #require(await offPool { events.next() })
            #expect(event.name == "request")
            // One data line of JSON, whatever the request held.
            let url = try #require((event.json?["request"] as? [String: Any])?["url"] as? String)
            #expect(url.removingPercentEncoding == "/x?q=\(evil)")
            let id = try #require(event.json?["id"] as? String)
            let detail = try #require(await fetch(server, "/__admin/requests/\(id)"))
            #expect(detail.headers["content-type"] == "application/json")
            let request = try #require((detail.json?["request"] as? [String: Any]))
            #expect((request["headers"] as? [String: Any])?["X-Evil"] as? String == evil)
            #expect(request["body"] as? String == evil)
            #expect(mock.journal.count == 1)
        }
    }

    @Test("a page that does not read: the server queues a bounded number of events, drops the rest and says how many")
    func boundedStream() async throws {
        try await withAdminServer { server, _ in
            // A small receive buffer, never read while the requests come: the server's writes stop at once.
            let events = try #require(EventReader(port: server.port, receiveBuffer: 4096))
            _ = await offPool { events.head() }
            #expect(await offPool { events.next() }?.name == "ready")
            // Each request makes two events of about 16 KB; 400 of them are far more than the socket's buffers and
            // the server's queue hold together.
            let long = String(repeating: "a", count: 16_000)
            let sent = await offPool { () -> Int in
                guard let client = RawConnection(port: server.port) else { return 0 }
                var answered = 0
                for index in 0..<400 {
                    guard client.send("GET /flood/\(index)/\(long) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
                          client.nextResponse()?.status == 404 else { break }
                    answered += 1
                }
                return answered
            }
            #expect(sent == 400)
            // Now read: what was queued, then how many were dropped, then what came after, which still arrives.
            var received = 0
            var dropped: Int?
            while dropped == nil, let event = await offPool({ events.next() }) {
                if event.name == "request" { received += 1 }
                if event.name == "dropped" { dropped = event.json?["dropped"] as? Int }
            }
            let count = try #require(dropped)
            #expect(count > 0)
            #expect(received + count <= 800)
            #expect(await rawReply(server, ["GET /ok?after HTTP/1.1", "Host: 127.0.0.1"]).hasPrefix("HTTP/1.1 200"))
            var after = false
            while !after, let event = await offPool({ events.next() }) {
                after = (event.json?["request"] as? [String: Any])?["url"] as? String == "/ok?after"
            }
            #expect(after)
        }
    }

    @Test("a streamed answer's parts are in the request's timeline, in order, as data; a request the journal lacks gets 404")
    func timeline() async throws {
        try await withAdminServer { server, mock in
            mock.addResponses(forPath: "/stream") {
                MockResponse.chunks([.chunk("one"), .chunk("two", after: 0.01), .chunk("<script>x</script>")], contentType: "text/plain")
            }
            let streamed = await rawReply(server, ["GET /stream HTTP/1.1", "Host: 127.0.0.1"])
            #expect(streamed.hasPrefix("HTTP/1.1 200"), "\(streamed)")
            let listed = try #require(await fetch(server, "/__admin/requests?limit=1")?.json)
            let id = try #require((listed["requests"] as? [[String: Any]])?.first?["id"] as? String)
            let reply = try #require(await fetch(server, "/__admin/webapp/requests/\(id)/timeline"))
            #expect(reply.status == 200)
            #expect(reply.headers["content-type"] == "application/json")
            #expect(reply.headers["x-content-type-options"] == "nosniff")
            let json = try #require(reply.json)
            let stream = try #require(json["stream"] as? [String: Any])
            #expect(json["webSocket"] is NSNull)
            let parts = try #require(stream["parts"] as? [[String: Any]])
            #expect(parts.map { $0["text"] as? String } == ["one", "two", "<script>x</script>"])
            let offsets = parts.compactMap { $0["offsetMilliseconds"] as? Int }
            #expect(offsets.count == 3 && offsets == offsets.sorted())
            #expect(stream["partCount"] as? Int == 3)
            #expect(stream["ending"] as? String == "finished")
            let missing = try #require(await fetch(server, "/__admin/webapp/requests/00000000-0000-4000-8000-0000000000ff/timeline"))
            #expect(missing.status == 404)
        }
    }

    @Test("a WebSocket conversation's messages are in the request's timeline, both ways, in order, with the close code")
    func webSocketTimeline() async throws {
        try await withAdminServer { server, mock in
            let script = WebSocketScript()
                .send(.text("welcome"))
                .reply(to: .text("ping"), with: .text("<script>pong</script>"))
                .reply(to: .text("bye"), with: .text("see you"), closeCode: 1000)
            mock.addResponses(forPath: "/chat") { MockResponse.webSocket(script) }
            let client = try await NIOWebSocketClient.connect(port: server.port, path: "/chat")
            #expect(await client.messages(count: 1) == ["welcome"])
            try await client.send("ping")
            #expect(await client.messages(count: 2).last == "<script>pong</script>")
            try await client.send("bye")
            #expect(await client.closeCode() == 1000)
            while mock.journal.last?.webSocket?.isOpen != false {
                try await Task.sleep(nanoseconds: 5_000_000)
            }
            let entry = try #require(mock.journal.last)
            let id = ServeEventJSON.id(of: entry)
            let timeline = try #require(await fetch(server, "/__admin/webapp/requests/\(id)/timeline")?.json)
            #expect(timeline["stream"] is NSNull)
            let conversation = try #require(timeline["webSocket"] as? [String: Any])
            let messages = try #require(conversation["messages"] as? [[String: Any]])
            #expect(messages.map { $0["text"] as? String } == ["welcome", "ping", "<script>pong</script>", "bye", "see you"])
            #expect(messages.map { $0["fromClient"] as? Bool } == [false, true, false, true, false])
            #expect(conversation["closeCode"] as? Int == 1000)
            #expect(conversation["open"] as? Bool == false)
        }
    }

    @Test("every stub is listed in registration order: code, file and admin API stubs, with their source, hits and enabled state")
    func stubListing() async throws {
        let evil = "<script>alert(1)</script>"
        let folder = try temporaryFolder([
            "mappings/file.json": #"{"name": "\#(evil)", "request": {"method": "GET", "urlPath": "/from-file"}, "response": {"status": 200}}"#,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withAdminServer { server, mock in
            let off = try mock.stub(.method(.get), .path("/switched-off")) { MockResponse.plaintext("off", lifetime: .eternal) }
            off.isEnabled = false
            try mock.loadWireMockMappings(from: folder)
            let created = await rawReply(server, ["POST /__admin/mappings HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json"],
                                         body: #"{"id": "8a3e7d1c-0b2f-4c55-9d0e-5f6a7b8c9d0e", "name": "made over the API", "request": {"method": "PUT", "url": "/api"}, "response": {"status": 204}}"#)
            #expect(created.hasPrefix("HTTP/1.1 201"), "\(created)")
            for path in ["/ok", "/ok", "/from-file", "/switched-off"] {
                _ = await rawReply(server, ["GET \(path) HTTP/1.1", "Host: 127.0.0.1"])
            }
            let reply = try #require(await fetch(server, "/__admin/webapp/stubs"))
            #expect(reply.status == 200)
            #expect(reply.headers["content-type"] == "application/json")
            #expect(reply.headers["x-content-type-options"] == "nosniff")
            #expect(reply.headers["content-security-policy"] == WebApp.contentSecurityPolicy)
            let json = try #require(reply.json)
            let meta = try #require(json["meta"] as? [String: Any])
            #expect(meta["total"] as? Int == 4 && meta["offset"] as? Int == 0 && meta["limit"] as? Int == WebAppStubs.defaultLimit)
            #expect(json["mockEnabled"] as? Bool == true)
            let stubs = try #require(json["stubs"] as? [[String: Any]])
            #expect(stubs.map { $0["route"] as? String } == ["ANY example.com/ok", "GET /switched-off", "GET /from-file", "PUT /api"])
            #expect(stubs.map { $0["id"] as? String } == ["#0", "#1", "#2", "#3"])
            #expect(stubs.map { $0["hits"] as? Int } == [2, 0, 1, 0])
            #expect(stubs.map { $0["enabled"] as? Bool } == [true, false, true, true])
            let sources = stubs.map { $0["source"] as? [String: String] ?? [:] }
            #expect(sources[0] == ["kind": "code"] && sources[1] == ["kind": "code"])
            #expect(sources[2]["kind"] == "file")
            #expect(sources[2]["place"]?.hasPrefix("mappings/file.json") == true)
            #expect(sources[3] == ["kind": "adminAPI", "mappingId": "8a3e7d1c-0b2f-4c55-9d0e-5f6a7b8c9d0e"])
            // A name from a file is data: the same characters, in a JSON string.
            #expect(stubs.map { $0["name"] as? String } == [nil, nil, evil, "made over the API"])
            #expect(reply.text.contains(#""name":"<script>alert(1)</script>""#))
            #expect((stubs[0]["summary"] as? String)?.contains("/ok") == true)
            #expect(stubs[0]["servesForever"] as? Bool == true)
            // The mock switched off is said; its stubs keep their own state.
            mock.isEnabled = false
            let disabled = try #require(await fetch(server, "/__admin/webapp/stubs")?.json)
            #expect(disabled["mockEnabled"] as? Bool == false)
            #expect((disabled["stubs"] as? [[String: Any]])?.map { $0["enabled"] as? Bool } == [true, false, true, true])
        }
    }

    @Test("the stubs come a page at a time: pages join into the whole list; past the end is empty; a bad offset or limit is named")
    func stubPaging() async throws {
        try await withAdminServer { server, mock in
            var handles: [StubHandle] = []
            for index in 0..<10 {
                handles.append(try mock.stub(.method(.get), .path("/item/\(index)")) { MockResponse.plaintext("\(index)") })
            }
            var routes: [String] = []
            for offset in stride(from: 0, to: 12, by: 4) {
                let page = try #require(await fetch(server, "/__admin/webapp/stubs?limit=4&offset=\(offset)")?.json)
                #expect((page["meta"] as? [String: Any])?["total"] as? Int == 11)
                let stubs = try #require(page["stubs"] as? [[String: Any]])
                #expect(stubs.count == min(4, 11 - offset), "offset \(offset)")
                routes += stubs.compactMap { $0["route"] as? String }
            }
            #expect(routes == ["ANY example.com/ok"] + (0..<10).map { "GET /item/\($0)" })
            for past in ["/__admin/webapp/stubs?offset=11", "/__admin/webapp/stubs?offset=1000000", "/__admin/webapp/stubs?limit=0"] {
                let page = try #require(await fetch(server, past)?.json, "\(past)")
                #expect((page["stubs"] as? [Any])?.isEmpty == true, "\(past)")
                #expect((page["meta"] as? [String: Any])?["total"] as? Int == 11, "\(past)")
            }
            // With stubs removed, the pages skip the holes they leave, and still join into the whole list.
            handles[2].remove()
            handles[5].remove()
            var left: [String] = []
            for offset in stride(from: 0, to: 9, by: 3) {
                let page = try #require(await fetch(server, "/__admin/webapp/stubs?limit=3&offset=\(offset)")?.json)
                #expect((page["meta"] as? [String: Any])?["total"] as? Int == 9)
                left += (page["stubs"] as? [[String: Any]] ?? []).compactMap { $0["route"] as? String }
            }
            #expect(left == ["ANY example.com/ok"] + [0, 1, 3, 4, 6, 7, 8, 9].map { "GET /item/\($0)" })
            #expect((try #require(await fetch(server, "/__admin/webapp/stubs?offset=9")?.json)["stubs"] as? [Any])?.isEmpty == true)
            let most = try #require(await fetch(server, "/__admin/webapp/stubs?limit=\(WebAppStubs.mostLimit)")?.json)
            #expect((most["stubs"] as? [Any])?.count == 9)
            // After every stub is removed, the next ones are listed from the start, with their new ids.
            mock.clearQueues()
            try mock.stub(.method(.post), .path("/again")) { MockResponse.plaintext("again") }
            let again = try #require(await fetch(server, "/__admin/webapp/stubs?offset=0&limit=2")?.json)
            #expect((again["stubs"] as? [[String: Any]])?.map { $0["route"] as? String } == ["POST /again"])
            #expect((again["stubs"] as? [[String: Any]])?.first?["id"] as? String == "#11")
            for (query, parameter) in [("limit=\(WebAppStubs.mostLimit + 1)", "limit"), ("offset=-1", "offset"), ("limit=many", "limit")] {
                for listing in ["stubs", "scenarios"] {
                    let reply = try #require(await fetch(server, "/__admin/webapp/\(listing)?\(query)"))
                    #expect(reply.status == 400, "\(listing)?\(query)")
                    let error = try #require((reply.json?["errors"] as? [[String: Any]])?.first, "\(listing)?\(query)")
                    #expect((error["source"] as? [String: String])?["pointer"] == parameter)
                    #expect((error["detail"] as? String)?.contains(parameter + "=") == true)
                }
            }
        }
    }

    @Test("a scenario's state and moves: from the state a stub requires (or any) to the state it moves to, named by the stub")
    func scenarioTransitions() async throws {
        try await withAdminServer { server, mock in
            try mock.stub(.method(.post), .path("/pay"), .scenario("checkout", state: "Started")) {
                MockResponse.plaintext("paid", lifetime: .eternal).movingScenario("checkout", to: "Paid")
            }
            try mock.stub(.method(.post), .path("/ship"), .scenario("checkout", state: "Paid")) {
                MockResponse.plaintext("shipped", lifetime: .eternal).movingScenario("checkout", to: "Shipped")
            }
            try mock.stub(.method(.delete), .path("/cart")) {
                MockResponse.plaintext("emptied", lifetime: .eternal).movingScenario("checkout", to: "Started")
            }
            let evil = "<script>alert('scenario')</script>"
            try mock.stub(.method(.get), .path("/evil"), .scenario(evil, state: "<b>first</b>")) {
                MockResponse.plaintext("x").movingScenario(evil, to: "<img src=x onerror=alert(1)>")
            }
            let before = try #require(await fetch(server, "/__admin/webapp/scenarios")?.json)
            #expect(((before["scenarios"] as? [[String: Any]])?.first)?["state"] as? String == "Started")
            #expect(await rawReply(server, ["POST /pay HTTP/1.1", "Host: 127.0.0.1"]).hasPrefix("HTTP/1.1 200"))
            let reply = try #require(await fetch(server, "/__admin/webapp/scenarios"))
            #expect(reply.status == 200)
            #expect(reply.headers["content-type"] == "application/json")
            let json = try #require(reply.json)
            #expect((json["meta"] as? [String: Any])?["total"] as? Int == 2)
            let scenarios = try #require(json["scenarios"] as? [[String: Any]])
            #expect(scenarios.map { $0["name"] as? String } == ["checkout", evil])
            let checkout = scenarios[0]
            #expect(checkout["state"] as? String == "Paid")
            #expect(checkout["possibleStates"] as? [String] == ["Started", "Paid", "Shipped"])
            let moves = try #require(checkout["transitions"] as? [[String: Any]])
            #expect(moves.map { ($0["from"] as? String) ?? "any" } == ["Started", "Paid", "any"])
            #expect(moves[2]["from"] is NSNull)
            #expect(moves.map { $0["to"] as? String } == ["Paid", "Shipped", "Started"])
            #expect(moves.map { $0["route"] as? String } == ["POST /pay", "POST /ship", "DELETE /cart"])
            #expect(moves.map { $0["stub"] as? String } == ["#1", "#2", "#3"])
            #expect((moves[0]["summary"] as? String)?.contains("scenario 'checkout' in 'Started'") == true)
            #expect(checkout["transitionCount"] as? Int == 3)
            // Names and states a stub gives are data, as written.
            let odd = scenarios[1]
            #expect(odd["possibleStates"] as? [String] == ["Started", "<b>first</b>", "<img src=x onerror=alert(1)>"])
            #expect(((odd["transitions"] as? [[String: Any]])?.first)?["from"] as? String == "<b>first</b>")
            // Paged as the stubs are.
            let second = try #require(await fetch(server, "/__admin/webapp/scenarios?offset=1&limit=1")?.json)
            #expect((second["scenarios"] as? [[String: Any]])?.map { $0["name"] as? String } == [evil])
            // The stubs listing says the same of each stub.
            let listed = try #require(await fetch(server, "/__admin/webapp/stubs?offset=1&limit=1")?.json)
            let pay = try #require((listed["stubs"] as? [[String: Any]])?.first)
            #expect(pay["requiredStates"] as? [[String: String]] == [["scenario": "checkout", "state": "Started"]])
            #expect(pay["movesTo"] as? [[String: String]] == [["scenario": "checkout", "state": "Paid"]])
            #expect(pay["hits"] as? Int == 1)
        }
    }

    @Test("a graceful stop ends the event stream, whole, instead of waiting for the page to go away")
    func stopEndsTheStream() async throws {
        let server = try await HTTPMockServer.start(serving: HTTPMock(), configuration: .init(adminAPI: true))
        let events = try #require(EventReader(port: server.port))
        _ = await offPool { events.head() }
        #expect(await offPool { events.next() }?.name == "ready")
        async let stopped: Void = server.stop(gracePeriod: 120)
        #expect(await offPool { events.next() } == nil)
        // The last chunk came: the response ended, the connection was not cut at the end of the grace period.
        #expect(events.isComplete)
        await stopped
    }

    @Test("the queue holds so many events and bytes; a dropped event takes the place of what it dropped")
    func boundedQueue() {
        var queue = BoundedEvents(.init(events: 4, bytes: 1_000))
        for index in 0..<10 { queue.offer(Data("event \(index)".utf8)) }
        #expect(queue.count == 4)
        #expect(queue.dropped == 6)
        #expect(queue.take() == Data("event 0".utf8))
        // Room for one: the notice of the drops goes first, then the event, once both fit.
        queue.offer(Data("event 10".utf8))
        #expect(queue.count == 3)
        #expect(queue.dropped == 7)
        #expect(queue.take() == Data("event 1".utf8))
        queue.offer(Data("event 11".utf8))
        #expect(queue.dropped == 0)
        var taken: [String] = []
        while let event = queue.take() { taken.append(String(decoding: event, as: UTF8.self)) }
        #expect(taken == ["event 2", "event 3", "event: dropped\ndata: {\"dropped\":7}\n\n", "event 11"])
        // Drops with nothing after them are told once the queue is empty.
        var bytes = BoundedEvents(.init(events: 100, bytes: 1_000))
        for _ in 0..<5 { bytes.offer(Data(repeating: 0x61, count: 400)) }
        #expect(bytes.count == 2)
        #expect(bytes.bytes == 800)
        _ = bytes.take()
        _ = bytes.take()
        #expect(bytes.take() == Data("event: dropped\ndata: {\"dropped\":3}\n\n".utf8))
        #expect(bytes.take() == nil)
    }
}

/// A reply read whole, over a connection of its own.
private struct PageReply: @unchecked Sendable {  // reason: `json` holds only JSONSerialization's immutable values, read by the test that made it
    var status: Int
    var headers: [String: String]
    var text: String
    var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] }
}

/// `GET path` from the server's own address.
private func fetch(_ server: HTTPMockServer, _ path: String, headers: [String] = []) async -> PageReply? {
    await offPool {
        guard let connection = RawConnection(port: server.port) else { return nil }
        connection.send((["GET \(path) HTTP/1.1", "Host: 127.0.0.1:\(server.port)"] + headers).joined(separator: "\r\n") + "\r\n\r\n")
        guard let response = connection.nextResponse(keepingBody: true) else { return nil }
        return PageReply(status: response.status, headers: response.headers, text: String(decoding: response.body, as: UTF8.self))
    }
}

private func statusLine(_ reply: String) -> String {
    String(reply.prefix { $0 != "\r" })
}

/// Reads the page's event stream over a connection of its own, as a browser's `EventSource` would. Every call blocks:
/// use it through ``offPool(_:)``.
private final class EventReader: @unchecked Sendable {  // reason: used by one test at a time, each call from one thread in turn
    struct Event {
        var name: String
        var data: String
        var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] }
    }

    private let connection: RawConnection
    private var pending: [UInt8] = []
    /// The stream's last chunk came: the response ended whole.
    private(set) var isComplete = false

    init?(port: Int, receiveBuffer: Int? = nil, extraHeaders: [String] = []) {
        guard let connection = RawConnection(port: port, receiveBuffer: receiveBuffer) else { return nil }
        self.connection = connection
        let lines = ["GET /__admin/webapp/events HTTP/1.1", "Host: 127.0.0.1:\(port)", "Accept: text/event-stream"] + extraHeaders
        connection.send(lines.joined(separator: "\r\n") + "\r\n\r\n")
    }

    func head() -> (status: Int, headers: [String: String])? {
        connection.nextStreamHead()
    }

    /// The next event; `nil` when the stream ends or nothing comes within the connection's read timeout.
    func next() -> Event? {
        while true {
            if let end = find() {
                let block = String(decoding: pending[0..<end], as: UTF8.self)
                pending.removeFirst(end + 2)
                var event = Event(name: "message", data: "")
                for line in block.split(separator: "\n") {
                    if line.hasPrefix("event: ") { event.name = String(line.dropFirst(7)) }
                    if line.hasPrefix("data: ") { event.data += String(line.dropFirst(6)) }
                }
                return event
            }
            guard let chunk = connection.nextChunk() else { return nil }
            guard !chunk.isEmpty else {
                isComplete = true
                return nil
            }
            pending += chunk
        }
    }

    private func find() -> Int? {
        guard pending.count >= 2 else { return nil }
        for index in 0..<(pending.count - 1) where pending[index] == 10 && pending[index + 1] == 10 { return index }
        return nil
    }
}
