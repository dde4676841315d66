#if Server
import Foundation
import HTTPMock
import NIOCore
import NIOHTTP1
import NIOWebSocket

// The upgrade of a connection whose request a WebSocket stub answered (RFC 6455 §4.2): `101 Switching Protocols`
// with `Sec-WebSocket-Accept`, then the connection's HTTP handlers make way for WebSocket framing and the
// conversation. A request to such a stub that asks for no upgrade gets `426 Upgrade Required`.
extension ConnectionHandler: RemovableChannelHandler {
    /// The GUID RFC 6455 appends to the client's key.
    private static let webSocketGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// Whether `head` asks for a WebSocket as RFC 6455 §4.1 says: its `Sec-WebSocket-Accept` answer if so.
    func webSocketAccept(for head: HTTPRequestHead?) -> String? {
        guard let head, head.method == .GET,
              head.headers[canonicalForm: "connection"].contains(where: { $0.lowercased() == "upgrade" }),
              head.headers.first(name: "upgrade")?.lowercased() == "websocket",
              let key = head.headers.first(name: "sec-websocket-key"), !key.isEmpty,
              head.headers.first(name: "sec-websocket-version") == "13" else { return nil }
        return Data(SHA1.digest(Array((key + Self.webSocketGUID).utf8))).base64EncodedString()
    }

    func upgrade(to conversation: WebSocketConversation, version: HTTPVersion, context: ChannelHandlerContext) {
        guard let request = channelRequest else { return context.close(promise: nil) }
        channelRequest = nil
        guard let accept = webSocketAccept(for: requestHead) else {
            sendPlain(.upgradeRequired, "HTTPMock: this request is answered by a WebSocket stub: connect with a WebSocket client (GET with Upgrade: websocket, Connection: Upgrade, Sec-WebSocket-Key and Sec-WebSocket-Version: 13)\n",
                      context: context, journal: true,
                      extraHeaders: [("Upgrade", "websocket"), ("Sec-WebSocket-Version", "13")])
            return
        }
        let mock = settings.mock
        let limit = settings.configuration.maximumWebSocketMessageBytes
        switchProtocols(accept: accept, extraHeaders: [], version: version, context: context) { entry, opened in
            WebSocketConversationHandler(conversation: conversation, mock: mock, entry: entry, request: request,
                                         maximumMessageBytes: limit, opened: opened)
        }
    }

    /// Sends `101 Switching Protocols`, then puts WebSocket framing and the handler `make` gives in place of the
    /// connection's HTTP handlers. `make` gets the journal entry and what completes it with the 101, which the
    /// handler calls once it is ready (a message channel opened before an HTTP trigger can look for it).
    func switchProtocols(accept: String, extraHeaders: [(String, String)], version: HTTPVersion, context: ChannelHandlerContext,
                         _ make: (_ entry: Int?, _ opened: @escaping @Sendable () -> Void) -> any ChannelHandler) {
        let entry = self.entry
        self.entry = nil
        let mock = settings.mock
        var fields: [String: String] = ["Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": accept]
        for (name, value) in extraHeaders { fields[name] = value }
        let journaled = fields
        let opened: @Sendable () -> Void = {
            if let entry { mock.complete(entry, with: .response(status: 101, headers: journaled, body: Data())) }
        }
        stopHeadTimer()
        pending?.cancel()
        var headers = HTTPHeaders()
        headers.add(name: "Upgrade", value: "websocket")
        headers.add(name: "Connection", value: "Upgrade")
        headers.add(name: "Sec-WebSocket-Accept", value: accept)
        for (name, value) in extraHeaders { headers.add(name: name, value: value) }
        encoder.nextHead = nil
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: .switchingProtocols,
                                                             headers: headers))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        // The response is encoded and ended by now: HTTP's handlers leave first (so nothing the conversation
        // writes passes through them), then WebSocket framing and the conversation take over.
        let channel = context.channel
        let limit = settings.configuration.maximumWebSocketMessageBytes
        let operations = context.pipeline.syncOperations
        if let relay = try? operations.handler(type: MethodTokenRelay.self) {
            operations.removeHandler(relay, promise: nil)
        }
        if let decoder = try? operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self) {
            operations.removeHandler(decoder, promise: nil)
        }
        if let serverPipeline = try? operations.handler(type: HTTPServerPipelineHandler.self) {
            operations.removeHandler(serverPipeline, promise: nil)
        }
        operations.removeHandler(encoder, promise: nil)
        operations.removeHandler(context: context, promise: nil)
        do {
            try operations.addHandlers([
                ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: limit)),
                WebSocketFrameEncoder(),
                make(entry, opened),
            ])
        } catch {
            opened()
            channel.close(promise: nil)
        }
    }
}
#endif
