import Foundation

/// What a streamed body gives its face next. Visible to the package's modules only.
package enum StreamEvent: Sendable {
    /// A part, to deliver now.
    case part(Data)
    /// The body is complete.
    case end
    /// The stream fails: a ``StreamFault``, a live stream's failure, a producer's error.
    case failure(any Error & Sendable)
}

/// Where a streamed response's parts come from: a script, a stream the test drives, or a producer that runs for
/// each request.
package final class StreamSource: Sendable {
    enum Kind: Sendable {
        case script([StreamPart], fault: StreamFault?)
        case live(MockStream)
        case producer(@Sendable (MockStream) async throws -> Void)
        /// These parts, then the stream stays open as a message channel: each message pushed to it is a part.
        case channel([Data])
    }

    let kind: Kind

    init(_ kind: Kind) { self.kind = kind }
}

/// One request's run through a streamed body: each part when it is due, then its end or its fault. Visible to
/// the package's modules only.
///
/// A face asks for events one at a time with ``next(whenDue:)``: an event due now is returned at once (so parts
/// without a delay go out in one pass, without a hop per part); otherwise the handler gets it when it is due, on
/// any thread. While an event is pending (its handler not yet called), asking again returns `nil` and moves
/// nothing on: a face that asks twice (its channel became writable while a part waited for its time) still gets
/// each part once, in order. ``cancel()`` stops everything: the pending timer, the producer's task, the handler.
package final class StreamPlayback: Sendable {
    private enum Runner: Sendable {
        case script([StreamPart], fault: StreamFault?)
        case live(MockStream, producer: Task<Void, Never>?)
        /// A live stream served before: the request fails.
        case spent
    }

    private let runner: Runner
    private let state = Locked(State())
    /// For an event channel: the stream that messages pushed to the channel go into (the face opens the channel).
    package let channelStream: MockStream?

    private struct State {
        var index = 0
        var timer: DispatchWorkItem?
        var finished = false
        /// An event was promised to a handler and has not reached it yet.
        var pending = false
    }

    init(_ source: StreamSource) {
        switch source.kind {
        case .channel(let parts):
            let stream = MockStream()
            _ = stream.attach()
            for part in parts { stream.enqueue(.part(part)) }
            runner = .live(stream, producer: nil)
            channelStream = stream
        case .script(let parts, let fault):
            runner = .script(parts, fault: fault)
            channelStream = nil
        case .live(let stream):
            runner = stream.attach() ? .live(stream, producer: nil) : .spent
            channelStream = nil
        case .producer(let produce):
            let stream = MockStream()
            _ = stream.attach()
            let task = Task {
                do {
                    try await produce(stream)
                    stream.finish()
                } catch is CancellationError {
                    // The client went away: nothing to deliver.
                } catch {
                    stream.fail(error as? URLError ?? ProducerError(error))
                }
            }
            runner = .live(stream, producer: task)
            channelStream = nil
        }
    }

    /// The next event if it is due now; otherwise `nil`, and `handler` gets it when it is due (never both).
    package func next(whenDue handler: @escaping @Sendable (StreamEvent) -> Void) -> StreamEvent? {
        switch runner {
        case .spent:
            return finish(.failure(URLError(.resourceUnavailable, userInfo: [
                NSLocalizedDescriptionKey: "HTTPMock: this MockStream already served a request; a MockStream answers one request (make one per request, or use MockResponse.stream(producer:))",
            ])))
        case .live(let stream, _):
            guard state.withLock({ state in
                if state.pending || state.finished { return false }
                state.pending = true
                return true
            }) else { return nil }
            let event = stream.next { [weak self] event in
                guard let self, let event = self.finish(event) else { return }
                handler(event)
            }
            guard let event else { return nil }  // pending: the handler gets it
            state.withLock { $0.pending = false }
            return finish(event)
        case .script(let parts, let fault):
            let step: (event: StreamEvent?, delay: TimeInterval, part: Int) = state.withLock { state in
                if state.finished || state.pending { return (nil, 0, 0) }
                if let fault, state.index == fault.afterParts {
                    switch fault {
                    case .drop: return (.failure(URLError(.networkConnectionLost)), 0, 0)
                    case .fail(let error, _): return (.failure(error), 0, 0)
                    case .stall: return (nil, .infinity, 0)
                    }
                }
                guard state.index < parts.count else { return (.end, 0, 0) }
                let index = state.index
                state.index += 1
                return (.part(parts[index].data), max(0, parts[index].delay), index)
            }
            guard let event = step.event else { return nil }  // finished, or stalled until cancelled
            if step.delay <= 0 {
                // Due now: a part needs no second look at the state; an end or a failure finishes the playback.
                if case .part = event { return event }
                return finish(event)
            }
            let timer = DispatchWorkItem { [weak self] in
                guard let self, let event = self.finish(event) else { return }
                handler(event)
            }
            let scheduled = state.withLock { state -> Bool in
                guard !state.finished else { return false }
                state.timer = timer
                state.pending = true
                return true
            }
            if scheduled { DispatchQueue.global().asyncAfter(deadline: .now() + step.delay, execute: timer) }
            return nil
        }
    }

    /// When a relayed stream's head came from the real server (`nil` when the stream is not relayed): the journal
    /// dates the stream from then.
    package var relayedAt: Date? {
        if case .live(let stream, _) = runner { return stream.relayedAt }
        return nil
    }

    /// When the next `count` parts of a relayed stream came from the real server; `nil` when not relayed.
    package func arrivals(_ count: Int) -> [Date]? {
        if case .live(let stream, _) = runner { return stream.takeArrivals(count) }
        return nil
    }

    /// Parts reached the client (default one): a live stream's test can see it.
    package func delivered(_ count: Int = 1) {
        if case .live(let stream, _) = runner { stream.delivered(count) }
    }

    /// The client went away or the face is done: the timer, the producer and the handler are dropped.
    package func cancel() {
        let (timer, wasLive): (DispatchWorkItem?, Bool) = state.withLock { state in
            defer {
                state.finished = true
                state.timer = nil
            }
            return (state.timer, !state.finished)
        }
        timer?.cancel()
        if wasLive, case .live(let stream, let producer) = runner {
            producer?.cancel()
            stream.close(early: true)
        }
    }

    /// Passes `event` on unless the playback was cancelled; a final event ends the playback.
    private func finish(_ event: StreamEvent) -> StreamEvent? {
        let live = state.withLock { state -> Bool in
            guard !state.finished else { return false }
            state.timer = nil
            state.pending = false
            if case .part = event {} else { state.finished = true }
            return true
        }
        guard live else { return nil }
        if case .live(let stream, _) = runner, !(event.isPart) { stream.close(early: false) }
        return event
    }
}

extension StreamEvent {
    var isPart: Bool {
        if case .part = self { return true }
        return false
    }
}

/// An error a stream's producer threw, carried to the client as it is.
struct ProducerError: Error, CustomStringConvertible, @unchecked Sendable {  // reason: the error is only handed on, never mutated; a producer may throw any error
    let error: any Error
    init(_ error: any Error) { self.error = error }
    var description: String { String(describing: error) }
}
