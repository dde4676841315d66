import Foundation
import HTTPMock
import HTTPMockServer
import Testing

/// `httpmock serve --proxy URL --record-to DIR` relays WebSockets to the upstream and records each conversation as
/// message stub mappings; `httpmock serve DIR` replays it. The same with Swift's recording API.
@Suite("WebSocket conversations are relayed through the proxy, recorded as message stubs, and replayed from the folder")
struct WebSocketRecordingCommandTests {
    /// An upstream that welcomes, answers ping and echoes JSON.
    private static func upstream() -> HTTPMock {
        let mock = HTTPMock()
        let script = WebSocketScript()
            .send(.text("welcome"))
            .reply(to: .text("ping"), with: .text("pong"), .text("pong again"))
            .reply(to: .containing("price"), with: .text("{\"price\":42}"))
        mock.addResponses(forPath: "/socket") { MockResponse.webSocket(script) }
        return mock
    }

    /// The conversation the tests hold: connect, read the welcome, two questions, then close.
    private static func converse(port: Int) async throws -> [String] {
        let client = try await NIOWebSocketClient.connect(port: port, path: "/socket")
        _ = await client.messages(count: 1)
        try await client.send("ping")
        _ = await client.messages(count: 3)
        try await client.send("{\"ask\":\"price\"}")
        let heard = await client.messages(count: 4)
        try await client.close()
        _ = await client.closeCode()
        return heard
    }

    @Test("through httpmock serve --proxy --record-to, then httpmock serve on the folder")
    func recordsWithTheCommand() async throws {
        let folder = try temporaryFolder()
        let expected = ["welcome", "pong", "pong again", "{\"price\":42}"]
        try await HTTPMockServer.withServer(serving: Self.upstream()) { upstream in
            let child = try ChildProcess("httpmock", arguments: ["serve", "--record-to", folder.path, "--proxy", upstream.baseURL.absoluteString])
            let url = try #require(URL(string: try await child.nextLine()))
            #expect(try await Self.converse(port: try #require(url.port)) == expected)
            #expect(await child.terminate() == 0)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("message-mappings").path)
        #expect(files.count == 1)
        let http = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("mappings").path)) ?? []
        #expect(http.isEmpty, "a conversation is no HTTP mapping: \(http)")

        let replay = try ChildProcess("httpmock", arguments: ["serve", folder.path])
        let url = try #require(URL(string: try await replay.nextLine()))
        let recorded = try files.map { try String(contentsOf: folder.appendingPathComponent("message-mappings/\($0)"), encoding: .utf8) }
        let heard = try await Self.converse(port: try #require(url.port))
        // Under load the two answers to "ping" are recorded a few microseconds apart: replayed, they must still
        // arrive in order (they once raced on separate timers).
        #expect(heard == expected, "heard \(heard); recorded \(recorded)")
        #expect(await replay.terminate() == 0)
    }

    @Test("through HTTPMockServer with a proxy and the recording API, then loadWireMockMappings")
    func recordsWithTheAPI() async throws {
        let folder = try temporaryFolder()
        let expected = ["welcome", "pong", "pong again", "{\"price\":42}"]
        try await HTTPMockServer.withServer(serving: Self.upstream()) { upstream in
            let proxy = HTTPMock()
            let recording = try proxy.startRecording(to: folder, format: .wireMock, mode: .always)
            try await HTTPMockServer.withServer(serving: proxy, configuration: HTTPMockServer.Configuration(proxy: upstream.baseURL)) { server in
                let heard = try await Self.converse(port: server.port)
                #expect(heard == expected)
                while proxy.journal.last?.webSocket?.isOpen != false { try await Task.sleep(nanoseconds: 5_000_000) }
            }
            try recording.finish()
        }
        let replay = HTTPMock()
        try replay.loadWireMockMappings(from: folder)
        #expect(replay.messageStubCount == 3)
        try await HTTPMockServer.withServer(serving: replay) { server in
            let heard = try await Self.converse(port: server.port)
            #expect(heard == expected)
        }
    }

    @Test("a client that reads late still gets every relayed message, in order: the relay pauses the upstream and resumes it")
    func slowClientGetsEverything() async throws {
        guard PythonWebSockets.isAvailable else {
            print("HTTPMock: Python's websockets package is not installed here: the slow relayed client was NOT tried")
            return
        }
        let socket = MockWebSocket()
        let upstream = HTTPMock()
        upstream.addResponses(forPath: "/firehose") { MockResponse.webSocket(handle: socket) }
        let count = 200
        try await HTTPMockServer.withServer(serving: upstream) { upstreamServer in
            let proxy = HTTPMock()
            proxy.unmockedPolicy = .passthrough
            try await HTTPMockServer.withServer(serving: proxy, configuration: HTTPMockServer.Configuration(proxy: upstreamServer.baseURL)) { server in
                // 200 messages of 64 KiB (12.5 MiB), far past the sockets' buffers, pushed as soon as the client is there;
                // the client waits before it reads, with a small receive buffer, so the relay must hold the upstream back.
                let pusher = Task {
                    await socket.waitForClient()
                    let filler = String(repeating: "x", count: 65_536 - 8)
                    for index in 0..<count { socket.send(.text(String(format: "%08d", index) + filler)) }
                }
                let script = """
                import socket, time
                from websockets.sync.client import connect
                raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                raw.connect(("127.0.0.1", \(server.port)))
                with connect("ws://127.0.0.1:\(server.port)/firehose", sock=raw, max_size=None, open_timeout=300) as ws:
                    time.sleep(1)
                    received = [ws.recv(timeout=300)[:8] for _ in range(\(count))]
                    print("in order" if received == ["%08d" % i for i in range(\(count))] else "out of order", flush=True)
                """
                let lines = try await PythonScript.run(script)
                await pusher.value
                #expect(lines == ["in order"])
            }
        }
    }

    @Test("an upstream that refuses the WebSocket gets the client a 502 naming why")
    func upstreamRefuses() async throws {
        let upstream = HTTPMock()
        upstream.addResponses(forPath: "/socket") { MockResponse.plaintext("no sockets here", status: .forbidden, lifetime: .eternal) }
        try await HTTPMockServer.withServer(serving: upstream) { upstreamServer in
            let proxy = HTTPMock()
            proxy.unmockedPolicy = .passthrough
            try await HTTPMockServer.withServer(serving: proxy, configuration: HTTPMockServer.Configuration(proxy: upstreamServer.baseURL)) { server in
                let reply = await rawReply(server, ["GET /socket HTTP/1.1", "Host: example.com", "Connection: Upgrade", "Upgrade: websocket",
                                                    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13"])
                #expect(reply.hasPrefix("HTTP/1.1 502"), "\(reply)")
                #expect(reply.contains("403"), "\(reply)")
            }
        }
    }
}
