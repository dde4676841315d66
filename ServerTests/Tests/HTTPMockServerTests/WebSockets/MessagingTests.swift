import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock
import HTTPMockServer
import Testing

/// A WireMock root folder with `mappings/`, `__files/` and `message-mappings/` holding `files`, removed after.
private func wireMockFolder(_ files: [String: String], _ body: (URL) async throws -> Void) async throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("httpmock-messages-\(UUID().uuidString)")
    for folder in ["mappings", "__files", "message-mappings"] {
        try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    for (name, text) in files { try Data(text.utf8).write(to: root.appendingPathComponent(name)) }
    defer { try? FileManager.default.removeItem(at: root) }
    try await body(root)
}

private let echoMappings = """
{"messageMappings": [
  {"name": "echo", "trigger": {"type": "message", "channel": {"type": "websocket", "initiatingRequestPattern": {"urlPath": "/echo"}}},
   "actions": [{"type": "send", "message": {"body": {"data": "echo: {{message.body}} on {{request.path}}"}}}]},
  {"name": "ping", "priority": 1, "trigger": {"type": "message", "message": {"body": {"equalTo": "ping"}}},
   "actions": [{"type": "send", "message": {"body": {"data": "pong"}}, "channelTarget": {"type": "originating"}},
               {"type": "send", "message": {"body": {"filePath": "second.txt"}}}]},
  {"name": "json", "priority": 2, "metadata": {"team": "prices"},
   "trigger": {"type": "message", "message": {"body": {"matchesJsonPath": {"expression": "$.action", "equalTo": "subscribe"}}}},
   "actions": [{"type": "send", "message": {"body": {"data": "{\\"subscribed\\": \\"{{jsonPath message.body '$.topic'}}\\"}"}}}]}
]}
"""

@Suite("WireMock's message stubs over WebSockets, from files and the admin API")
struct MessagingTests {
    @Test("message stubs from message-mappings/ answer a NIO client: templates, priorities, files, JSONPath")
    func stubsFromFiles() async throws {
        try await wireMockFolder(["message-mappings/echo.json": echoMappings, "__files/second.txt": "and again"]) { root in
            let mock = HTTPMock()
            let loaded = try mock.loadWireMockMappings(from: root)
            #expect(loaded.stubCount == 0)
            #expect(mock.messageStubCount == 3)
            try await HTTPMockServer.withServer(serving: mock) { server in
                let client = try await NIOWebSocketClient.connect(port: server.port, path: "/echo")
                try await client.send("hi")
                #expect(await client.messages(count: 1) == ["echo: hi on /echo"])
                try await client.send("ping")
                #expect(await client.messages(count: 3).suffix(2) == ["pong", "and again"])
                try await client.send("{\"action\":\"subscribe\",\"topic\":\"prices\"}")
                #expect(await client.messages(count: 4).last == "{\"subscribed\": \"prices\"}")
                let received = await mock.waitForMessages(count: 3, direction: .received)
                #expect(received.map(\.stubName) == ["echo", "ping", "json"])
                #expect(received.allSatisfy { $0.channel.request.url.path == "/echo" && $0.channel.kind == .webSocket })
            }
            loaded.remove()
            #expect(mock.messageStubCount == 0)
        }
    }

    @Test("a folder whose message mappings have problems is refused whole, every problem named at once")
    func problemsAtOnce() async throws {
        let bad = """
        [{"name": "a", "trigger": {"type": "mesage"}},
         {"name": "b", "trigger": {"type": "message"}, "actions": [{"type": "send", "message": {"body": {"data": "x"}}, "channelTarget": {"type": "everyone"}}]},
         {"name": "c", "trigger": {"type": "message", "message": {"body": {"matches": "("}}}}]
        """
        try await wireMockFolder(["message-mappings/bad.json": bad, "message-mappings/also.json": "{\"nmae\": 1}",
                                  "message-mappings/none.json": "{\"name\": \"d\", \"actions\": []}",
                                  "mappings/ok.json": "{\"request\": {\"url\": \"/ok\"}, \"response\": {\"status\": 200}}"]) { root in
            let mock = HTTPMock()
            do {
                try mock.loadWireMockMappings(from: root)
                Issue.record("the folder loaded")
            } catch let error as HTTPMockError {
                for fragment in ["unknown trigger type \"mesage\"", "unknown channel target \"everyone\"", "message mapping \"c\"",
                                 "also.json", "unknown key \"nmae\"", "the required key \"trigger\" is missing"] {
                    #expect(error.message.contains(fragment), "missing \(fragment) in \(error.message)")
                }
            }
            #expect(mock.messageStubCount == 0)
            #expect(mock.journal.isEmpty)
            let stubs = await mock.serverCount(forPath: "/ok")
            #expect(stubs == 0)
        }
    }

    @Test("the admin API: message mappings made, listed, found and removed by metadata; the journal counted, found, removed")
    func adminMappingsAndJournal() async throws {
        try await withAdminServer { server, mock in
            let admin = server.baseURL.adding("/__admin")
            let created = try await call("POST", admin.adding("/message-mappings"), body: """
            {"name": "hello", "metadata": {"suite": "admin"}, "trigger": {"type": "message", "message": {"body": {"contains": "hello"}}},
             "actions": [{"type": "send", "message": {"body": {"data": "hello back"}}}]}
            """)
            #expect(created.status == 201)
            let id = try #require(created.json?["id"] as? String)
            let listed = try await call("GET", admin.adding("/message-mappings"))
            #expect((listed.json?["meta"] as? [String: Any])?["total"] as? Int == 1)
            let found = try await call("POST", admin.adding("/message-mappings/find-by-metadata"),
                                       body: "{\"matchesJsonPath\": {\"expression\": \"$.suite\", \"equalTo\": \"admin\"}}")
            #expect((found.json?["messageMappings"] as? [[String: Any]])?.first?["id"] as? String == id)

            let client = try await NIOWebSocketClient.connect(port: server.port, path: "/anywhere")
            try await client.send("well hello")
            #expect(await client.messages(count: 1) == ["hello back"])
            try await client.send("nothing matches this")
            _ = await mock.waitForMessages(count: 3)

            let count = try await call("POST", admin.adding("/messages/count"), body: "{\"body\": {\"contains\": \"hello\"}}")
            #expect(count.json?["count"] as? Int == 2)
            let all = try await call("GET", admin.adding("/messages"))
            let events = try #require(all.json?["messageServeEvents"] as? [[String: Any]])
            #expect(events.map { $0["eventType"] as? String } == ["RECEIVED", "SENT", "RECEIVED"])
            #expect(events.map { $0["wasMatched"] as? Bool } == [true, true, false])
            #expect((events[0]["channelRequest"] as? [String: Any])?["url"] as? String == "/anywhere")
            let firstID = try #require(events.first?["id"] as? String)
            let one = try await call("GET", admin.adding("/messages/\(firstID)"))
            #expect((one.json?["item"] as? [String: Any])?["message"] as? String == "well hello")
            let removed = try await call("POST", admin.adding("/messages/remove"), body: "{\"body\": {\"equalTo\": \"nothing matches this\"}}")
            #expect((removed.json?["messageServeEvents"] as? [[String: Any]])?.count == 1)
            let byMetadata = try await call("POST", admin.adding("/messages/remove-by-metadata"), body: "{\"equalToJson\": {\"suite\": \"admin\"}}")
            #expect((byMetadata.json?["messageServeEvents"] as? [[String: Any]])?.count == 2)
            #expect(mock.messageEvents.isEmpty)

            #expect(try await call("DELETE", admin.adding("/message-mappings/\(UUID().uuidString)")).status == 404)
            let refused = try await call("POST", admin.adding("/message-mappings"), body: "{\"trigger\": {\"type\": \"message\"}, \"actoins\": []}")
            #expect(refused.status == 422)
            #expect(refused.text.contains("actoins"))
            _ = try await call("POST", admin.adding("/message-mappings/remove-by-metadata"), body: "{\"equalToJson\": {\"suite\": \"admin\"}}")
            #expect(mock.messageStubCount == 0)
        }
    }

    @Test("channels are listed and sent to over the admin API; waits return what arrives, and null after their time")
    func channelsAndWaits() async throws {
        try await withAdminServer { server, mock in
            mock.acceptsAnyWebSocket = true
            let admin = server.baseURL.adding("/__admin")
            let prices = try await NIOWebSocketClient.connect(port: server.port, path: "/live/prices")
            let news = try await NIOWebSocketClient.connect(port: server.port, path: "/live/news")
            var channels: [[String: Any]] = []
            while channels.count < 2 {
                channels = try await call("GET", admin.adding("/channels")).json?["channels"] as? [[String: Any]] ?? []
            }
            #expect(Set(channels.compactMap { ($0["initiatingRequest"] as? [String: Any])?["url"] as? String }) == ["/live/prices", "/live/news"])
            let sent = try await call("POST", admin.adding("/channels/send"), body: """
            {"type": "websocket", "initiatingRequest": {"urlPath": "/live/prices"}, "message": {"body": {"data": "42"}}}
            """)
            #expect(sent.json?["channelsMessaged"] as? Int == 1)
            #expect(await prices.messages(count: 1) == ["42"])
            let everyone = try await call("POST", admin.adding("/channels/send"), body: """
            {"type": "websocket", "initiatingRequest": {"urlPathPattern": "/live/.*"}, "message": {"body": {"data": "all"}}}
            """)
            #expect(everyone.json?["channelsMessaged"] as? Int == 2)
            #expect(await news.messages(count: 1) == ["all"])

            async let waited = call("POST", admin.adding("/messages/wait-for-count"),
                                    body: "{\"pattern\": {\"channel\": {\"urlPath\": \"/live/news\"}, \"body\": {\"matches\": \"n[0-9]\"}}, \"timeoutMillis\": 20000, \"count\": 2}")
            try await news.send("n1")
            try await news.send("x")
            try await news.send("n2")
            let events = try await waited.json?["messageServeEvents"] as? [[String: Any]]
            #expect(events?.map { $0["message"] as? String } == ["n1", "n2"])
            let nothing = try await call("POST", admin.adding("/messages/wait"), body: "{\"pattern\": {\"body\": {\"equalTo\": \"never\"}}, \"timeoutMillis\": 1}")
            #expect(nothing.status == 200)
            #expect(nothing.json?["item"] is NSNull)
            let bad = try await call("POST", admin.adding("/channels/send"), body: "{\"type\": \"carrier-pigeon\", \"message\": {}}")
            #expect(bad.status == 422)
        }
    }

    @Test("an HTTP request sends a message to open channels: by request pattern and by the HTTP stub's id")
    func httpTriggers() async throws {
        try await withAdminServer { server, mock in
            let admin = server.baseURL.adding("/__admin")
            let stubID = UUID().uuidString.lowercased()
            _ = try await call("POST", admin.adding("/mappings"), body: """
            {"id": "\(stubID)", "request": {"method": "POST", "url": "/orders"}, "response": {"status": 201}}
            """)
            _ = try await call("POST", admin.adding("/message-mappings"), body: """
            {"trigger": {"type": "http-stub", "stubId": "\(stubID)"},
             "actions": [{"type": "send", "message": {"body": {"data": "order {{request.method}}"}},
                          "channelTarget": {"type": "request-initiated", "requestPattern": {"urlPath": "/updates"}}}]}
            """)
            _ = try await call("POST", admin.adding("/message-mappings"), body: """
            {"trigger": {"type": "http-request", "requestPattern": {"urlPath": "/ok"}},
             "actions": [{"type": "send", "message": {"body": {"data": "ok was asked"}}, "fixedDelayMilliseconds": 10,
                          "channelTarget": {"type": "request-initiated", "channelType": "websocket", "requestPattern": {"urlPath": "/updates"}}}]}
            """)
            let client = try await NIOWebSocketClient.connect(port: server.port, path: "/updates")
            while mock.messageChannels.isEmpty { try await Task.sleep(nanoseconds: 5_000_000) }
            #expect(try await call("POST", server.baseURL.adding("/orders")).status == 201)
            #expect(await client.messages(count: 1) == ["order POST"])
            #expect(try await call("GET", server.baseURL.adding("/ok")).status == 200)
            #expect(await client.messages(count: 2).last == "ok was asked")
        }
    }

    @Test("an event channel stays open: messages sent over the admin API reach the SSE client as events")
    func serverSentEventChannel() async throws {
        try await withAdminServer { server, mock in
            mock.addResponses(forPath: "/events") { MockResponse.eventChannel([ServerSentEvent("connected")]) }
            let admin = server.baseURL.adding("/__admin")
            let reader = try await RawEventReader.open(port: server.port, path: "/events")
            #expect(await reader.data(count: 1) == ["connected"])
            while mock.messageChannels.isEmpty { try await Task.sleep(nanoseconds: 5_000_000) }
            #expect(mock.messageChannels.first?.kind == .serverSentEvents)
            let sent = try await call("POST", admin.adding("/channels/send"), body: """
            {"type": "sse", "initiatingRequest": {"urlPath": "/events"}, "message": {"body": {"data": "{\\"price\\": 42}"}}}
            """)
            #expect(sent.json?["channelsMessaged"] as? Int == 1)
            try mock.sendMessage(.text("line one\nline two"), to: .serverSentEvents)
            #expect(await reader.data(count: 3) == ["connected", "{\"price\": 42}", "line one\nline two"])
            let websocketOnly = try await call("POST", admin.adding("/channels/send"), body: """
            {"type": "websocket", "message": {"body": {"data": "not for you"}}}
            """)
            #expect(websocketOnly.json?["channelsMessaged"] as? Int == 0)
            reader.close()
            while !mock.messageChannels.isEmpty {
                try await Task.sleep(nanoseconds: 5_000_000)
                _ = try? mock.sendMessage(.text("probe"), to: .serverSentEvents)
            }
        }
    }

    @Test("a WireMock mapping kept open as an event channel (metadata.httpmock.eventChannel) takes events over the admin API")
    func eventChannelFromAFile() async throws {
        let mapping = """
        {"request": {"urlPath": "/events"}, "response": {"status": 200, "body": "data: connected\\n\\n"},
         "metadata": {"httpmock": {"eventChannel": true}}}
        """
        try await wireMockFolder(["mappings/events.json": mapping]) { root in
            let mock = HTTPMock()
            try mock.loadWireMockMappings(from: root)
            try await HTTPMockServer.withServer(serving: mock, configuration: HTTPMockServer.Configuration(adminAPI: true)) { server in
                let reader = try await RawEventReader.open(port: server.port, path: "/events")
                #expect(await reader.data(count: 1) == ["connected"])
                while mock.messageChannels.isEmpty { try await Task.sleep(nanoseconds: 5_000_000) }
                let sent = try await call("POST", server.baseURL.adding("/__admin/channels/send"), body: """
                {"type": "sse", "initiatingRequest": {"urlPath": "/events"}, "message": {"body": {"data": "pushed"}}}
                """)
                #expect(sent.json?["channelsMessaged"] as? Int == 1)
                #expect(await reader.data(count: 2) == ["connected", "pushed"])
                reader.close()
            }
        }
    }

    @Test("an http-stub trigger fires for a mapping of the served folder's files")
    func httpStubTriggerFromAFile() async throws {
        let id = "11111111-2222-3333-4444-555555555555"
        try await wireMockFolder([
            "mappings/hello.json": "{\"id\": \"\(id)\", \"request\": {\"url\": \"/hello\"}, \"response\": {\"status\": 200}}",
            "message-mappings/tell.json": """
            {"trigger": {"type": "http-stub", "stubId": "\(id)"},
             "actions": [{"type": "send", "message": {"body": {"data": "hello was asked"}},
                          "channelTarget": {"type": "request-initiated", "requestPattern": {"urlPath": "/listen"}}}]}
            """,
        ]) { root in
            let mock = HTTPMock()
            try mock.loadWireMockMappings(from: root)
            var configuration = HTTPMockServer.Configuration(adminAPI: true, wireMockFolder: root)
            configuration.wireMockRanking = .mostRecentlyAdded
            try await HTTPMockServer.withServer(serving: mock, configuration: configuration) { server in
                let client = try await NIOWebSocketClient.connect(port: server.port, path: "/listen")
                while mock.messageChannels.isEmpty { try await Task.sleep(nanoseconds: 5_000_000) }
                #expect(try await call("GET", server.baseURL.adding("/hello")).status == 200)
                #expect(await client.messages(count: 1) == ["hello was asked"])
            }
        }
    }

    @Test("waits hold no thread: with 40 waiting, other admin requests are answered, and each wait gets its message")
    func waitsDoNotBlock() async throws {
        try await withAdminServer { server, mock in
            mock.acceptsAnyWebSocket = true
            let admin = server.baseURL.adding("/__admin")
            let client = try await NIOWebSocketClient.connect(port: server.port, path: "/w")
            try await withThrowingTaskGroup(of: String?.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        let reply = try await call("POST", admin.adding("/messages/wait"),
                                                   body: "{\"pattern\": {\"body\": {\"equalTo\": \"m\(index)\"}}, \"timeoutMillis\": 120000}",
                                                   timeout: 600)
                        return (reply.json?["item"] as? [String: Any])?["message"] as? String
                    }
                }
                // Answered while every wait waits (they end only once the messages come, below).
                #expect(try await call("GET", admin.adding("/channels")).status == 200)
                #expect(try await call("GET", admin.adding("/message-mappings")).status == 200)
                for index in 0..<40 { try await client.send("m\(index)") }
                var answered: Set<String> = []
                for try await message in group { if let message { answered.insert(message) } }
                #expect(answered == Set((0..<40).map { "m\($0)" }))
            }
        }
    }

    @Test("Python's websockets package: message stubs from files, then a message the test pushes over plain HTTP")
    func pythonClient() async throws {
        guard PythonWebSockets.isAvailable else {
            print("HTTPMock: Python's websockets package is not installed here: the Python client was NOT tried")
            return
        }
        try await wireMockFolder(["message-mappings/echo.json": echoMappings, "__files/second.txt": "and again"]) { root in
            let mock = HTTPMock()
            try mock.loadWireMockMappings(from: root)
            try await HTTPMockServer.withServer(serving: mock, configuration: HTTPMockServer.Configuration(adminAPI: true)) { server in
                let script = """
                import json, urllib.request
                from websockets.sync.client import connect
                base = "127.0.0.1:\(server.port)"
                with connect("ws://" + base + "/echo", open_timeout=300) as ws:
                    ws.send("from python")
                    print(ws.recv(timeout=300), flush=True)
                    ws.send("ping")
                    print(ws.recv(timeout=300), flush=True)
                    print(ws.recv(timeout=300), flush=True)
                    body = json.dumps({"type": "websocket", "initiatingRequest": {"urlPath": "/echo"}, "message": {"body": {"data": "pushed"}}}).encode()
                    request = urllib.request.Request("http://" + base + "/__admin/channels/send", data=body, method="POST")
                    print(json.load(urllib.request.urlopen(request))["channelsMessaged"], flush=True)
                    print(ws.recv(timeout=300), flush=True)
                """
                let lines = try await PythonScript.run(script)
                #expect(lines == ["echo: from python on /echo", "pong", "and again", "1", "pushed"])
            }
        }
    }
}

extension HTTPMock {
    fileprivate func serverCount(forPath path: String) async -> Int { journal.filter { $0.request.url.path == path }.count }
}

/// A Python script in a child process; the lines it printed (its errors are not kept).
enum PythonScript {
    static func run(_ script: String, arguments: [String] = []) async throws -> [String] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("httpmock-py-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        process.standardOutput = try FileHandle(forWritingTo: file)
        process.standardError = FileHandle.nullDevice
        let exited = Guarded(false)
        process.terminationHandler = { _ in exited.withLock { $0 = true } }
        try process.run()
        while !exited.withLock({ $0 }) { try await Task.sleep(nanoseconds: 10_000_000) }
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }
}

/// An SSE client on a raw socket: the data of each event, as it comes (each event is one chunk).
final class RawEventReader: @unchecked Sendable {  // reason: its connection is read by one task at a time, in turn
    private let connection: RawConnection
    private var events: [String] = []

    private init(connection: RawConnection) { self.connection = connection }

    static func open(port: Int, path: String) async throws -> RawEventReader {
        let connection = try #require(RawConnection(port: port, readTimeout: 30))
        connection.send("GET \(path) HTTP/1.1\r\nHost: example.com\r\nAccept: text/event-stream\r\n\r\n")
        let head = try #require(await Task.detached { connection.nextStreamHead() }.value)
        #expect(head.status == 200)
        return RawEventReader(connection: connection)
    }

    /// The data of the first `count` events (fewer if the stream ends or stalls for 30 s).
    func data(count: Int) async -> [String] {
        await Task.detached { [self] in
            while events.count < count, let chunk = connection.nextChunk(), !chunk.isEmpty {
                let lines = String(decoding: chunk, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                let data = lines.filter { $0.hasPrefix("data:") }.map { $0.dropFirst(5).drop { $0 == " " } }
                events.append(data.joined(separator: "\n"))
            }
            return events
        }.value
    }

    func close() { connection.close() }
}
