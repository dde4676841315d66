#if Server
import Foundation
import HTTPMock
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

// A WebSocket upgrade that no stub answers, with a proxy to forward to (`--proxy`, a recording): the server opens a
// WebSocket to the upstream (the same path and query, the client's own headers), and only once the upstream has
// switched protocols does it answer the client with its 101. Then every frame is relayed both ways, and every
// message goes into the upgrade's journal entry (its `WebSocketRecord`), from which a recording writes the
// conversation as message stub mappings that replay it. An upstream that refuses, or cannot be reached in 30
// seconds, gets the client a 502 naming why.
extension ConnectionHandler {
    /// Seconds the upstream has to switch protocols.
    static let upstreamUpgradeTimeout: Int64 = 30

    func relayWebSocket(_ request: CapturedRequest, to forwarder: Forwarder, version: HTTPVersion, context: ChannelHandlerContext) {
        guard let accept = webSocketAccept(for: requestHead) else {
            sendPlain(.badRequest, "HTTPMock: a WebSocket upgrade needs GET with Connection: Upgrade, Upgrade: websocket, Sec-WebSocket-Key and Sec-WebSocket-Version: 13\n",
                      context: context, journal: true)
            return
        }
        guard let url = forwarder.target(for: request), let host = url.host,
              ["http", "ws"].contains(url.scheme?.lowercased() ?? "") else {
            sendPlain(.badGateway, "HTTPMock: a WebSocket is relayed to an http:// (ws://) upstream only; \(forwarder.target(for: request)?.absoluteString ?? "this upstream") needs TLS, which HTTPMockServer's relay does not speak\n",
                      context: context, journal: true)
            return
        }
        let port = url.port ?? 80
        var target = url.path.isEmpty ? "/" : url.path
        if let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery { target += "?" + query }
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: url.port.map { "\(host):\($0)" } ?? host)
        let skipped: Set<String> = ["host", "connection", "upgrade", "sec-websocket-key", "sec-websocket-version",
                                    "sec-websocket-extensions", "sec-websocket-accept", "content-length", "transfer-encoding",
                                    "keep-alive", "proxy-connection", "te", "trailer"]
        for field in request.headers.fields where !skipped.contains(field.name.lowercased()) {
            headers.add(name: field.name, value: field.value)
        }
        headers.add(name: "Content-Length", value: "0")
        let limit = settings.configuration.maximumWebSocketMessageBytes
        let loop = context.eventLoop
        let relay = WebSocketRelay(mock: settings.mock, maximumMessageBytes: limit)
        let upgraded = loop.makePromise(of: HTTPHeaders.self)
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let timeout = loop.scheduleTask(in: .seconds(Self.upstreamUpgradeTimeout)) {
            upgraded.fail(RelayRefusal("the upstream did not switch protocols within \(Self.upstreamUpgradeTimeout) seconds"))
        }
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: headers)
        ClientBootstrap(group: loop)
            .channelInitializer { channel in
                let refusal = UpstreamRefusal(promise: upgraded)
                let upgrader = NIOWebSocketClientUpgrader(requestKey: key, maxFrameSize: limit) { channel, response in
                    channel.eventLoop.makeCompletedFuture {
                        channel.pipeline.syncOperations.removeHandler(refusal, promise: nil)
                        try channel.pipeline.syncOperations.addHandler(RelayUpstreamSide(relay: relay))
                        upgraded.succeed(response.headers)
                    }
                }
                let configuration: NIOHTTPClientUpgradeSendableConfiguration = (upgraders: [upgrader], completionHandler: { _ in })
                return channel.pipeline.addHTTPClientHandlers(leftOverBytesStrategy: .forwardBytes, withClientUpgrade: configuration)
                    .flatMap { channel.pipeline.addHandler(refusal) }
            }
            .connect(host: host, port: port)
            .whenComplete { result in
                switch result {
                case .success(let channel):
                    channel.write(HTTPClientRequestPart.head(head), promise: nil)
                    channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
                    upgraded.futureResult.whenFailure { _ in channel.close(promise: nil) }
                case .failure(let error):
                    upgraded.fail(error)
                }
            }
        upgraded.futureResult.assumeIsolated().whenComplete { result in
            timeout.cancel()
            guard self.isOpen else {
                relay.closeUpstream()
                return
            }
            switch result {
            case .success(let upstreamHeaders):
                var extra: [(String, String)] = []
                if let chosen = upstreamHeaders.first(name: "sec-websocket-protocol") { extra.append(("Sec-WebSocket-Protocol", chosen)) }
                self.switchProtocols(accept: accept, extraHeaders: extra, version: version, context: context) { entry, opened in
                    RelayClientSide(relay: relay, entry: entry, opened: opened)
                }
            case .failure(let error):
                let why = (error as? RelayRefusal)?.reason ?? "\(error)"
                self.sendPlain(.badGateway, "HTTPMock: the WebSocket could not be relayed to \(url.absoluteString): \(why)\n",
                               context: context, journal: true)
            }
        }
    }
}

/// Why an upstream did not take a WebSocket.
struct RelayRefusal: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// Fails the upgrade when the upstream answers without switching protocols, or goes away first.
private final class UpstreamRefusal: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = HTTPClientResponsePart
    private let promise: EventLoopPromise<HTTPHeaders>

    init(promise: EventLoopPromise<HTTPHeaders>) { self.promise = promise }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) {
            promise.fail(RelayRefusal("the upstream answered \(head.status.code) \(head.status.reasonPhrase), not 101 Switching Protocols"))
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(RelayRefusal("the upstream's answer was not a WebSocket upgrade (\(error))"))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(RelayRefusal("the upstream closed the connection before switching protocols"))
        context.fireChannelInactive()
    }
}

/// The two ends of a relayed WebSocket, on one event loop: frames go across as they come, whole messages go into
/// the journal.
final class WebSocketRelay: @unchecked Sendable {  // reason: every member is touched on the event loop both connections share
    let mock: HTTPMock
    let maximumMessageBytes: Int
    var entry: Int?
    var client: ChannelHandlerContext?
    var upstream: ChannelHandlerContext?
    /// Messages being received in fragments, by direction (`true`: from the client).
    private var fragments: [Bool: (opcode: WebSocketOpcode, bytes: [UInt8])] = [:]
    private var closeCode: Int?
    private var ended = false

    init(mock: HTTPMock, maximumMessageBytes: Int) {
        self.mock = mock
        self.maximumMessageBytes = maximumMessageBytes
    }

    /// Frames the upstream sent before the client's end was in place (a welcome right after its 101), at most
    /// ``maximumMessageBytes`` of them.
    private var early: [WebSocketFrame] = []
    private var earlyBytes = 0

    /// A frame from one end, sent on to the other (masked toward the upstream, as a client's must be).
    func relay(_ frame: WebSocketFrame, fromClient: Bool) {
        guard let target = fromClient ? upstream : client else {
            if !fromClient, earlyBytes + frame.length <= maximumMessageBytes {
                early.append(frame)
                earlyBytes += frame.length
            }
            return
        }
        let data = frame.unmaskedData
        if frame.opcode == .connectionClose, closeCode == nil, let code = data.getInteger(at: data.readerIndex, as: UInt16.self) {
            closeCode = Int(code)
        }
        journal(frame, data: data, fromClient: fromClient)
        let out = WebSocketFrame(fin: frame.fin, opcode: frame.opcode, maskKey: fromClient ? .random() : nil, data: data)
        target.writeAndFlush(NIOAny(out), promise: nil)
        // Bounded: while the other end does not take what it is sent, this end is not read from.
        if !target.channel.isWritable, let source = fromClient ? client : upstream {
            source.channel.setOption(ChannelOptions.autoRead, value: false).whenFailure { _ in }
        }
    }

    /// `fromClient`'s end can take writes again: the other end is read from again.
    func writable(fromClient: Bool) {
        guard let other = fromClient ? upstream : client else { return }
        other.channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in }
        other.read()
    }

    /// The client's end is in place: what the upstream sent meanwhile goes out first.
    func clientArrived(_ context: ChannelHandlerContext) {
        client = context
        let waiting = early
        early = []
        earlyBytes = 0
        for frame in waiting { relay(frame, fromClient: false) }
    }

    private func journal(_ frame: WebSocketFrame, data: ByteBuffer, fromClient: Bool) {
        guard let entry else { return }
        switch frame.opcode {
        case .text, .binary:
            fragments[fromClient] = (frame.opcode, Array(data.readableBytesView.prefix(maximumMessageBytes)))
        case .continuation:
            guard var current = fragments[fromClient] else { return }
            current.bytes += data.readableBytesView.prefix(max(0, maximumMessageBytes - current.bytes.count))
            fragments[fromClient] = current
        default:
            return
        }
        guard frame.fin, let (opcode, bytes) = fragments.removeValue(forKey: fromClient) else { return }
        let message: WebSocketMessage = opcode == .text ? .text(String(decoding: bytes, as: UTF8.self)) : .binary(Data(bytes))
        mock.webSocketMessage(entry, message, fromClient: fromClient)
    }

    /// One end went away: the other is closed too, and the journal hears how it ended.
    func ended(fromClient: Bool) {
        let other = fromClient ? upstream : client
        if fromClient { client = nil } else { upstream = nil }
        other?.close(promise: nil)
        guard !ended else { return }
        ended = true
        if let entry { mock.endWebSocket(entry, code: closeCode) }
    }

    func closeUpstream() { upstream?.close(promise: nil) }
}

/// The client's end of a relayed WebSocket.
final class RelayClientSide: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    private let relay: WebSocketRelay
    private var opened: (@Sendable () -> Void)?

    init(relay: WebSocketRelay, entry: Int?, opened: @escaping @Sendable () -> Void) {
        self.relay = relay
        relay.entry = entry
        self.opened = opened
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // Once the pipeline's change is complete (the HTTP handlers may still be leaving): the next turn of the loop.
        if let entry = relay.entry { relay.mock.beginWebSocket(entry) }
        opened?()
        opened = nil
        context.eventLoop.assumeIsolated().execute {
            guard context.channel.isActive else { return }
            self.relay.clientArrived(context)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        relay.relay(unwrapInboundIn(data), fromClient: true)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { relay.writable(fromClient: true) }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        opened?()
        opened = nil
        relay.ended(fromClient: true)
        context.fireChannelInactive()
    }
}

/// The upstream's end of a relayed WebSocket.
final class RelayUpstreamSide: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    private let relay: WebSocketRelay

    init(relay: WebSocketRelay) { self.relay = relay }

    func handlerAdded(context: ChannelHandlerContext) { relay.upstream = context }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        relay.relay(unwrapInboundIn(data), fromClient: false)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { relay.writable(fromClient: false) }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        relay.ended(fromClient: false)
        context.fireChannelInactive()
    }
}
#endif
