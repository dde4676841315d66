// Serves for `wrk` (ServerTests/bench): `ServerBench mock STUBS` starts an HTTPMockServer whose mock has STUBS stubs
// (`/items/0` … `/items/STUBS-1`, each answering "item N"); `ServerBench bare` starts a bare SwiftNIO HTTP/1.1
// server that answers every request with a fixed body, the floor any server on NIO can reach. For streams
// (ServerTests/stream-bench): `ServerBench stream EVENTS` answers every request with EVENTS server-sent events
// (`MockResponse.events`), `ServerBench producer EVENTS` with a producer that sends them one by one, and
// `ServerBench bare-stream EVENTS` is a bare SwiftNIO handler writing the same events as chunks, flushed as
// HTTPMockServer flushes them (every 256). For .ci/webapp-browser, `ServerBench webapp [FOLDER]` serves stubs
// registered in code beside a WireMock folder, with the admin API on. Prints the port, then
// serves until killed (SIGTERM and SIGINT exit normally, so `valgrind --tool=callgrind` writes its counts: see
// ServerTests/instructions).
//
// No top-level `await`: valgrind 3.19 crashes under `dispatch_main()`, which an async main calls. The server starts
// on a detached task while the main thread waits on a semaphore.
import Dispatch
import Foundation
import HTTPMock
import HTTPMockServer
import NIOCore
import NIOHTTP1
import NIOConcurrencyHelpers
import NIOPosix

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: ServerBench mock STUBS | ServerBench bare | ServerBench stream|producer|bare-stream EVENTS | ServerBench webapp [WIREMOCK-FOLDER]")
    exit(2)
}

/// Answers every request with the same 6-byte body, keeping the connection alive.
final class FixedResponder: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    private var keepAlive = true
    private let body = ByteBuffer(string: "item 5")

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): keepAlive = head.isKeepAlive
        case .body: break
        case .end:
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
            headers.add(name: "Content-Length", value: String(body.readableBytes))
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
            let keepAlive = self.keepAlive
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                if !keepAlive { context.close(promise: nil) }
            }
        }
    }
}

/// The events every stream sends: `data: token N` each, framed.
@Sendable func event(_ index: Int) -> String { "data: token \(index)\n\n" }

/// Answers every request with `events` server-sent events as chunks, written in one pass and flushed every 256, as
/// HTTPMockServer writes a stream whose parts are all due; the floor for a stream over SwiftNIO.
final class StreamResponder: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    private let parts: [ByteBuffer]

    init(events: Int) {
        parts = (0..<events).map { ByteBuffer(string: event($0)) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = unwrapInboundIn(data) else { return }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/event-stream")
        headers.add(name: "Transfer-Encoding", value: "chunked")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
        context.flush()
        for (index, part) in parts.enumerated() {
            context.write(wrapOutboundOut(.body(.byteBuffer(part))), promise: nil)
            if index % 256 == 255 { context.flush() }
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

for number in [SIGTERM, SIGINT] {
    _ = signal(number) { _ in exit(0) }
}

/// The port of the server `arguments` name, once it listens.
func start() async throws -> Int {
    switch arguments[1] {
    case "bare":
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(FixedResponder())
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return channel.localAddress?.port ?? 0
    case "bare-stream":
        let events = arguments.count >= 3 ? Int(arguments[2]) ?? 1000 : 1000
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(StreamResponder(events: events))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return channel.localAddress?.port ?? 0
    case "stream", "producer":
        let events = arguments.count >= 3 ? Int(arguments[2]) ?? 1000 : 1000
        let mock = HTTPMock()
        if arguments[1] == "stream" {
            let parts = (0..<events).map { ServerSentEvent("token \($0)") }
            mock.addResponses(forPath: "/items/5") { MockResponse.events(parts, lifetime: .eternal) }
        } else {
            mock.addResponses(forPath: "/items/5") {
                MockResponse.stream(contentType: "text/event-stream", lifetime: .eternal) { stream in
                    for index in 0..<events { await stream.send(event(index)) }
                }
            }
        }
        mock.journalCapacity = 1000
        let server = try await HTTPMockServer.start(serving: mock)
        servers.withLockedValue { $0.append(server) }
        return server.port
    case "webapp":
        // For .ci/webapp-browser: stubs registered in code (one switched off, one moving a scenario) beside the
        // WireMock folder given, with the admin API on, so the traffic page lists both kinds.
        let mock = HTTPMock()
        try mock.stub(.method(.get), .path("/code/hello")) { MockResponse.plaintext("from code", lifetime: .eternal) }
        let off = try mock.stub(.method(.get), .path("/code/off")) { MockResponse.plaintext("off", lifetime: .eternal) }
        off.isEnabled = false
        try mock.stub(.method(.post), .path("/orders/ship"), .scenario("orders", state: "ordered")) {
            MockResponse.plaintext("shipped", lifetime: .eternal).movingScenario("orders", to: "shipped")
        }
        if arguments.count >= 3 {
            try mock.loadWireMockMappings(from: URL(fileURLWithPath: arguments[2]), ranking: .mostRecentlyAdded)
        }
        let server = try await HTTPMockServer.start(serving: mock, configuration: .init(adminAPI: true))
        servers.withLockedValue { $0.append(server) }
        return server.port
    default:
        let count = arguments.count >= 3 ? Int(arguments[2]) ?? 10 : 10
        let mock = HTTPMock()
        for index in 0..<count {
            mock.addResponses(forPath: "/items/\(index)") { MockResponse.plaintext("item \(index)", lifetime: .eternal) }
        }
        mock.journalCapacity = 1000  // a bounded journal, as in a long UI test run
        let server = try await HTTPMockServer.start(serving: mock)
        servers.withLockedValue { $0.append(server) }  // serves until the process ends
        return server.port
    }
}

/// Keeps the started server alive.
let servers = NIOLockedValueBox<[HTTPMockServer]>([])
let started = DispatchSemaphore(value: 0)
let port = NIOLockedValueBox<Int?>(nil)
Task.detached {
    do {
        let bound = try await start()
        port.withLockedValue { $0 = bound }
    } catch {
        FileHandle.standardError.write(Data("ServerBench: \(error)\n".utf8))
    }
    started.signal()
}
started.wait()
guard let bound = port.withLockedValue({ $0 }) else { exit(1) }
FileHandle.standardOutput.write(Data("\(bound)\n".utf8))
while true { sleep(3600) }
