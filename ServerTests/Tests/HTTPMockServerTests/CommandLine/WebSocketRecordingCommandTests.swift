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
        #expect(try await Self.converse(port: try #require(url.port)) == expected)
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
