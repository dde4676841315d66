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

    func upgrade(to conversation: WebSocketConversation, version: HTTPVersion, context: ChannelHandlerContext) {
        guard let request = upgradeRequest else { return context.close(promise: nil) }
        guard let head = requestHead, head.method == .GET,
              head.headers[canonicalForm: "connection"].contains(where: { $0.lowercased() == "upgrade" }),
              head.headers.first(name: "upgrade")?.lowercased() == "websocket",
              let key = head.headers.first(name: "sec-websocket-key"), !key.isEmpty,
              head.headers.first(name: "sec-websocket-version") == "13" else {
            sendPlain(.upgradeRequired, "HTTPMock: this request is answered by a WebSocket stub: connect with a WebSocket client (GET with Upgrade: websocket, Connection: Upgrade, Sec-WebSocket-Key and Sec-WebSocket-Version: 13)\n",
                      context: context, journal: true,
                      extraHeaders: [("Upgrade", "websocket"), ("Sec-WebSocket-Version", "13")])
            return
        }
        let accept = Data(SHA1.digest(Array((key + Self.webSocketGUID).utf8))).base64EncodedString()
        let entry = self.entry
        self.entry = nil
        if let entry {
            settings.mock.complete(entry, with: .response(status: 101, headers: [
                "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": accept,
            ], body: Data()))
        }
        stopHeadTimer()
        pending?.cancel()
        var headers = HTTPHeaders()
        headers.add(name: "Upgrade", value: "websocket")
        headers.add(name: "Connection", value: "Upgrade")
        headers.add(name: "Sec-WebSocket-Accept", value: accept)
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
                WebSocketConversationHandler(conversation: conversation, mock: settings.mock, entry: entry,
                                             request: request, maximumMessageBytes: limit),
            ])
        } catch {
            channel.close(promise: nil)
        }
    }
}
#endif
