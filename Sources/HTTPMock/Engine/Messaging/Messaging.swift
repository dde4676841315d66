import Foundation

/// The engine's messaging: open channels (WebSocket conversations, server-sent-event streams kept open), message
/// stubs, and the message journal, behind a lock of their own.
///
/// Its state is private to this file; the faces use these named operations, each one step under the lock:
/// - stubs: ``register(_:slot:)``, ``stubs``, ``removeStubs(where:)``, ``removeSlot(_:)``, ``resetStubs()``;
/// - channels: ``openChannel(_:request:isAlive:deliver:)``, ``closeChannel(_:)``, ``channels``;
/// - messages: ``received(_:on:)``, ``recordSent(_:on:)``, ``send(_:to:matching:)``, ``httpServed(_:stub:)``;
/// - journal: ``events``, ``event(_:)``, ``removeEvents(where:)``, ``clearEvents()``, ``waitForEvents(count:timeout:matching:)``.
///
/// User code (a ``WebSocketMessagePattern``, a request matcher, a template) runs outside the lock, as the engine's
/// own rule has it.
package final class Messaging: Sendable {
    /// How much messaging may hold: open channels, journal events and their bytes, stubs.
    package struct Limits: Sendable {
        package var openChannels = 1_000
        package var journalEvents = 10_000
        package var journalBytes = 16 << 20
        package var stubs = 10_000
        /// Firings waiting for a delayed action (`fixedDelayMilliseconds`); past it, a delayed action is not sent.
        package var delayedActions = 10_000
    }

    package static let limits = Limits()

    private struct OpenChannel {
        var channel: MessageChannel
        /// Sends a message on the channel; `false` when it cannot (closed, or its client reads too slowly).
        let deliver: @Sendable (WebSocketMessage) -> Bool
        /// Whether the connection is still there (a face that cannot say when it closed tells it here).
        let isAlive: @Sendable () -> Bool
    }

    private struct Waiter {
        let matches: @Sendable (MessageEvent) -> Bool
        let count: Int
        var found: [MessageEvent] = []
        /// The sequence number of the next event to test.
        var next: Int
        let resume: @Sendable ([MessageEvent]) -> Void
    }

    private struct State {
        var stubs: [MessageStub] = []
        var slots: [String: Set<UUID>] = [:]
        var channels: [UUID: OpenChannel] = [:]
        /// Events, oldest first, each with its sequence number.
        var events: [(sequence: Int, event: MessageEvent)] = []
        var eventBytes = 0
        var nextSequence = 0
        var waiters: [UUID: Waiter] = [:]
        /// Whether a WebSocket upgrade no stub answers opens a plain channel (WireMock's behaviour).
        var acceptsAnyWebSocket = false
    }

    private let state = Locked(State())
    /// How many firings wait for a delayed action now (``Limits/delayedActions`` at most).
    private let delayed = Locked(0)
    /// Tells the engine whether some stub fires on HTTP requests (the engine asks only then).
    private let onHTTPTriggersChanged: @Sendable (Bool) -> Void
    /// Whether an HTTP stub (its id and summary) is the WireMock mapping with this id (for `http-stub` triggers),
    /// set by the face that knows the mappings.
    private let stubIdentity = Locked<(@Sendable (StubID, String, UUID) -> Bool)?>(nil)

    init(onHTTPTriggersChanged: @escaping @Sendable (Bool) -> Void) {
        self.onHTTPTriggersChanged = onHTTPTriggersChanged
    }

    // MARK: - Stubs

    /// Adds `stubs` (all or none); with a `slot`, the stubs that slot held before are replaced in the same step.
    package func register(_ stubs: [MessageStub], slot: String? = nil) throws(HTTPMockError) {
        let outcome = state.withLock { state -> Result<Bool, HTTPMockError> in
            var kept = state.stubs
            if let slot, let previous = state.slots[slot] { kept.removeAll { previous.contains($0.id) } }
            let ids = Set(stubs.map(\.id))
            kept.removeAll { ids.contains($0.id) }  // the same id again replaces the stub, as WireMock does
            guard kept.count + stubs.count <= Self.limits.stubs else {
                return .failure(HTTPMockError(.invalidDefinition, "at most \(Self.limits.stubs) message stubs can be registered; \(kept.count + stubs.count) were asked for"))
            }
            kept += stubs
            state.stubs = kept
            if let slot { state.slots[slot] = ids }
            return .success(state.stubs.contains(where: \.isHTTPTriggered))
        }
        let http = try outcome.get()
        onHTTPTriggersChanged(http)
    }

    /// Every message stub, in the order added.
    package var stubs: [MessageStub] { state.withLock { $0.stubs } }

    /// Removes the stubs `shouldRemove` picks (it runs under the lock: keep it to the stub's fields); returns them.
    @discardableResult
    package func removeStubs(where shouldRemove: (MessageStub) -> Bool) -> [MessageStub] {
        let (removed, http) = state.withLock { state -> ([MessageStub], Bool) in
            let removed = state.stubs.filter(shouldRemove)
            let ids = Set(removed.map(\.id))
            state.stubs.removeAll { ids.contains($0.id) }
            for key in state.slots.keys { state.slots[key]?.subtract(ids) }
            return (removed, state.stubs.contains(where: \.isHTTPTriggered))
        }
        onHTTPTriggersChanged(http)
        return removed
    }

    /// Removes the stubs a slot holds.
    package func removeSlot(_ slot: String) {
        let ids = state.withLock { $0.slots.removeValue(forKey: slot) } ?? []
        removeStubs { ids.contains($0.id) }
    }

    /// Removes every stub not loaded into a slot (WireMock's reset keeps the files' stubs).
    package func resetStubs() {
        let kept = state.withLock { $0.slots.values.reduce(into: Set<UUID>()) { $0.formUnion($1) } }
        removeStubs { !kept.contains($0.id) }
    }

    /// Says whether an HTTP stub (its id and summary) is the WireMock mapping with an id, for stubs triggered by one.
    package func setStubIdentity(_ identity: @escaping @Sendable (_ stub: StubID, _ summary: String, _ mapping: UUID) -> Bool) {
        stubIdentity.withLock { $0 = identity }
    }

    // MARK: - Channels

    /// Whether a WebSocket upgrade that no stub answers opens a channel of its own, as WireMock accepts a WebSocket
    /// on any path (`httpmock serve` turns it on), or is answered as any unmatched request.
    package var acceptsAnyWebSocket: Bool {
        get { state.withLock { $0.acceptsAnyWebSocket || !$0.stubs.isEmpty } }
        set { state.withLock { $0.acceptsAnyWebSocket = newValue } }
    }

    /// Opens a channel for `request`; `deliver` sends a message on it (from any thread) and says whether it could.
    /// `nil` when ``Limits/openChannels`` are open already: the face refuses the connection.
    package func openChannel(_ kind: MessageChannel.Kind, request: CapturedRequest,
                             isAlive: @escaping @Sendable () -> Bool = { true },
                             deliver: @escaping @Sendable (WebSocketMessage) -> Bool) -> MessageChannel? {
        pruneChannels()
        return state.withLock { state in
            guard state.channels.count < Self.limits.openChannels else { return nil }
            let channel = MessageChannel(kind: kind, request: request)
            state.channels[channel.id] = OpenChannel(channel: channel, deliver: deliver, isAlive: isAlive)
            return channel
        }
    }

    /// Opens the event channel of a playback that stays open (``MockResponse/eventChannel(_:status:lifetime:headers:)``):
    /// each message becomes one event in its stream. `nil` for any other playback, or when too many are open (the
    /// stream then serves its first events and ends).
    package func openEventChannel(_ playback: StreamPlayback, request: CapturedRequest) -> UUID? {
        guard let stream = playback.channelStream else { return nil }
        let channel = openChannel(.serverSentEvents, request: request, isAlive: { stream.isClientConnected }) { message in
            stream.offer(ServerSentEvent(message: message).encoded)
        }
        if channel == nil { stream.finish() }
        return channel?.id
    }

    /// Closes the channels whose connections are gone.
    private func pruneChannels() {
        let open = state.withLock { $0.channels.values.map { ($0.channel.id, $0.isAlive) } }
        let gone = open.filter { !$0.1() }.map(\.0)
        guard !gone.isEmpty else { return }
        state.withLock { state in for id in gone { state.channels[id] = nil } }
    }

    /// The channel closed: it leaves the listings, and nothing more is sent on it.
    package func closeChannel(_ id: UUID) {
        _ = state.withLock { $0.channels.removeValue(forKey: id) }
    }

    /// The open channels, oldest first.
    package var channels: [MessageChannel] {
        pruneChannels()
        return state.withLock { $0.channels.values.map(\.channel) }.sorted { $0.openedAt < $1.openedAt }
    }

    // MARK: - Messages

    /// A client sent `message` on channel `id`: it is journaled, and the best message stub whose trigger it meets
    /// fires (by priority, then the one added last).
    package func received(_ message: WebSocketMessage, on id: UUID) {
        let found = state.withLock { state -> (MessageChannel, [MessageStub])? in
            guard let open = state.channels[id] else { return nil }
            return (open.channel, state.stubs)
        }
        guard let (channel, stubs) = found else { return }
        let fired = Self.best(stubs.filter { stub in
            guard case .message(let kind, let request, let body) = stub.trigger else { return false }
            if let kind, kind != channel.kind { return false }
            if let request, !request.matches(channel.request) { return false }
            return body?.matches(message) ?? true
        })
        append(MessageEvent(id: UUID.random(), direction: .received, channel: channel, message: message, stubID: fired?.id,
                            stubName: fired?.name, date: Date()))
        if let fired { fire(fired, input: MessageStub.Input(message: message, request: channel.request), originating: channel.id) }
    }

    /// The face sent `message` on channel `id` on its own (a scripted conversation, a test's handle): journaled.
    package func recordSent(_ message: WebSocketMessage, on id: UUID) {
        guard let channel = state.withLock({ $0.channels[id]?.channel }) else { return }
        append(MessageEvent(id: UUID.random(), direction: .sent, channel: channel, message: message, stubID: nil, stubName: nil, date: Date()))
    }

    /// Sends `message` to every open channel of `kind` (any, when `nil`) whose request meets `request` (every one,
    /// when `nil`); returns the channels it reached.
    @discardableResult
    package func send(_ message: WebSocketMessage, to kind: MessageChannel.Kind?, matching request: RequestPredicate?) -> [MessageChannel] {
        deliver(message, to: targets(kind: kind, request: request), stub: nil)
    }

    /// The mock answered `request` (with the stub `stub`, if one): the message stubs it triggers fire.
    package func httpServed(_ request: CapturedRequest, stub: (id: StubID, summary: String)?) {
        let stubs = state.withLock { $0.stubs.filter(\.isHTTPTriggered) }
        guard !stubs.isEmpty else { return }
        let identity = stubIdentity.withLock { $0 }
        // A WebSocket upgrade opened a channel: for its stubs, that channel is the originating one.
        let origin = state.withLock { $0.channels.values.first { $0.channel.request == request }?.channel.id }
        for candidate in stubs {
            switch candidate.trigger {
            case .httpRequest(let pattern) where pattern.matches(request): break
            case .httpStub(let id) where stub.map { identity?($0.id, $0.summary, id) ?? false } ?? false: break
            default: continue
            }
            fire(candidate, input: MessageStub.Input(message: nil, request: request), originating: origin)
        }
    }

    /// The stub that ranks first: the lowest priority number (none ranks last), then the one added last.
    private static func best(_ stubs: [MessageStub]) -> MessageStub? {
        var best: MessageStub?
        for stub in stubs {
            guard let current = best else { best = stub; continue }
            let rank = stub.priority ?? Int.max, currentRank = current.priority ?? Int.max
            if rank <= currentRank { best = stub }  // later stubs win ties
        }
        return best
    }

    private func fire(_ stub: MessageStub, input: MessageStub.Input, originating: UUID?) {
        perform(stub, from: 0, input: input, originating: originating, firedAt: .now())
    }

    /// Sends `stub`'s actions from `index` on, in the order they are listed: each when its delay, counted from when
    /// the stub fired, has passed, and never before the action listed before it (two actions due at nearly the same
    /// moment would otherwise race on separate timers). One timer waits per firing at a time.
    private func perform(_ stub: MessageStub, from index: Int, input: MessageStub.Input, originating: UUID?, firedAt: DispatchTime) {
        var index = index
        while index < stub.actions.count {
            let action = stub.actions[index]
            index += 1
            let due = firedAt + action.delay
            if action.delay > 0, DispatchTime.now() < due {
                // Bounded: a client that sends many messages to a stub with a long delay cannot pile up timers.
                let admitted = delayed.withLock { waiting -> Bool in
                    guard waiting < Self.limits.delayedActions else { return false }
                    waiting += 1
                    return true
                }
                guard admitted else { continue }
                let delayed = self.delayed, next = index
                DispatchQueue.global().asyncAfter(deadline: due) { [self] in
                    delayed.withLock { $0 -= 1 }
                    send(action, of: stub, input: input, originating: originating)
                    perform(stub, from: next, input: input, originating: originating, firedAt: firedAt)
                }
                return
            }
            send(action, of: stub, input: input, originating: originating)
        }
    }

    private func send(_ action: MessageStub.Action, of stub: MessageStub, input: MessageStub.Input, originating: UUID?) {
        let message = action.message(input)
        let targets: [UUID]
        switch action.target {
        case .originating: targets = originating.map { [$0] } ?? []
        case .channels(let kind, let request): targets = self.targets(kind: kind, request: request)
        }
        deliver(message, to: targets, stub: stub)
    }

    /// The open channels of `kind` whose requests meet `request`, tested outside the lock.
    private func targets(kind: MessageChannel.Kind?, request: RequestPredicate?) -> [UUID] {
        pruneChannels()
        let open = state.withLock { $0.channels.values.map(\.channel) }.sorted { $0.openedAt < $1.openedAt }
        return open.filter { channel in
            (kind == nil || channel.kind == kind) && (request?.matches(channel.request) ?? true)
        }.map(\.id)
    }

    @discardableResult
    private func deliver(_ message: WebSocketMessage, to ids: [UUID], stub: MessageStub?) -> [MessageChannel] {
        var reached: [MessageChannel] = []
        for id in ids {
            guard let open = state.withLock({ $0.channels[id] }) else { continue }
            guard open.deliver(message) else { continue }
            reached.append(open.channel)
            append(MessageEvent(id: UUID.random(), direction: .sent, channel: open.channel, message: message, stubID: stub?.id,
                                stubName: stub?.name, date: Date()))
        }
        return reached
    }

    // MARK: - Journal

    private func append(_ event: MessageEvent) {
        let size = event.message.data.count
        let waiting = state.withLock { state -> Bool in
            state.events.append((state.nextSequence, event))
            state.nextSequence += 1
            state.eventBytes += size
            var drop = 0
            var bytes = state.eventBytes
            while drop < state.events.count - 1,
                  state.events.count - drop > Self.limits.journalEvents || bytes > Self.limits.journalBytes {
                bytes -= state.events[drop].event.message.data.count
                drop += 1
            }
            if drop > 0 {
                state.events.removeFirst(drop)
                state.eventBytes = bytes
            }
            return !state.waiters.isEmpty
        }
        if waiting { wakeWaiters() }
    }

    /// The journaled events, oldest first.
    package var events: [MessageEvent] { state.withLock { $0.events.map(\.event) } }

    /// The event with this identifier, if the journal still has it.
    package func event(_ id: UUID) -> MessageEvent? {
        state.withLock { $0.events.first { $0.event.id == id }?.event }
    }

    /// Removes the events `shouldRemove` picks (run outside the lock) and returns them.
    @discardableResult
    package func removeEvents(where shouldRemove: (MessageEvent) -> Bool) -> [MessageEvent] {
        let removed = Set(events.filter(shouldRemove).map(\.id))
        guard !removed.isEmpty else { return [] }
        return state.withLock { state in
            var gone: [MessageEvent] = []
            state.events.removeAll { item in
                guard removed.contains(item.event.id) else { return false }
                gone.append(item.event)
                state.eventBytes -= item.event.message.data.count
                return true
            }
            return gone
        }
    }

    /// Empties the message journal.
    package func clearEvents() {
        state.withLock { state in
            state.events.removeAll()
            state.eventBytes = 0
        }
    }

    /// Waits until `count` events that `matches` picks are journaled (those there already count), or `timeout`
    /// seconds pass; returns the ones found (fewer than `count` after a timeout).
    package func waitForEvents(count: Int, timeout: TimeInterval,
                               matching matches: @escaping @Sendable (MessageEvent) -> Bool) async -> [MessageEvent] {
        let id = UUID.random()
        let count = max(1, count)
        return await withCheckedContinuation { (continuation: CheckedContinuation<[MessageEvent], Never>) in
            let once = Locked(false)
            let resume: @Sendable ([MessageEvent]) -> Void = { found in
                let first = once.withLock { done -> Bool in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume(returning: found) }
            }
            state.withLock { $0.waiters[id] = Waiter(matches: matches, count: count, next: 0, resume: resume) }
            wakeWaiters()
            let seconds = timeout.isFinite ? max(0, min(timeout, 86_400)) : 86_400
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
                if let waiter = state.withLock({ $0.waiters.removeValue(forKey: id) }) { waiter.resume(waiter.found) }
            }
        }
    }

    /// Tests the events each waiter has not seen (outside the lock) and resumes those that found enough.
    private func wakeWaiters() {
        let (waiters, events) = state.withLock { ($0.waiters, $0.events) }
        for (id, waiter) in waiters {
            var found: [MessageEvent] = []
            var next = waiter.next
            for item in events where item.sequence >= waiter.next {
                if waiter.matches(item.event) { found.append(item.event) }
                next = item.sequence + 1
            }
            let done = state.withLock { state -> Waiter? in
                guard var current = state.waiters[id], current.next == waiter.next else { return nil }
                current.found += found
                current.next = next
                guard current.found.count >= current.count else {
                    state.waiters[id] = current
                    return nil
                }
                state.waiters[id] = nil
                return current
            }
            if let done { done.resume(Array(done.found.prefix(done.count))) }
        }
    }
}
