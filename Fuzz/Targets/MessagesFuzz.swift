// Fuzz target "messages": feeds the bytes of one WireMock message mapping file (one mapping, {"messageMappings": […]}
// or a list) to `WireMockMessageMapping.read(_:source:files:)`, registers what it accepts in a fresh engine, opens
// a WebSocket channel and an event channel, and sends them messages (text, binary, JSON) and an HTTP request, which
// matches value patterns, renders templates and sends to the channels. A file must load or be refused with an
// error, never crash.
import Foundation

@Sendable func fuzzMessageMappings(_ data: Data) {
    guard var stubs = try? WireMockMessageMapping.read(data, source: "fuzz.json", files: FolderPath(root: FuzzMain.folder)) else { return }
    // Sent at once: an action left waiting for its delay when the run ends would read as a leak.
    for index in stubs.indices {
        for action in stubs[index].actions.indices { stubs[index].actions[action].delay = 0 }
    }
    let engine = Engine()
    guard (try? engine.messaging.register(stubs)) != nil else { return }
    let socket = CapturedRequest(url: URL(string: "http://127.0.0.1/ws/chat?room=1")!, headers: ["Upgrade": "websocket"])
    let events = CapturedRequest(url: URL(string: "http://127.0.0.1/events")!, headers: ["Accept": "text/event-stream"])
    guard let chat = engine.messaging.openChannel(.webSocket, request: socket, deliver: { _ in true }),
          engine.messaging.openChannel(.serverSentEvents, request: events, deliver: { _ in true }) != nil else { return }
    for message: WebSocketMessage in [.text("ping"), .text("{\"action\":\"subscribe\",\"topic\":\"prices\"}"),
                                      .binary(Data([0, 1, 2, 255])), .text("")] {
        engine.messaging.received(message, on: chat.id)
    }
    engine.messaging.httpServed(CapturedRequest(method: "POST", url: URL(string: "http://127.0.0.1/orders")!,
                                                body: Data("{\"id\":7}".utf8)), stub: nil)
}
