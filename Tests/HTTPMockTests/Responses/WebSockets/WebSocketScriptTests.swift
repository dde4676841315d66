import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// WebSocket scripts as the engine takes them: what is refused when registered, and what in-process faces answer.
@Suite struct WebSocketScriptTests {
    @Test func aScriptWithCodesThatCannotBeSentIsRefusedNamingEach() {
        let mock = HTTPMock()
        let script = WebSocketScript()
            .reply(to: .text("x"), with: .text("y"), closeCode: 1005)
            .send(.text("late"), after: -1)
            .close(code: 999)
        let error = #expect(throws: HTTPMockError.self) { try mock.stub(.path("/ws"), responses: [.webSocket(script)]) }
        let message = error.map { "\($0)" } ?? ""
        #expect(error?.code == .invalidResponse)
        #expect(message.contains("close code 1005 cannot be sent"))
        #expect(message.contains("close code 999 cannot be sent"))
        #expect(message.contains("a message is sent after -1.0 s"))
    }

    @Test func patternsMatchWhatTheySay() {
        #expect(WebSocketMessagePattern.text("ping").matches(.text("ping")))
        #expect(!WebSocketMessagePattern.text("ping").matches(.binary(Data("ping".utf8))))
        #expect(WebSocketMessagePattern.containing("sub").matches(.text("please subscribe")))
        #expect(WebSocketMessagePattern.json(["type": "subscribe"]).matches(.text("{\"type\":\"subscribe\",\"n\":1}")))
        #expect(!WebSocketMessagePattern.json(["type": "subscribe"]).matches(.text("{\"type\":\"other\"}")))
        #expect(!WebSocketMessagePattern.json(["type": "subscribe"]).matches(.text("not json")))
    }

    @Test func theMocksURLSessionSaysTheServerIsTheWay() async {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/ws", host: "api.example.com") { MockResponse.webSocket() }
        let error = await mock.urlSession.failure("https://api.example.com/ws")
        #expect((error as? URLError)?.code == .unsupportedURL)
        #expect("\(error.map { "\($0)" } ?? "")".contains("HTTPMockServer"))
    }
}
