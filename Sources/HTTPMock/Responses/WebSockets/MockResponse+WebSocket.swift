import Foundation

/// A WebSocket conversation a stub answers with: its script and the handle the test drives it through.
package struct WebSocketConversation: Sendable {
    package let script: WebSocketScript
    package let handle: MockWebSocket?

    package init(script: WebSocketScript, handle: MockWebSocket?) {
        self.script = script
        self.handle = handle
    }
}

extension MockResponse {
    /// Answers a WebSocket upgrade request with a conversation: the `script`, and the `handle` through which the
    /// test sends messages and reads the client's while it runs.
    ///
    /// ```swift
    /// mock.addResponses(forPath: "/socket") {
    ///     MockResponse.webSocket(WebSocketScript().send(.text("welcome")).reply(to: .text("ping"), with: .text("pong")))
    /// }
    /// ```
    ///
    /// The upgrade request is matched as any request (path, host, headers, the whole `Match` vocabulary). Only
    /// HTTPMockServer and `httpmock serve` can carry a conversation out: a `URLProtocol` cannot answer a
    /// `URLSessionWebSocketTask`, so the mock's `URLSession` and the OpenAPI transport fail such a request with an
    /// error saying so. A request to it that asks for no upgrade gets `426 Upgrade Required`.
    public static func webSocket(_ script: WebSocketScript = WebSocketScript(), handle: MockWebSocket? = nil,
                                 lifetime: Lifetime = .eternal) -> MockResponse {
        let response = MockResponse(status: .other(101), headers: [:],
                                    content: .webSocket(WebSocketConversation(script: script, handle: handle)),
                                    contentType: nil, lifetime: lifetime, delivery: .instant)
        guard let problem = script.problem else { return response }
        return invalid(.invalidResponse("WebSocket script: " + problem), status: .other(101), headers: [:],
                       lifetime: lifetime, delivery: .instant)
    }

    /// The error a face that cannot serve WebSockets answers a WebSocket stub with.
    package static let webSocketUnsupported = URLError(.unsupportedURL, userInfo: [
        NSLocalizedDescriptionKey: "HTTPMock: this request is answered by a WebSocket stub (MockResponse.webSocket), which only HTTPMockServer and `httpmock serve` can carry out: a URLProtocol cannot answer a URLSessionWebSocketTask. Serve the mock with HTTPMockServer and connect to its baseURL.",
    ])
}
