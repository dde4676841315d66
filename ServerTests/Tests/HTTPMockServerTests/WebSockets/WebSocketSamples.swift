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

/// The WebSockets article's message stub sample, with a client connected where it says the app under test does.
@Suite struct MessageStubSamples {
    @Test func theArticlesMessageStub() async throws {
        let mock = HTTPMock()
        try mock.addMessageStub(channel: [.path("/prices")], when: .text("subscribe"), reply: [.text("subscribed")])
        try await HTTPMockServer.withServer(serving: mock) { server in
            // the app under test connects to ws://127.0.0.1:<server.port>/prices and sends "subscribe"…
            let client = try await NIOWebSocketClient.connect(port: server.port, path: "/prices")
            try await client.send("subscribe")
            let received = await mock.waitForMessages(count: 1, direction: .received)
            #expect(received.map(\.message) == [.text("subscribe")])
            #expect(await client.messages(count: 1) == ["subscribed"])
            try mock.sendMessage(.text("{\"price\":42}"), to: .webSocket, matching: [.path("/prices")])
            #expect(await client.messages(count: 2) == ["subscribed", "{\"price\":42}"])
        }
    }
}
