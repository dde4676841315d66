#if Server
import Foundation
import HTTPMock
import NIOCore
import NIOHTTP1
import NIOPosix

/// A mock served over real HTTP: every request that reaches the server is answered by an `HTTPMock`'s stubs.
///
/// For clients that a mock's `urlSession` cannot reach: server-side Swift (AsyncHTTPClient),
/// an app under UI test in another process, tools that are not Swift (curl, a browser). The requests land in the
/// mock's journal, so `HTTPAssertRequested(… in: mock)` and the waits of HTTPMockTesting work unchanged.
///
/// ```swift
/// let mock = HTTPMock()
/// mock.addResponses(forPath: "/user", host: "api.example.com") {
///     MockResponse.plaintext("Alice", lifetime: .eternal)
/// }
/// let server = try await HTTPMockServer.start(serving: mock, configuration: .init(origin: "https://api.example.com"))
/// let (data, _) = try await URLSession(configuration: .ephemeral).data(from: server.baseURL.appendingPathComponent("user"))
/// await server.stop()
/// ```
///
/// The server binds to 127.0.0.1 on a free port unless told otherwise. It answers as a real server does: it sends
/// redirects and `Set-Cookie` to its client instead of following or storing them, waits out delays on timers
/// (no thread blocks), streams file bodies, and turns a `NetworkFault` into what the socket would do.
public final class HTTPMockServer: Sendable {
    /// The mock whose stubs answer.
    public let mock: HTTPMock
    /// `http://127.0.0.1:PORT` (the bound address and port): prefix a path to it to make a request.
    public let baseURL: URL
    /// The bound port (the free one chosen when the server was started with port 0).
    public let port: Int
    /// The settings the server was started with.
    public let configuration: Configuration

    private let lifecycle: ServerLifecycle
    private let forwarder: Forwarder?
    /// What the admin API keeps, for its recording's forwarder to close with the server.
    private let state: ServerState

    private init(mock: HTTPMock, lifecycle: ServerLifecycle, forwarder: Forwarder?, state: ServerState, address: String,
                 port: Int, configuration: Configuration) {
        self.mock = mock
        self.lifecycle = lifecycle
        self.forwarder = forwarder
        self.state = state
        self.port = port
        self.configuration = configuration
        let host = address.contains(":") ? "[\(address)]" : address
        baseURL = URL(string: "http://\(host):\(port)")!
    }

    /// Starts a server whose every request `mock` answers.
    ///
    /// - Parameters:
    ///   - mock: The mock whose stubs, unmocked policy and journal serve the requests.
    ///   - port: The port to listen on; 0 (the default) picks a free one, so parallel tests each get their own.
    ///   - address: The address to bind. Default `127.0.0.1`, reachable only from this machine; name another
    ///     (`0.0.0.0`, a LAN address) only to serve other devices on purpose.
    ///   - configuration: How requests are matched and what the server refuses.
    /// - Throws: The socket error when the address cannot be bound (a port in use, an address not on this
    ///   machine).
    public static func start(
        serving mock: HTTPMock,
        port: Int = 0,
        address: String = "127.0.0.1",
        configuration: Configuration = Configuration()
    ) async throws -> HTTPMockServer {
        if configuration.adminAPI, configuration.adminCredentials == nil, !Self.isLoopback(address) {
            throw HTTPMockError(.invalidDefinition, "the admin API, which changes stubs, reads the journal and shuts the server down, would answer every machine that reaches \(address); set Configuration.adminCredentials (httpmock serve --admin-auth user:password), bind to 127.0.0.1, or turn the admin API off")
        }
        let lifecycle = ServerLifecycle()
        let settings = ConnectionSettings(mock: mock, configuration: configuration, address: address, lifecycle: lifecycle)
        let forwarder = settings.forwarder
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                // Out of file descriptors, accept fails at once every time the listening socket is readable.
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(AcceptPause()) }
            }
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 16)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    guard lifecycle.insert(channel) else { throw ChannelError.ioOnClosedChannel }
                    let limits = configuration.decoderLimits
                    let encoder = ResponseEncoder()
                    let relay = MethodTokenRelay(limit: configuration.maximumHeaderBytes)
                    try channel.pipeline.syncOperations.addHandlers([
                        encoder,
                        relay,
                        ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes,
                                                                informationalResponseStrategy: .drop,
                                                                limitConfiguration: limits)),
                        HTTPServerPipelineHandler(),
                        ConnectionHandler(settings: settings, encoder: encoder, methodHeader: relay.headerName),
                    ])
                    channel.closeFuture.whenComplete { _ in lifecycle.remove(channel) }
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: address, port: port).get()
        } catch {
            forwarder?.close()
            if let io = error as? IOError, io.errnoCode == EADDRINUSE {
                throw HTTPMockError(.invalidDefinition, "port \(port) on \(address) is in use by another process; choose another port, or 0 for a free one")
            }
            throw error
        }
        guard let bound = channel.localAddress?.port else {
            try? await channel.close()
            forwarder?.close()
            throw ChannelError.unknownLocalAddress
        }
        lifecycle.setListener(channel)
        return HTTPMockServer(mock: mock, lifecycle: lifecycle, forwarder: forwarder, state: settings.state, address: address,
                              port: bound, configuration: configuration)
    }

    /// Stops listening and closes every connection, with the responses they were sending or waiting to send.
    /// When it returns the port is free and no timer of the server is left. Calling it again does nothing.
    public func stop() async {
        await lifecycle.stop()
        forwarder?.close()
        state.recorder.close()
        state.closeForwarding()
    }

    /// Stops listening and lets the requests being answered finish, for up to `gracePeriod` seconds: each
    /// connection closes once its response is out (with `Connection: close`), an idle one at once, and whatever is
    /// still open when the period ends (a long delay, a stream, a WebSocket) is closed then, as ``stop()`` does.
    /// `httpmock serve` stops this way on SIGINT or SIGTERM, with 5 seconds.
    ///
    /// ``stop()`` called meanwhile closes what is left at once.
    public func stop(gracePeriod: TimeInterval) async {
        await lifecycle.stop(gracePeriod: gracePeriod)
        forwarder?.close()
        state.recorder.close()
    }

    /// Returns when the server has stopped: after ``stop()``, or a `POST /__admin/shutdown` to the admin API
    /// (see ``Configuration/adminAPI``). A program that serves until told otherwise waits here.
    ///
    /// ```swift
    /// let server = try await HTTPMockServer.start(serving: mock, configuration: .init(adminAPI: true))
    /// print(server.baseURL)
    /// await server.waitUntilStopped()   // until POST /__admin/shutdown
    /// ```
    public func waitUntilStopped() async {
        await lifecycle.waitUntilStopped()
        forwarder?.close()
        state.recorder.close()
        state.closeForwarding()
    }

    /// Starts a server for `mock`, runs `body` with it, and stops it, whether `body` returns or throws: one server
    /// (and one port) per test.
    ///
    /// ```swift
    /// try await HTTPMockServer.withServer(serving: mock) { server in
    ///     let response = try await client.get(server.baseURL.appendingPathComponent("user").absoluteString)
    /// }
    /// ```
    public static func withServer<Result>(
        serving mock: HTTPMock,
        port: Int = 0,
        address: String = "127.0.0.1",
        configuration: Configuration = Configuration(),
        _ body: (HTTPMockServer) async throws -> Result
    ) async throws -> Result {
        let server = try await start(serving: mock, port: port, address: address, configuration: configuration)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// How many connections are open now.
    public var openConnections: Int { lifecycle.count }
}

extension HTTPMockServer {
    /// `127.x.x.x`, `::1` and `localhost`: reachable from this machine only.
    static func isLoopback(_ address: String) -> Bool { Loopback.contains(address) }
}
#endif
