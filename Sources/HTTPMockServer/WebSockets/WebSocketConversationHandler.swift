#if Server
import Foundation
import HTTPMock
import NIOCore
import NIOWebSocket

/// Runs a WebSocket conversation on an upgraded connection: the script's messages on connect and on their timers,
/// its replies to the client's messages, the test's messages through its `MockWebSocket`, pings answered, the
/// close handshake, and every message both ways in the journal. Runs on the connection's event loop only.
final class WebSocketConversationHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let conversation: WebSocketConversation
    private let mock: HTTPMock
    private let entry: Int?
    /// The request that opened the conversation: its message channel is found by it.
    private let request: CapturedRequest
    /// The conversation's message channel (message stubs, `/__admin/channels/send`, the message journal).
    private var channel: UUID?
    /// Bytes written and not yet taken by the socket: past ``maximumPendingBytes`` a client that does not read
    /// gets no more pushed messages (they are refused, not queued).
    private let pending = Locked(0)
    static let maximumPendingBytes = 4 << 20
    /// Bytes of the client's messages waiting for the message stubs, and whether reading waits for them.
    private let backlog = Locked(0)
    private var readingPaused = false
    static let maximumBacklogBytes = 4 << 20
    /// Where the client's messages meet the message stubs, in the order they came.
    private let messageQueue = DispatchQueue(label: "HTTPMock WebSocket messages")
    private let maximumMessageBytes: Int
    /// The message being received in fragments: its opcode and bytes so far.
    private var fragments: (opcode: WebSocketOpcode, bytes: ByteBuffer)?
    private var timers: [Scheduled<Void>] = []
    private var sentClose = false
    private var closeCode: Int?
    private var ended = false

    /// Completes the upgrade's journal entry with the 101 (once the channel is open).
    private var opened: (@Sendable () -> Void)?

    init(conversation: WebSocketConversation, mock: HTTPMock, entry: Int?, request: CapturedRequest, maximumMessageBytes: Int,
         opened: @escaping @Sendable () -> Void) {
        self.opened = opened
        self.conversation = conversation
        self.mock = mock
        self.entry = entry
        self.request = request
        self.maximumMessageBytes = max(125, maximumMessageBytes)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // Once the pipeline's change is complete (the HTTP handlers may still be leaving): the next turn of the loop.
        context.eventLoop.assumeIsolated().execute { self.start(context: context) }
    }

    private func start(context: ChannelHandlerContext) {
        guard context.channel.isActive else {
            opened?()
            opened = nil
            return
        }
        if let entry { mock.beginWebSocket(entry) }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let pending = self.pending
        let limit = maximumMessageBytes
        let opened = mock.messaging.openChannel(.webSocket, request: request) { message in
            // Refused when the client does not read what it was sent, or the message is past the limit.
            let size = message.data.count
            guard size <= limit, pending.withLock({ bytes -> Bool in
                guard bytes + size <= Self.maximumPendingBytes else { return false }
                bytes += size
                return true
            }) else { return false }
            bound.eventLoop.execute {
                let (handler, context) = bound.value
                handler.send(message, context: context, journaled: true)
            }
            return true
        }
        channel = opened?.id
        // The 101 is journaled once the channel is open: a message stub triggered by the upgrade request finds it.
        self.opened?()
        self.opened = nil
        guard opened != nil else {
            return close(code: 1013, reason: "too many open channels; try again later", context: context)
        }
        let script = conversation.script
        for message in script.onConnect { send(message, context: context) }
        let loop = context.eventLoop.assumeIsolated()
        for item in script.timed {
            timers.append(loop.scheduleTask(in: .nanoseconds(Int64(item.after * 1e9))) {
                self.send(item.message, context: context)
            })
        }
        if let closing = script.closing {
            timers.append(loop.scheduleTask(in: .nanoseconds(Int64(closing.after * 1e9))) {
                self.close(code: closing.code, reason: closing.reason, context: context)
            })
        }
        if let handle = conversation.handle {
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            let attached = handle.attach { outgoing in
                bound.eventLoop.execute {
                    let (handler, context) = bound.value
                    switch outgoing {
                    case .message(let message): handler.send(message, context: context)
                    case .close(let code, let reason): handler.close(code: code, reason: reason, context: context)
                    }
                }
            }
            if !attached {
                close(code: 1013, reason: "this MockWebSocket serves another connection", context: context)
            }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .binary:
            guard fragments == nil else {
                return close(code: 1002, reason: "a new message began before the last one ended", context: context)
            }
            fragments = (frame.opcode, frame.unmaskedData)
            if frame.fin { finishMessage(context: context) }
        case .continuation:
            guard var current = fragments else {
                return close(code: 1002, reason: "a continuation frame without a message", context: context)
            }
            var data = frame.unmaskedData
            guard current.bytes.readableBytes + data.readableBytes <= maximumMessageBytes else {
                fragments = nil
                return close(code: 1009, reason: "message too big", context: context)
            }
            current.bytes.writeBuffer(&data)
            fragments = current
            if frame.fin { finishMessage(context: context) }
        case .ping:
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .connectionClose:
            var data = frame.unmaskedData
            let code = data.readInteger(as: UInt16.self).map(Int.init)
            closeCode = closeCode ?? code
            if !sentClose {
                // Echo the close, then the server closes the connection (RFC 6455 §5.5.1, §7.1.1).
                sentClose = true
                var reply = context.channel.allocator.buffer(capacity: 2)
                if let code { reply.writeInteger(UInt16(code)) }
                context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: reply)))
                    .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            } else {
                context.close(promise: nil)
            }
        default:
            break
        }
    }

    private func finishMessage(context: ChannelHandlerContext) {
        guard let (opcode, bytes) = fragments else { return }
        fragments = nil
        let message: WebSocketMessage
        if opcode == .text {
            guard let text = String(validating: bytes.readableBytesView, as: UTF8.self) else {
                return close(code: 1007, reason: "a text message that is not UTF-8", context: context)
            }
            message = .text(text)
        } else {
            message = .binary(Data(bytes.readableBytesView))
        }
        if let entry { mock.webSocketMessage(entry, message, fromClient: true) }
        conversation.handle?.received(message)
        if let reply = conversation.script.replies.first(where: { $0.pattern.matches(message) }) {
            for answer in reply.messages { send(answer, context: context) }
            if let code = reply.closeCode { close(code: code, reason: "", context: context) }
        }
        // Message stubs answer too, off the event loop (their patterns and templates are user code), one message
        // after another.
        if let channel {
            let mock = self.mock
            // Bounded: past `maximumBacklogBytes` waiting for the stubs, the client is not read from until they catch up
            // (a client that sends faster than its replies are made cannot grow the server's memory).
            let size = message.data.count
            let backlog = self.backlog
            let paused = backlog.withLock { waiting -> Bool in
                waiting += size
                return waiting > Self.maximumBacklogBytes
            }
            if paused, !readingPaused {
                readingPaused = true
                context.channel.setOption(ChannelOptions.autoRead, value: false).whenFailure { _ in }
            }
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            messageQueue.async {
                mock.messaging.received(message, on: channel)
                let resume = backlog.withLock { waiting -> Bool in
                    waiting -= size
                    return waiting <= Self.maximumBacklogBytes / 4
                }
                guard resume else { return }
                bound.eventLoop.execute {
                    let (handler, context) = bound.value
                    guard handler.readingPaused else { return }
                    handler.readingPaused = false
                    context.channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in }
                    context.read()
                }
            }
        }
    }

    /// Sends `message`; `journaled`: the message journal has it already (messaging sent it).
    private func send(_ message: WebSocketMessage, context: ChannelHandlerContext, journaled: Bool = false) {
        guard !sentClose, context.channel.isActive else {
            if journaled { pending.withLock { $0 = max(0, $0 - message.data.count) } }
            return
        }
        if !journaled, let channel { mock.messaging.recordSent(message, on: channel) }
        let opcode: WebSocketOpcode
        let buffer: ByteBuffer
        switch message {
        case .text(let text):
            opcode = .text
            buffer = context.channel.allocator.buffer(string: text)
        case .binary(let data):
            opcode = .binary
            buffer = context.channel.allocator.buffer(bytes: data)
        }
        if let entry { mock.webSocketMessage(entry, message, fromClient: false) }
        guard journaled else {
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: opcode, data: buffer)), promise: nil)
            return
        }
        let size = message.data.count
        let pending = self.pending
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: opcode, data: buffer)))
            .whenComplete { _ in pending.withLock { $0 = max(0, $0 - size) } }
    }

    /// Sends a close frame (once) and closes the connection when the client answers it, or at once after an error.
    private func close(code: Int, reason: String, context: ChannelHandlerContext) {
        guard !sentClose else { return }
        sentClose = true
        closeCode = closeCode ?? code
        var data = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
        data.writeInteger(UInt16(code))
        data.writeString(String(reason.utf8.prefix(123)) ?? "")
        let protocolError = code == 1002 || code == 1007 || code == 1009
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)))
            .assumeIsolated().whenComplete { _ in
                // After a protocol error nothing the client sends is read; otherwise wait for its close frame.
                if protocolError { context.close(promise: nil) }
            }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? NIOWebSocketError, case .invalidFrameLength = error {
            close(code: 1009, reason: "message too big", context: context)
        } else {
            close(code: 1002, reason: "protocol error", context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        opened?()
        opened = nil
        for timer in timers { timer.cancel() }
        timers = []
        if let channel {
            mock.messaging.closeChannel(channel)
            self.channel = nil
        }
        if !ended {
            ended = true
            if let entry { mock.endWebSocket(entry, code: closeCode) }
            conversation.handle?.closed(code: closeCode)
        }
        context.fireChannelInactive()
    }
}
#endif
