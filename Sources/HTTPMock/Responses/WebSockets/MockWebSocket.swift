import Foundation

/// A WebSocket connection the test drives: it sends messages to the connected client, reads what the client sent,
/// and closes, while the client runs. Pass it with a script to ``MockResponse/webSocket(_:handle:lifetime:)``.
///
/// ```swift
/// let socket = MockWebSocket()
/// mock.addResponses(forPath: "/chat") { MockResponse.webSocket(handle: socket) }
/// // the app under test connects…
/// await socket.waitForClient()
/// socket.send(.text("hello from the test"))
/// let sent = await socket.nextMessage()      // what the client sent, in order
/// socket.close()
/// ```
///
/// A handle serves one connection at a time; messages sent before a client connects wait for it.
public final class MockWebSocket: Sendable {
    private let state = Locked(State())

    private struct State {
        var outgoing: [Outgoing] = []
        var deliver: (@Sendable (Outgoing) -> Void)?
        var received: [WebSocketMessage] = []
        var cursor = 0
        var connected = false
        var closedCode: Int??
        var waiters: [(condition: @Sendable (Snapshot) -> Bool, resume: @Sendable () -> Void)] = []
    }

    /// What the test asks the connection to do.
    package enum Outgoing: Sendable {
        case message(WebSocketMessage)
        case close(code: Int, reason: String)
    }

    private struct Snapshot: Sendable {
        let connected: Bool
        let closed: Bool
        let unread: Int
    }

    /// A handle not yet connected.
    public init() {}

    /// Sends `message` to the client (once it is connected).
    public func send(_ message: WebSocketMessage) { push(.message(message)) }

    /// Closes the connection with `code` (1000: normal) and `reason`.
    public func close(code: Int = 1000, reason: String = "") { push(.close(code: code, reason: reason)) }

    private func push(_ outgoing: Outgoing) {
        let deliver = state.withLock { state -> (@Sendable (Outgoing) -> Void)? in
            if let deliver = state.deliver { return deliver }
            state.outgoing.append(outgoing)
            return nil
        }
        deliver?(outgoing)
    }

    /// Whether a client is connected now.
    public var isConnected: Bool { state.withLock { $0.connected && $0.closedCode == nil } }

    /// Every message the client sent, in order.
    public var receivedMessages: [WebSocketMessage] { state.withLock { $0.received } }

    /// The close code of the connection once it closed (`nil` inside: closed without a code); `nil` while open.
    public var closeCode: Int?? { state.withLock { $0.closedCode } }

    /// Waits until a client is connected (or the connection closed).
    public func waitForClient() async {
        await wait { $0.connected || $0.closed }
    }

    /// The client's next message not read yet by this method, in the order sent; `nil` once the connection closed
    /// with none left.
    public func nextMessage() async -> WebSocketMessage? {
        await wait { $0.unread > 0 || $0.closed }
        return state.withLock { state -> WebSocketMessage? in
            guard state.cursor < state.received.count else { return nil }
            defer { state.cursor += 1 }
            return state.received[state.cursor]
        }
    }

    /// Waits until the connection is closed.
    public func waitUntilClosed() async {
        await wait { $0.closed }
    }

    // MARK: What the server uses

    /// Connects the server's side; `false` if the handle serves another connection.
    package func attach(_ deliver: @escaping @Sendable (Outgoing) -> Void) -> Bool {
        let pending: [Outgoing]? = state.withLock { state in
            guard !state.connected else { return nil }
            state.connected = true
            state.deliver = deliver
            defer { state.outgoing = [] }
            return state.outgoing
        }
        guard let pending else { return false }
        for outgoing in pending { deliver(outgoing) }
        wake()
        return true
    }

    /// The client sent `message`.
    package func received(_ message: WebSocketMessage) {
        state.withLock { $0.received.append(message) }
        wake()
    }

    /// The connection closed, with the code the close frame carried, if any.
    package func closed(code: Int?) {
        state.withLock { state in
            state.closedCode = .some(code)
            state.deliver = nil
        }
        wake()
    }

    private func wait(_ condition: @escaping @Sendable (Snapshot) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resume: @Sendable () -> Void = { continuation.resume() }
            let now = state.withLock { state -> Bool in
                if condition(Self.snapshot(state)) { return true }
                state.waiters.append((condition, resume))
                return false
            }
            if now { resume() }
        }
    }

    private func wake() {
        let ready: [@Sendable () -> Void] = state.withLock { state in
            let snapshot = Self.snapshot(state)
            var ready: [@Sendable () -> Void] = []
            state.waiters.removeAll { waiter in
                guard waiter.condition(snapshot) else { return false }
                ready.append(waiter.resume)
                return true
            }
            return ready
        }
        for resume in ready { resume() }
    }

    private static func snapshot(_ state: State) -> Snapshot {
        Snapshot(connected: state.connected, closed: state.closedCode != nil, unread: state.received.count - state.cursor)
    }
}
