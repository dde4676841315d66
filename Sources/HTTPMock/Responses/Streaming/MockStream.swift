import Foundation

/// A streamed body whose parts the test sends while the client listens.
///
/// Serve it with ``MockResponse/stream(_:contentType:status:headers:)`` (or ``MockResponse/events(from:status:headers:)``
/// for server-sent events), then drive it from the test and watch what the client does with each part:
///
/// ```swift
/// let stream = MockStream()
/// mock.addResponses(forPath: "/chat") { MockResponse.events(from: stream) }
///
/// let viewModel = ChatViewModel(session: mock.urlSession)
/// viewModel.start()
/// await stream.waitForClient()
/// await stream.send(ServerSentEvent("Hel"))
/// await stream.waitUntilDelivered(1)
/// #expect(viewModel.text == "Hel")
/// stream.finish()
/// ```
///
/// A stream answers one request: the parts sent before the client connects wait for it, in order. While more
/// than ``bufferLimit`` bytes wait for a slow client, `send` waits too, so a test that sends faster than the
/// client reads does not grow the memory. Once the client has gone away (it cancelled, the connection closed),
/// `send` returns at once and what it sends is dropped; ``clientWentAway`` says so.
public final class MockStream: Sendable {
    /// The most bytes that wait for the client before ``send(_:)-(Data)`` waits too.
    public let bufferLimit: Int

    private let state = Locked(State())

    private struct State {
        /// Events waiting for the client: those from `head` on (the ones before were taken; compacted now and then).
        var queued: [StreamEvent] = []
        var head = 0
        var queuedBytes = 0
        var ended = false
        /// The face's request for the next event, when none was queued.
        var waiting: (@Sendable (StreamEvent) -> Void)?
        var attached = false
        var closed = false
        var wentAway = false
        var delivered = 0
        var waiters: [Waiter] = []
        /// When each relayed part not yet taken by the journal came from the real server (``enqueue(_:)``).
        var arrivals: [Date] = []
        var arrivalsHead = 0
    }

    /// When a relayed stream's head came from the real server; `nil` for a stream a test or producer drives.
    package let relayedAt: Date?

    private struct Waiter {
        let condition: @Sendable (Snapshot) -> Bool
        let resume: @Sendable () -> Void
    }

    private struct Snapshot: Sendable {
        let attached: Bool
        let closed: Bool
        let delivered: Int
        let queuedBytes: Int
    }

    /// A stream that lets up to `bufferLimit` bytes wait for the client (default 1 MiB).
    public init(bufferLimit: Int = 1 << 20) {
        self.bufferLimit = max(1, bufferLimit)
        relayedAt = nil
    }

    /// A stream that relays a real server's streamed answer, whose head came at `relayedAt`: each part is stamped
    /// with when it came (``enqueue(_:)``), so the journal, and a recording, keep the server's timing however late
    /// the client is served.
    package init(relayedAt: Date) {
        bufferLimit = 1 << 20
        self.relayedAt = relayedAt
    }

    // MARK: Sending

    /// Sends `data` as the next part, once the client has room for it (see ``bufferLimit``).
    public func send(_ data: Data) async {
        let limit = bufferLimit
        // Most sends find room: they queue the part without suspending.
        if !state.withLock({ $0.closed || $0.queuedBytes < limit }) {
            await wait(until: { $0.closed || $0.queuedBytes < limit })
        }
        push(.part(data))
    }

    /// Sends UTF-8 text as the next part.
    public func send(_ text: String) async {
        await send(Data(text.utf8))
    }

    /// Sends a server-sent event, framed, as the next part.
    public func send(_ event: ServerSentEvent) async {
        await send(event.encoded)
    }

    /// Ends the stream: the client gets the end of the body after the parts already sent.
    public func finish() {
        push(.end)
    }

    /// Fails the request with `error` after the parts already sent.
    public func fail(_ error: any Error & Sendable) {
        push(.failure(error))
    }

    /// Drops the connection after the parts already sent: the client gets `URLError(.networkConnectionLost)`.
    public func dropConnection() {
        push(.failure(URLError(.networkConnectionLost)))
    }

    /// Queues `event` at once, without waiting for room: for parts relayed from a real server, which the mock
    /// cannot slow down.
    package func enqueue(_ event: StreamEvent) {
        if relayedAt != nil, case .part = event {
            let now = Date()
            state.withLock { $0.arrivals.append(now) }
        }
        push(event)
    }

    /// Queues a part at once when the stream is open and its queue has room (``bufferLimit``); `false` otherwise:
    /// for messages pushed to an event channel, which a client that does not read must not let pile up.
    package func offer(_ data: Data) -> Bool {
        let room = state.withLock { state in
            !state.ended && !state.closed && state.queuedBytes + data.count <= bufferLimit
        }
        guard room else { return false }
        push(.part(data))
        return true
    }

    /// When the next `count` relayed parts came from the real server, in order (taken: each is asked for once);
    /// `nil` for a stream that is not relayed.
    package func takeArrivals(_ count: Int) -> [Date]? {
        guard relayedAt != nil else { return nil }
        return state.withLock { state in
            let end = min(state.arrivalsHead + count, state.arrivals.count)
            let taken = Array(state.arrivals[state.arrivalsHead..<end])
            state.arrivalsHead = end
            if state.arrivalsHead == state.arrivals.count {
                state.arrivals.removeAll(keepingCapacity: true)
                state.arrivalsHead = 0
            }
            return taken.count == count ? taken : nil
        }
    }

    private func push(_ event: StreamEvent) {
        let handler: (@Sendable (StreamEvent) -> Void)? = state.withLock { state in
            guard !state.ended, !state.closed else { return nil }
            if case .part = event {} else { state.ended = true }
            if let waiting = state.waiting, state.head == state.queued.count {
                state.waiting = nil
                return waiting
            }
            state.queued.append(event)
            if case .part(let data) = event { state.queuedBytes += data.count }
            return nil
        }
        handler?(event)
    }

    // MARK: What the client did

    /// Whether a request is being served from this stream.
    public var isClientConnected: Bool { state.withLock { $0.attached && !$0.closed } }

    /// Whether the client went away before the stream ended (it cancelled, or its connection closed).
    public var clientWentAway: Bool { state.withLock { $0.wentAway } }

    /// How many parts reached the client.
    public var deliveredParts: Int { state.withLock { $0.delivered } }

    /// Waits until a request is served from this stream.
    public func waitForClient() async {
        await wait(until: { $0.attached || $0.closed })
    }

    /// Waits until `count` parts have reached the client (or the stream is over).
    public func waitUntilDelivered(_ count: Int) async {
        await wait(until: { $0.delivered >= count || $0.closed })
    }

    /// Waits until the stream is over: it ended, failed, or the client went away.
    public func waitUntilClosed() async {
        await wait(until: { $0.closed })
    }

    // MARK: What the faces use

    /// Attaches a request to the stream; `false` if another request was served from it before.
    func attach() -> Bool {
        let attached = state.withLock { state -> Bool in
            guard !state.attached else { return false }
            state.attached = true
            return true
        }
        if attached { wake() }
        return attached
    }

    /// The next event if one is queued; otherwise `handler` gets it when the test sends it.
    func next(whenDue handler: @escaping @Sendable (StreamEvent) -> Void) -> StreamEvent? {
        let event: StreamEvent? = state.withLock { state in
            guard state.head < state.queued.count else {
                state.waiting = handler
                return nil
            }
            let event = state.queued[state.head]
            state.head += 1
            if state.head == state.queued.count {
                state.queued.removeAll(keepingCapacity: true)
                state.head = 0
            } else if state.head >= 1_024, state.head * 2 >= state.queued.count {
                state.queued.removeFirst(state.head)
                state.head = 0
            }
            if case .part(let data) = event { state.queuedBytes -= data.count }
            return event
        }
        if event != nil { wake() }
        return event
    }

    /// Parts reached the client.
    func delivered(_ count: Int = 1) {
        state.withLock { $0.delivered += count }
        wake()
    }

    /// The stream is over for the client; `early`: it went away before the end.
    func close(early: Bool) {
        state.withLock { state in
            state.closed = true
            state.waiting = nil
            state.queued = []
            state.head = 0
            state.queuedBytes = 0
            state.arrivals = []
            state.arrivalsHead = 0
            if early { state.wentAway = true }
        }
        wake()
    }

    // MARK: Waiting

    private func wait(until condition: @escaping @Sendable (Snapshot) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resume: @Sendable () -> Void = { continuation.resume() }
            let now = state.withLock { state -> Bool in
                if condition(Self.snapshot(state)) { return true }
                state.waiters.append(Waiter(condition: condition, resume: resume))
                return false
            }
            if now { resume() }
        }
    }

    private func wake() {
        let ready: [@Sendable () -> Void] = state.withLock { state in
            guard !state.waiters.isEmpty else { return [] }
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
        Snapshot(attached: state.attached, closed: state.closed, delivered: state.delivered,
                 queuedBytes: state.queuedBytes)
    }
}
