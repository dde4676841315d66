import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock
import HTTPMockServer
import Testing

@Suite("HTTPMockServer runs WebSocket conversations")
struct WebSocketTests {
    private func chatMock(handle: MockWebSocket? = nil) -> HTTPMock {
        let mock = HTTPMock()
        let script = WebSocketScript()
            .send(.text("welcome"))
            .reply(to: .text("ping"), with: .text("pong"))
            .reply(to: .json(["type": "subscribe"]), with: .text("{\"type\":\"subscribed\"}"), .text("{\"tick\":1}"))
            .reply(to: .text("bye"), with: .text("see you"), closeCode: 1000)
        mock.addResponses(forPath: "/chat") { MockResponse.webSocket(script, handle: handle) }
        return mock
    }

    @Test("a NIO client gets the message on connect, the scripted replies, and a close with its code")
    func scriptedConversation() async throws {
        let mock = chatMock()
        try await HTTPMockServer.withServer(serving: mock) { server in
            let client = try await NIOWebSocketClient.connect(port: server.port, path: "/chat")
            #expect(await client.messages(count: 1) == ["welcome"])
            try await client.send("ping")
            #expect(await client.messages(count: 2) == ["welcome", "pong"])
            try await client.send("{\"type\":\"subscribe\",\"topic\":\"prices\"}")
            #expect(await client.messages(count: 4).suffix(2) == ["{\"type\":\"subscribed\"}", "{\"tick\":1}"])
            try await client.send("bye")
            #expect(await client.closeCode() == 1000)
            #expect(await client.messages(count: 5).last == "see you")
            let entry = try #require(mock.journal.last)
            #expect(entry.statusCode == 101)
            var record = entry.webSocket
            while record?.isOpen != false {
                try await Task.sleep(nanoseconds: 5_000_000)
                record = mock.journal.last?.webSocket
            }
            #expect(record?.fromClient == [.text("ping"), .text("{\"type\":\"subscribe\",\"topic\":\"prices\"}"), .text("bye")])
            #expect(record?.toClient.first == .text("welcome"))
            #expect(record?.closeCode == 1000)
        }
    }

    @Test("the test pushes messages to the connected client and reads what it sent, through a MockWebSocket")
    func theTestDrivesTheConversation() async throws {
        let socket = MockWebSocket()
        let mock = chatMock(handle: socket)
        try await HTTPMockServer.withServer(serving: mock) { server in
            let client = try await NIOWebSocketClient.connect(port: server.port, path: "/chat")
            await socket.waitForClient()
            socket.send(.text("pushed by the test"))
            #expect(await client.messages(count: 2) == ["welcome", "pushed by the test"])
            try await client.send("hello from the client")
            #expect(await socket.nextMessage() == .text("hello from the client"))
            socket.close(code: 4000, reason: "test over")
            #expect(await client.closeCode() == 4000)
        }
    }

    @Test("a request to a WebSocket stub without an upgrade gets 426; one to another path gets the 404 report")
    func refusals() async throws {
        let mock = chatMock()
        try await HTTPMockServer.withServer(serving: mock) { server in
            let (_, response) = try await plainSession().data(from: server.baseURL.appendingPathComponent("chat"))
            #expect((response as? HTTPURLResponse)?.statusCode == 426)
            #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Upgrade") == "websocket")
            await #expect(throws: UpgradeRefused(status: 404)) {
                _ = try await NIOWebSocketClient.connect(port: server.port, path: "/other")
            }
        }
    }

    @Test("a message larger than the limit closes the conversation with 1009")
    func oversizeMessage() async throws {
        let mock = chatMock()
        var configuration = HTTPMockServer.Configuration()
        configuration.maximumWebSocketMessageBytes = 1024
        try await HTTPMockServer.withServer(serving: mock, configuration: configuration) { server in
            let client = try await NIOWebSocketClient.connect(port: server.port, path: "/chat")
            _ = await client.messages(count: 1)
            try await client.sendBinary(size: 4096)
            #expect(await client.closeCode() == 1009)
        }
    }

    @Test("the mock's URLSession answers a WebSocket stub with an error that says the server is the way")
    func interceptionRefuses() async throws {
        let mock = chatMock()
        do {
            _ = try await mock.urlSession.data(from: URL(string: "https://example.com/chat")!)
            Issue.record("a WebSocket stub answered through URLSession")
        } catch {
            #expect((error as? URLError)?.code == .unsupportedURL)
            #expect("\(error)".contains("HTTPMockServer"))
        }
    }

    @Test("Python's websockets package talks to the same conversation")
    func pythonClient() async throws {
        guard !runsUnderAddressSanitizer, PythonWebSockets.isAvailable else {
            // `.ci/run` installs the `websockets` package from PyPI; without it this client is not tried.
            return
        }
        let mock = chatMock()
        try await HTTPMockServer.withServer(serving: mock) { server in
            let output = try await PythonWebSockets.run(port: server.port, path: "/chat", send: ["ping", "bye"])
            #expect(output == ["welcome", "pong", "see you", "closed 1000"])
            let record = mock.journal.last?.webSocket
            #expect(record?.fromClient.count == 2)
        }
    }
}

/// A client written in Python with the `websockets` package, in a child process.
enum PythonWebSockets {
    static var isAvailable: Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import websockets.sync.client"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Connects, prints each message it receives, sends `send` one by one after the first message, and prints
    /// `closed CODE` at the end. Returns the lines printed.
    static func run(port: Int, path: String, send messages: [String]) async throws -> [String] {
        let script = """
        import sys
        from websockets.sync.client import connect
        from websockets.exceptions import ConnectionClosed
        with connect("ws://127.0.0.1:\(port)\(path)", open_timeout=300) as ws:
            print(ws.recv(timeout=300), flush=True)
            for text in sys.argv[1:]:
                ws.send(text)
                try:
                    print(ws.recv(timeout=300), flush=True)
                except ConnectionClosed:
                    break
            try:
                ws.recv(timeout=300)
            except ConnectionClosed as closed:
                print("closed", closed.rcvd.code if closed.rcvd else None, flush=True)
        """
        return try await PythonScript.run(script, arguments: messages)
    }
}

@Suite("URLSessionWebSocketTask against HTTPMockServer")
struct URLSessionWebSocketTests {
    @Test("it runs the conversation where Foundation supports WebSockets; on Linux it fails as libcurl cannot")
    func urlSessionWebSocketTask() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/chat") {
            MockResponse.webSocket(WebSocketScript().send(.text("welcome")).reply(to: .text("ping"), with: .text("pong")))
        }
        try await HTTPMockServer.withServer(serving: mock) { server in
            var request = URLRequest(url: URL(string: "ws://127.0.0.1:\(server.port)/chat")!)
            request.setValue("example.com", forHTTPHeaderField: "Host")
            let task = URLSession(configuration: .ephemeral).webSocketTask(with: request)
            task.resume()
            do {
                let first = try await task.receive()
                guard case .string(let welcome) = first else {
                    Issue.record("expected text, got \(first)")
                    return
                }
                #expect(welcome == "welcome")
                try await task.send(.string("ping"))
                guard case .string(let pong) = try await task.receive() else { return }
                #expect(pong == "pong")
                task.cancel(with: .normalClosure, reason: nil)
            } catch let error as URLError {
                // corelibs Foundation on Linux runs WebSocket tasks on libcurl, and Debian's libcurl is built
                // without WebSocket support: the task fails before it connects (see the WebSockets article).
                #if canImport(FoundationNetworking)
                #expect(error.code == .unsupportedURL)
                #expect("\(error)".contains("libcurl"))
                #else
                throw error
                #endif
            }
        }
    }
}
