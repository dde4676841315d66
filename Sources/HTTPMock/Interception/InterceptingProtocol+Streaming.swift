import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A streamed body on its way to the caller: its playback, and whether parts go out one by one.
struct StreamDelivery {
    let playback: StreamPlayback
    let entry: Int?
    /// Each part to the client as it comes; otherwise the parts are gathered and go out as one piece at the end
    /// (what corelibs' completion-handler and `async` callers need: they keep only the last piece).
    let partByPart: Bool
    /// Gets the next event when it comes due later; made once for the stream.
    var handler: (@Sendable (StreamEvent) -> Void)?
    var gathered = Data()
    /// Events that came due later, counted, so that the idle timeout knows whether one came while it waited.
    var arrivals = 0
    /// The idle timeout fired: an event that comes after it is dropped (the caller has the timeout).
    var timedOut = false
    /// Fails the request when no part comes within the request's timeout (URLSession's idle timeout).
    var idleTimer: DispatchWorkItem?
}

// A streamed body (``MockResponse/chunks(_:contentType:status:fault:lifetime:headers:)`` and the other stream
// factories): the headers go out at once, then each part when it is due, on the work queue (each delayed part
// re-enters through ``reentry()``), then the end, a fault, or nothing (a stall) until the caller cancels.
extension InterceptingProtocol {
    func startStream(_ source: StreamSource, status: Int, headers: [String: String], url: URL?, entry: Int?) {
        let responseURL = url ?? URL(string: "about:blank")!
        guard let response = HTTPURLResponse(url: responseURL, statusCode: status, httpVersion: "HTTP/1.1",
                                             headerFields: AuthenticationChallenge.deliverable(headers, status: status)) else {
            if let entry, let core = currentCore { core.engine.complete(entry, with: .failure(URLError(.badServerResponse))) }
            client?.urlProtocol(self, didFailWithError: URLError(.badServerResponse))
            return
        }
        let playback = StreamPlayback(source)
        var delivery = StreamDelivery(playback: playback, entry: entry, partByPart: deliversPartByPart)
        let resume = reentry()
        let progress = self.progress
        delivery.handler = { event in
            let live = progress.withLock { progress -> Bool in
                guard progress.stream?.timedOut == false else { return false }
                progress.stream?.arrivals += 1
                return true
            }
            if live { resume(.streamed(event)) }
        }
        let live = progress.withLock { progress -> Bool in
            guard !progress.stopped else { return false }
            progress.stream = delivery
            return true
        }
        guard live else {
            playback.cancel()
            return
        }
        if let entry, let core = currentCore {
            core.engine.beginStream(entry, status: status, headers: headers, at: playback.relayedAt ?? Date(),
                                    relayed: playback.relayedAt != nil)
            if let request = core.engine.journalEntry(entry)?.request {
                _ = core.engine.messaging.openEventChannel(playback, request: request)
            }
        }
        if let url, CookieJar.setsCookies(headers) { cookieJar()?.store(headers, for: url) }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        if ASCIICase.equal(request.httpMethod ?? "GET", "head") {
            endStream(.finished, sending: nil)
            return
        }
        pumpStream()
    }

    /// Delivers the events that are due now, in one pass; asks for the next one to come back through ``reentry()``.
    /// The parts of a pass reach the journal together, before the stream's end does.
    private func pumpStream() {
        guard let (playback, handler, partByPart, entry) = progress.withLock({ progress in
            progress.stopped ? nil : progress.stream.flatMap { stream in
                stream.handler.map { (stream.playback, $0, stream.partByPart, stream.entry) }
            }
        }) else { return }
        var sent: [Data] = []
        defer { journal(sent, entry: entry, playback: playback) }
        while true {
            guard let event = playback.next(whenDue: handler) else {
                armIdleTimeout()
                return
            }
            guard case .part(let data) = event else {
                journal(sent, entry: entry, playback: playback)
                sent = []
                _ = handle(event)
                return
            }
            if partByPart {
                if !data.isEmpty { client?.urlProtocol(self, didLoad: data) }
            } else {
                let live = progress.withLock { progress -> Bool in
                    guard !progress.stopped, progress.stream != nil else { return false }
                    progress.stream?.gathered.append(data)
                    return true
                }
                guard live else { return }
            }
            sent.append(data)
            // A long pass reaches the journal in batches, so it never holds a whole stream's parts.
            if sent.count == 256 {
                journal(sent, entry: entry, playback: playback)
                sent.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Records the parts a pass sent in the journal, and tells a live stream they reached the client.
    private func journal(_ parts: [Data], entry: Int?, playback: StreamPlayback) {
        guard !parts.isEmpty else { return }
        if let entry, let core = currentCore { core.engine.streamed(entry, parts: parts, at: playback.arrivals(parts.count)) }
        playback.delivered(parts.count)
    }

    /// The next event came back on the work queue.
    func continueStream(with event: StreamEvent) {
        let timer = progress.withLock { progress -> DispatchWorkItem? in
            defer { progress.stream?.idleTimer = nil }
            return progress.stream?.idleTimer
        }
        timer?.cancel()
        if case .part(let data) = event {
            let current = progress.withLock { progress -> StreamDelivery? in
                guard !progress.stopped, progress.stream != nil else { return nil }
                if progress.stream?.partByPart == false { progress.stream?.gathered.append(data) }
                return progress.stream
            }
            guard let current else { return }
            if current.partByPart, !data.isEmpty { client?.urlProtocol(self, didLoad: data) }
            journal([data], entry: current.entry, playback: current.playback)
            pumpStream()
        } else {
            _ = handle(event)
        }
    }

    /// Delivers an end or a failure; `false`: nothing may follow.
    private func handle(_ event: StreamEvent) -> Bool {
        switch event {
        case .part:
            return true  // parts are delivered by the pass that got them
        case .end:
            endStream(.finished, sending: nil)
            return false
        case .failure(let error):
            endStream(.failed(error), sending: error)
            return false
        }
    }

    /// Ends the stream: the gathered body (if parts were gathered), then the finish or the failure.
    private func endStream(_ ending: StreamRecord.Ending, sending failure: (any Error)?) {
        let current = progress.withLock { progress -> StreamDelivery? in
            guard !progress.stopped else { return nil }
            defer { progress.stream = nil }
            return progress.stream
        }
        guard let current else { return }
        current.idleTimer?.cancel()
        current.playback.cancel()
        if let entry = current.entry, let core = currentCore { core.engine.endStream(entry, ending) }
        if let failure {
            client?.urlProtocol(self, didFailWithError: (failure as? ProducerError)?.error ?? failure)
            return
        }
        if !current.partByPart, !current.gathered.isEmpty { client?.urlProtocol(self, didLoad: current.gathered) }
        client?.urlProtocolDidFinishLoading(self)
    }

    /// URLSession's idle timeout between parts, which it does not apply to a `URLProtocol` (on Linux): the request
    /// fails with `URLError(.timedOut)` when no part comes within it (a stalled stream).
    private func armIdleTimeout() {
        let idle = Timeouts(request: request, configuration: TaskSession.configuration(of: task)).idle
        guard idle.isFinite else { return }
        let resume = reentry()
        let progress = self.progress
        let armedAt = progress.withLock { $0.stream?.arrivals ?? 0 }
        let timer = DispatchWorkItem {
            // Fires only if no event came since it was armed; an event that comes later is dropped.
            let fire = progress.withLock { progress -> Bool in
                guard !progress.stopped, progress.stream?.arrivals == armedAt, progress.stream?.timedOut == false else {
                    return false
                }
                progress.stream?.timedOut = true
                return true
            }
            guard fire else { return }
            resume(.streamed(.failure(URLError(.timedOut, userInfo: [
                NSLocalizedDescriptionKey: "HTTPMock: no part of the streamed body came within the request's timeout of \(idle) s",
            ]))))
        }
        let armed = progress.withLock { progress -> Bool in
            guard !progress.stopped, progress.stream != nil else { return false }
            progress.stream?.idleTimer = timer
            return true
        }
        if armed { DispatchQueue.global().asyncAfter(deadline: .now() + idle, execute: timer) }
    }

    /// Whether this task's caller gets each part as it comes.
    ///
    /// On Apple platforms, always. On Linux, corelibs Foundation keeps only the last piece a `URLProtocol` loads for
    /// completion-handler and `async` callers (`data(for:)`), so only tasks driven by a delegate get the parts one
    /// by one; the others get the whole body, on time, when the stream ends. Corelibs has no public way to tell
    /// them apart: the session's task registry says how each task reports (read through `Mirror`); when it cannot
    /// be read, the body is gathered, which is right for every caller.
    private var deliversPartByPart: Bool {
        #if canImport(FoundationNetworking)
        guard let task else { return false }
        return Self.reportsToDelegate(task)
        #else
        return true
        #endif
    }

    #if canImport(FoundationNetworking)
    private static func reportsToDelegate(_ task: URLSessionTask) -> Bool {
        var session: Any?
        var mirror: Mirror? = Mirror(reflecting: task)
        while let current = mirror, session == nil {
            session = current.children.first(where: { $0.label == "session" })?.value
            mirror = current.superclassMirror
        }
        guard let optional = session, let unwrapped = Mirror(reflecting: optional).children.first?.value,
              let registry = Mirror(reflecting: unwrapped).children.first(where: { $0.label == "taskRegistry" })?.value,
              let behaviours = Mirror(reflecting: registry).children.first(where: { $0.label == "behaviours" })?.value as? [Int: Any],
              let behaviour = behaviours[task.taskIdentifier] else { return false }
        let name = String(describing: behaviour)
        // `callDelegate` (the session's delegate) or `taskDelegate(…)`; never `dataCompletionHandler…`.
        return name.hasSuffix(".callDelegate") || name == "callDelegate" || name.contains("taskDelegate(")
            && !name.contains("CompletionHandler")
    }
    #endif
}
