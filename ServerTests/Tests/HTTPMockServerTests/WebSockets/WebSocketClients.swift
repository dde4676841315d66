import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A WebSocket client on SwiftNIO (its client upgrader): it keeps each message the server sends, sends text, and
/// closes with a code.
final class NIOWebSocketClient: @unchecked Sendable {  // reason: `channel` is set once in `connect` before the client is handed out; the rest is behind `Guarded`
    private var channel: (any Channel)?
    private let inbox = Guarded((messages: [String](), closeCode: Int?.none, closed: false))

    /// Connects to `ws://127.0.0.1:port/path`; throws when the upgrade is refused.
    static func connect(port: Int, path: String, host: String = "example.com") async throws -> NIOWebSocketClient {
        let client = NIOWebSocketClient()
        let upgraded = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: Void.self)
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let inbox = client.inbox
        let failure = UpgradeFailure(promise: upgraded)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                let upgrader = NIOWebSocketClientUpgrader(requestKey: key, maxFrameSize: 1 << 20) { channel, _ in
                    channel.eventLoop.makeCompletedFuture {
                        channel.pipeline.syncOperations.removeHandler(failure, promise: nil)
                        try channel.pipeline.syncOperations.addHandler(Reader(inbox: inbox))
                        upgraded.succeed()
                    }
                }
                let configuration: NIOHTTPClientUpgradeSendableConfiguration = (
                    upgraders: [upgrader],
                    completionHandler: { _ in }
                )
                // A message the server sends on connect may come in the same read as the 101: keep those bytes.
                return channel.pipeline.addHTTPClientHandlers(leftOverBytesStrategy: .forwardBytes,
                                                              withClientUpgrade: configuration).flatMap {
                    channel.pipeline.addHandler(failure)
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        client.channel = channel
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: host)
        headers.add(name: "Content-Length", value: "0")
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        try await channel.writeAndFlush(HTTPClientRequestPart.end(nil)).get()
        try await upgraded.futureResult.get()
        return client
    }

    /// Sends a text message (masked, as a client must).
    func send(_ text: String) async throws {
        guard let channel else { return }
        let frame = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: channel.allocator.buffer(string: text))
        try await channel.writeAndFlush(frame).get()
    }

    /// Sends raw bytes as one binary frame of `size` bytes.
    func sendBinary(size: Int) async throws {
        guard let channel else { return }
        let frame = WebSocketFrame(fin: true, opcode: .binary, maskKey: .random(),
                                   data: channel.allocator.buffer(repeating: 0x61, count: size))
        try await channel.writeAndFlush(frame).get()
    }

    /// Sends a close frame with `code`.
    func close(code: Int = 1000) async throws {
        guard let channel else { return }
        var data = channel.allocator.buffer(capacity: 2)
        data.writeInteger(UInt16(code))
        try await channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: data)).get()
    }

    /// Waits until the client holds `count` messages (or the connection closed); returns them.
    func messages(count: Int) async -> [String] {
        while true {
            let (messages, closed) = inbox.withLock { ($0.messages, $0.closed) }
            if messages.count >= count || closed { return messages }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
    }

    /// Waits for the message `last`; returns the messages received up to it (all of them if the connection closes
    /// first).
    func messages(through last: String) async -> [String] {
        while true {
            let (messages, closed) = inbox.withLock { ($0.messages, $0.closed) }
            if let index = messages.firstIndex(of: last) { return Array(messages[...index]) }
            if closed { return messages }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
    }

    /// Waits until the connection closed; returns the close code the server sent.
    func closeCode() async -> Int? {
        while true {
            let (code, closed) = inbox.withLock { ($0.closeCode, $0.closed) }
            if closed { return code }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
    }

    private final class Reader: ChannelInboundHandler, Sendable {
        typealias InboundIn = WebSocketFrame
        let inbox: Guarded<(messages: [String], closeCode: Int?, closed: Bool)>
        init(inbox: Guarded<(messages: [String], closeCode: Int?, closed: Bool)>) { self.inbox = inbox }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = Self.unwrapInboundIn(data)
            switch frame.opcode {
            case .text:
                inbox.withLock { $0.messages.append(String(buffer: frame.unmaskedData)) }
            case .connectionClose:
                var data = frame.unmaskedData
                let code = data.readInteger(as: UInt16.self).map(Int.init)
                inbox.withLock { $0.closeCode = code }
                context.close(promise: nil)
            default:
                break
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            inbox.withLock { $0.closed = true }
        }
    }

    /// Fails the upgrade promise if the server answers without upgrading.
    private final class UpgradeFailure: ChannelInboundHandler, RemovableChannelHandler, Sendable {
        typealias InboundIn = HTTPClientResponsePart
        let promise: EventLoopPromise<Void>
        init(promise: EventLoopPromise<Void>) { self.promise = promise }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .head(let head) = Self.unwrapInboundIn(data) {
                promise.fail(UpgradeRefused(status: Int(head.status.code)))
            }
        }
        func channelInactive(context: ChannelHandlerContext) {
            promise.fail(UpgradeRefused(status: 0))
        }
    }
}

struct UpgradeRefused: Error, Equatable { let status: Int }
