import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock
import HTTPMockServer
import HTTPMockTesting
import NIOCore
import Testing

@Suite("HTTPMockServer serves a mock's stubs")
struct ServingTests {
    @Test("a plain URLSession, without any URLProtocol, gets the stub's response; the journal has the request")
    func plainURLSession() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/user", host: "api.example.com") {
            MockResponse.plaintext("Alice", headers: ["X-Served": "yes"])
        }
        try await HTTPMockServer.withServer(serving: mock, configuration: .init(origin: "https://api.example.com")) { server in
            let (data, response) = try await plainSession().data(from: server.baseURL.appendingPathComponent("user"))
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 200)
            #expect(http.value(forHTTPHeaderField: "X-Served") == "yes")
            #expect(String(decoding: data, as: UTF8.self) == "Alice")
            HTTPAssertRequested("https://api.example.com/user", method: .get, count: .exactly(1), in: mock)
            #expect(mock.journal.last?.statusCode == 200)
        }
    }

    @Test("without an origin, requests are matched as the mock's default domain")
    func defaultDomain() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/ping") { MockResponse.plaintext("pong") }
        try await HTTPMockServer.withServer(serving: mock) { server in
            #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
            let (data, _) = try await plainSession().data(from: server.baseURL.appendingPathComponent("ping"))
            #expect(String(decoding: data, as: UTF8.self) == "pong")
            HTTPAssertRequested("http://example.com/ping", in: mock)
        }
    }

    @Test("without an origin, a miss whose closest stub differs only by host says to pass origin:")
    func originHint() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/forecast", host: "api.weather.test") { MockResponse.plaintext("sunny") }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let (data, response) = try await plainSession().data(from: server.baseURL.appendingPathComponent("forecast"))
            #expect((response as? HTTPURLResponse)?.statusCode == 404)
            let text = String(decoding: data, as: UTF8.self)
            #expect(text.contains("host: expected api.weather.test, got example.com"))
            #expect(text.contains(#"start the server with origin: "https://api.weather.test" (httpmock serve --origin https://api.weather.test)"#))
            #expect(mock.journal.last?.report?.notes.contains { $0.contains("the mock's default domain") } == true)
        }
        // With the origin, the same request is answered.
        try await HTTPMockServer.withServer(serving: mock, configuration: .init(origin: "https://api.weather.test")) { server in
            let (data, _) = try await plainSession().data(from: server.baseURL.appendingPathComponent("forecast"))
            #expect(String(decoding: data, as: UTF8.self) == "sunny")
        }
    }

    @Test("the .httpMock trait's mock can be served: its end-of-test checks see the served requests", .httpMock { mock in
        mock.addResponses(forPath: "/me", host: "api.example.com") { MockResponse.plaintext("Alice") }
    })
    func traitMock() async throws {
        let mock = try #require(HTTPMock.current)
        try await HTTPMockServer.withServer(serving: mock, configuration: .init(origin: "https://api.example.com")) { server in
            let (data, _) = try await plainSession().data(from: server.baseURL.appendingPathComponent("me"))
            #expect(String(decoding: data, as: UTF8.self) == "Alice")
            HTTPAssertRequestedOnce("https://api.example.com/me")  // reads HTTPMock.current
        }
    }

    @Test("a Host header naming another host is matched as that host")
    func hostHeader() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/logo", host: "cdn.example.com") { MockResponse.plaintext("cdn") }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let client = HTTPClient.shared
            var request = HTTPClientRequest(url: server.baseURL.appendingPathComponent("logo").absoluteString)
            request.headers.replaceOrAdd(name: "Host", value: "cdn.example.com")
            let response = try await client.execute(request, timeout: .seconds(300))
            #expect(response.status.code == 200)
            let body = try await response.body.collect(upTo: 1 << 20)
            #expect(String(buffer: body) == "cdn")
        }
    }

    @Test("a request in absolute form, as a client sends it to a proxy, is matched as its URL's host", .disabled(if: runsUnderAddressSanitizer, "launches curl, which Foundation cannot do reliably under AddressSanitizer"))
    func absoluteForm() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/logo", host: "cdn.example.com", query: ["size": "2"]) { MockResponse.plaintext("cdn") }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let result = try await Curl.run(["-x", server.baseURL.absoluteString, "http://cdn.example.com/logo?size=2"])
            #expect(result.output == "cdn")
            HTTPAssertRequested("http://cdn.example.com/logo?size=2", in: mock)
        }
    }

    @Test("queues and lifetimes: each response is served as often as its lifetime says, then the next")
    func queues() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/feed") {
            MockResponse.plaintext("first", lifetime: .multiple(2))
            MockResponse.plaintext("down", status: .other(503))
        }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let url = server.baseURL.appendingPathComponent("feed")
            var seen: [String] = []
            for _ in 0..<4 {
                let (data, response) = try await plainSession().data(from: url)
                seen.append("\((response as? HTTPURLResponse)?.statusCode ?? 0) \(String(decoding: data, as: UTF8.self))")
            }
            #expect(seen[0] == "200 first")
            #expect(seen[1] == "200 first")
            #expect(seen[2] == "503 down")
            #expect(seen[3].hasPrefix("404 "))  // the queue is empty: the unmocked policy answers
        }
    }

    @Test("a dynamic response is built from the request the server received, body included")
    func dynamicResponse() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/echo", method: .post) {
            MockResponse.echo(lifetime: .eternal)
        }
        try await HTTPMockServer.withServer(serving: mock) { server in
            var request = URLRequest(url: server.baseURL.appendingPathComponent("echo"))
            request.httpMethod = "POST"
            request.httpBody = Data("hello server".utf8)
            request.setValue("42", forHTTPHeaderField: "X-Answer")
            let (data, response) = try await plainSession().data(for: request)
            #expect(String(decoding: data, as: UTF8.self) == "hello server")
            #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Answer") == "42")
            #expect(mock.journal.last?.request.bodyText == "hello server")
        }
    }

    @Test("HEAD gets the status and headers, Content-Length included, and no body")
    func head() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/doc") { MockResponse.plaintext("twelve bytes", lifetime: .eternal) }
        try await HTTPMockServer.withServer(serving: mock) { server in
            var request = HTTPClientRequest(url: server.baseURL.appendingPathComponent("doc").absoluteString)
            request.method = .HEAD
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(300))
            #expect(response.status.code == 200)
            #expect(response.headers.first(name: "content-length") == "12")
            let body = try await response.body.collect(upTo: 1 << 20)
            #expect(body.readableBytes == 0)
        }
    }

    @Test("keep-alive: two requests sent together on one connection get two responses on it, in order")
    func keepAliveAndPipelining() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/a") { MockResponse.plaintext("response a") }
        mock.addResponses(forPath: "/b") { MockResponse.plaintext("response b") }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let requests = "GET /a HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /b HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            let (reply, closed) = await RawSocket.exchange(port: server.port, sending: Array(requests.utf8))
            #expect(closed)
            let a = try #require(reply.range(of: "response a"))
            let b = try #require(reply.range(of: "response b"))
            #expect(a.upperBound <= b.lowerBound)
            #expect(reply.components(separatedBy: "HTTP/1.1 200 OK").count == 3)
        }
    }

    @Test("AsyncHTTPClient reuses one connection for sequential requests")
    func connectionReuse() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/n") { MockResponse.plaintext("n", lifetime: .eternal) }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        try await HTTPMockServer.withServer(serving: mock) { server in
            for _ in 0..<5 {
                let response = try await client.execute(HTTPClientRequest(url: server.baseURL.appendingPathComponent("n").absoluteString),
                                                        timeout: .seconds(300))
                _ = try await response.body.collect(upTo: 1024)
            }
            #expect(server.openConnections == 1)
        }
        try await client.shutdown()
    }

    @Test("a chunked request body is read whole; a stub asking for chunked transfer gets a chunked response")
    func chunked() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/upload", method: .post) {
            MockResponse.echo(headers: ["Transfer-Encoding": "chunked"])
        }
        try await HTTPMockServer.withServer(serving: mock) { server in
            var request = HTTPClientRequest(url: server.baseURL.appendingPathComponent("upload").absoluteString)
            request.method = .POST
            let parts = AsyncStream<ByteBuffer> { continuation in
                for index in 0..<5 { continuation.yield(ByteBuffer(string: "part \(index);")) }
                continuation.finish()
            }
            request.body = .stream(parts, length: .unknown)
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(300))
            #expect(response.headers.first(name: "transfer-encoding") == "chunked")
            #expect(response.headers.first(name: "content-length") == nil)
            let body = try await response.body.collect(upTo: 1 << 20)
            #expect(String(buffer: body) == "part 0;part 1;part 2;part 3;part 4;")
            #expect(mock.journal.last?.request.headers["Transfer-Encoding"] == "chunked")
        }
    }

    @Test("a file response is streamed: the client gets every byte")
    func fileResponse() async throws {
        let file = try temporaryFile(size: 3 << 20)
        defer { try? FileManager.default.removeItem(at: file) }
        let mock = HTTPMock()
        mock.addResponses(forPath: "/big.bin") { MockResponse.file(url: file) }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: server.baseURL.appendingPathComponent("big.bin").absoluteString), timeout: .seconds(300))
            #expect(response.headers.first(name: "content-length") == String(3 << 20))
            let body = try await response.body.collect(upTo: 8 << 20)
            #expect(Data(buffer: body) == (try Data(contentsOf: file)))
            #expect(mock.journal.last?.statusCode == 200)
        }
    }

    @Test("a delayed response waits on a timer: other requests are answered meanwhile")
    func delays() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/slow") { MockResponse.plaintext("slow", delivery: .delayed(600)) }
        mock.addResponses(forPath: "/fast") { MockResponse.plaintext("fast") }
        let server = try await HTTPMockServer.start(serving: mock)
        async let slow = RawSocket.exchange(port: server.port, sending: Array("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        _ = await waitForRequest(url: "http://example.com/slow", in: mock, timeout: 120)
        let (data, _) = try await plainSession().data(from: server.baseURL.appendingPathComponent("fast"))
        #expect(String(decoding: data, as: UTF8.self) == "fast")
        #expect(mock.journal.first?.outcome == nil)  // /slow is still waiting for its timer
        await server.stop()
        #expect(await slow.reply.isEmpty)
        // The client went away before the response: the entry says so.
        #expect(mock.journal.first?.outcome?.statusCode == nil)
        #expect(mock.journal.first?.completedAt != nil)
    }

    @Test("a delayed response arrives")
    func delayedArrives() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/slow") { MockResponse.plaintext("slow", delivery: .delayed(0.2)) }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let (data, _) = try await plainSession().data(from: server.baseURL.appendingPathComponent("slow"))
            #expect(String(decoding: data, as: UTF8.self) == "slow")
        }
    }

    @Test("a throttled response arrives whole")
    func throttled() async throws {
        let mock = HTTPMock()
        let body = Data(repeating: 7, count: 4096)
        mock.addResponses(forPath: "/trickle") {
            MockResponse(body: body, delivery: .throttled(bytesPerSecond: 16_384))
        }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let (data, _) = try await plainSession().data(from: server.baseURL.appendingPathComponent("trickle"))
            #expect(data == body)
        }
    }

    @Test("redirects are sent, not followed: the client follows them, and each hop is journaled")
    func redirects() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/old") { MockResponse.redirect(to: "/new") }
        mock.addResponses(forPath: "/new") { MockResponse.plaintext("moved here") }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let (data, response) = try await plainSession().data(from: server.baseURL.appendingPathComponent("old"))
            #expect(String(decoding: data, as: UTF8.self) == "moved here")
            #expect(response.url?.path == "/new")
            #expect(mock.journal.map(\.statusCode) == [302, 200])
        }
    }

    @Test("Set-Cookie goes to the client, which stores it and sends it back")
    func cookies() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/login") {
            MockResponse.empty(headers: ["Set-Cookie": "session=abc123; Path=/"])
        }
        mock.addResponses(forPath: "/me") { MockResponse.plaintext("me") }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let session = plainSession()
            _ = try await session.data(from: server.baseURL.appendingPathComponent("login"))
            _ = try await session.data(from: server.baseURL.appendingPathComponent("me"))
            HTTPAssertRequested("http://example.com/me", headers: ["Cookie": "session=abc123"], in: mock)
        }
    }

    @Test("cookies joined in one header value go out as one Set-Cookie field each; an Expires date stays whole")
    func joinedCookies() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/login") {
            MockResponse.empty(headers: ["Set-Cookie": "a=1; Path=/, b=2; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/"])
        }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let (reply, _) = await RawSocket.exchange(
                port: server.port, sending: Array("GET /login HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
            let fields = reply.components(separatedBy: "\r\n").filter { $0.lowercased().hasPrefix("set-cookie:") }
            #expect(fields == ["Set-Cookie: a=1; Path=/", "Set-Cookie: b=2; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/"])
        }
    }

    @Test("an unmatched request gets 404 with the near-miss report")
    func unmatched() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/users") { MockResponse.plaintext("users") }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let (data, response) = try await plainSession().data(from: server.baseURL.appendingPathComponent("user"))
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 404)
            #expect(http.value(forHTTPHeaderField: "X-HTTPMock") == "unmatched")
            let text = String(decoding: data, as: UTF8.self)
            #expect(text.contains("/users"))
            #expect(mock.journal.last?.statusCode == 404)
        }
    }

    @Test("under the passthrough policy the server answers 502 and says why")
    func passthrough() async throws {
        let mock = HTTPMock()
        mock.unmockedPolicy = .passthrough
        try await HTTPMockServer.withServer(serving: mock) { server in
            let (data, response) = try await plainSession().data(from: server.baseURL.appendingPathComponent("anything"))
            #expect((response as? HTTPURLResponse)?.statusCode == 502)
            #expect(String(decoding: data, as: UTF8.self).contains(".passthrough"))
            #expect(mock.journal.last?.statusCode == 502)
        }
    }

    @Test("waitForResponse sees a request the server answered")
    func waits() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/later") { MockResponse.plaintext("done") }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let url = server.baseURL.appendingPathComponent("later")
            let task = Task { try await plainSession().data(from: url) }
            let entry = try #require(await waitForResponse(url: "http://example.com/later", in: mock, timeout: 120))
            #expect(entry.statusCode == 200)
            _ = try await task.value
        }
    }

    @Test("stop frees the port and closes open connections")
    func stop() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/hang") { MockResponse.plaintext("late", delivery: .delayed(600)) }
        let server = try await HTTPMockServer.start(serving: mock)
        let port = server.port
        async let reply = RawSocket.exchange(port: port, sending: Array("GET /hang HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        _ = await waitForRequest(url: "http://example.com/hang", in: mock, timeout: 120)
        await server.stop()
        let (text, closed) = await reply
        #expect(closed)
        #expect(text.isEmpty)
        #expect(server.openConnections == 0)
        // The same port can be bound again at once.
        let again = try await HTTPMockServer.start(serving: mock, port: port)
        #expect(again.port == port)
        await again.stop()
    }

    @Test("parallel tests each get their own server and port")
    func parallelServers() async throws {
        let ports = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let mock = HTTPMock()
                    mock.addResponses(forPath: "/id") { MockResponse.plaintext("\(index)") }
                    return try await HTTPMockServer.withServer(serving: mock) { server in
                        let (data, _) = try await plainSession().data(from: server.baseURL.appendingPathComponent("id"))
                        #expect(String(decoding: data, as: UTF8.self) == "\(index)")
                        return server.port
                    }
                }
            }
            return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }
        #expect(ports.count == 8)
    }
}

