#if Server
import Foundation
import HTTPMock
import NIOCore

/// The listening channel and the open connections of one server, so that it can be stopped from its own API
/// (``HTTPMockServer/stop()``) or from a request (`POST /__admin/shutdown`), once.
final class ServerLifecycle: Sendable {
    private struct State {
        var listener: (any Channel)?
        var open: [ObjectIdentifier: any Channel] = [:]
        var stopped = false
        var finished = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// A stop without grace was asked for: a graceful stop under way closes what is left now.
        var hurried = false
        /// What ends the responses that last until their client goes away (the traffic page's events), by token.
        var endless: [Int: @Sendable () -> Void] = [:]
        var nextToken = 0
    }

    private let state = Locked(State())

    /// The channel that accepts connections, once bound.
    func setListener(_ channel: any Channel) {
        state.withLock { $0.listener = channel }
    }

    /// Adds `channel`, or says `false` once the server has stopped.
    func insert(_ channel: any Channel) -> Bool {
        state.withLock { state in
            guard !state.stopped else { return false }
            state.open[ObjectIdentifier(channel)] = channel
            return true
        }
    }

    func remove(_ channel: any Channel) {
        state.withLock { _ = $0.open.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    var count: Int { state.withLock { $0.open.count } }

    /// Registers `end`, which ends a response that would last until its client goes away, to be called when the
    /// server stops (a graceful stop then need not wait for it); `nil`, and `end` is called at once, when the server
    /// has stopped already.
    func whenStopping(_ end: @escaping @Sendable () -> Void) -> Int? {
        let token: Int? = state.withLock { state in
            guard !state.stopped else { return nil }
            defer { state.nextToken += 1 }
            state.endless[state.nextToken] = end
            return state.nextToken
        }
        if token == nil { end() }
        return token
    }

    /// Forgets what ``whenStopping(_:)`` registered: the response ended on its own.
    func forget(_ token: Int) {
        state.withLock { _ = $0.endless.removeValue(forKey: token) }
    }

    /// Stops listening, closes every connection, then wakes those waiting. Calling it again waits for the first
    /// call to finish; a call without a grace period cuts short the grace of a call with one.
    ///
    /// With `gracePeriod`, a connection answering a request first finishes its response (with
    /// `Connection: close`; NIO's `HTTPServerPipelineHandler` quiesces it), idle ones close at once, and those
    /// still open after `gracePeriod` seconds are closed. Responses that would last until their client goes away
    /// (``whenStopping(_:)``) are ended first, so they hold up no graceful stop.
    func stop(gracePeriod: TimeInterval = 0) async {
        let (listener, open, endless, first) = state.withLock { state in
            defer {
                state.stopped = true
                state.endless = [:]
                if gracePeriod <= 0 { state.hurried = true }
            }
            return (state.listener, Array(state.open.values), Array(state.endless.values), !state.stopped)
        }
        guard first else { return await waitUntilStopped() }
        try? await listener?.close()
        for end in endless { end() }
        if gracePeriod > 0 {
            for connection in open { connection.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent()) }
            let deadline = Date().addingTimeInterval(gracePeriod)
            while Date() < deadline, !state.withLock({ $0.hurried || $0.open.isEmpty }) {
                try? await Task.sleep(nanoseconds: 20_000_000)
            }
        }
        let left = state.withLock { state in
            defer { state.open = [:] }
            return Array(state.open.values)
        }
        for connection in left {
            try? await connection.close()
        }
        let waiters = state.withLock { state in
            state.finished = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once ``stop()`` has finished.
    func waitUntilStopped() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if !state.finished { state.waiters.append(continuation) }
                return state.finished
            }
            if done { continuation.resume() }
        }
    }
}

/// What the admin API changes while a server runs.
final class ServerState: Sendable {
    private let fixedDelay = Locked(0)
    /// The stub mappings created over the admin API, with what serves them.
    let mappings: MappingStore
    /// A recording started over the admin API (`/__admin/recordings/start`).
    let recorder = AdminRecorder()

    /// What this server adds to `Via` when it forwards a request (`1.1 httpmock-…`, different for each server): a
    /// request that comes back with it has gone round a loop.
    let via = "1.1 httpmock-" + UUID.random().uuidString.prefix(8).lowercased()
    /// Carries the requests a stub sends to another server (a WireMock mapping's `proxyBaseUrl`) to exactly their
    /// URL; made when first needed.
    private let stubForwarder = Locked<Forwarder?>(nil)

    /// The forwarder of stubs answered by another server.
    var directForwarder: Forwarder {
        stubForwarder.withLock { forwarder in
            if let forwarder { return forwarder }
            let made = Forwarder(upstream: URL(string: "http://localhost")!, via: via)
            forwarder = made
            return made
        }
    }

    /// Lets the stubs' forwarded requests in flight finish, then releases their session.
    func closeForwarding() {
        stubForwarder.withLock { $0?.close() }
    }

    init(wireMockFolder: URL?, ranking: WireMockRanking) {
        mappings = MappingStore(wireMockFolder: wireMockFolder, ranking: ranking)
    }

    /// Milliseconds added before every response of the mock (`POST /__admin/settings {"fixedDelay": …}`).
    var fixedDelayMilliseconds: Int {
        get { fixedDelay.current }
        set { fixedDelay.withLock { $0 = newValue } }
    }
}
#endif
