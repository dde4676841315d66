import Foundation
import HTTPMock
import HTTPMockServer
import Testing

/// The sample of the WebSockets article, with a client connected where the article says the app under test does.
@Suite struct WebSocketSamples {
    @Test func theArticlesConversation() async throws {
        let mock = HTTPMock()
        let socket = MockWebSocket()
        let script = WebSocketScript()
            .send(.text("welcome"))                                    // when the client connects
            .reply(to: .text("ping"), with: .text("pong"))             // to each matching client message
            .reply(to: .json(["type": "subscribe"]), with: .text("{\"type\":\"subscribed\"}"))
            .send(.text("{\"tick\":1}"), after: 0.5)                   // on a timer
        mock.addResponses(forPath: "/chat") { MockResponse.webSocket(script, handle: socket) }
        try await HTTPMockServer.withServer(serving: mock) { server in
            // the app under test connects to ws://127.0.0.1:<server.port>/chat…
            let client = try await NIOWebSocketClient.connect(port: server.port, path: "/chat")
            await socket.waitForClient()
            socket.send(.text("pushed by the test"))
            // The timer's tick may come at any point (the assertions say what arrives, in order, not when).
            let tick = "{\"tick\":1}"
            #expect(await client.messages(through: "pushed by the test").filter { $0 != tick } == ["welcome", "pushed by the test"])
            try await client.send("ping")
            let fromClient = await socket.nextMessage()
            #expect(fromClient == .text("ping"))
            #expect(await client.messages(through: "pong").filter { $0 != tick } == ["welcome", "pushed by the test", "pong"])
            socket.close(code: 1000, reason: "done")
            #expect(await client.closeCode() == 1000)
        }
    }
}
