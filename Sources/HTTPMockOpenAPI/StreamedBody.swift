#if OpenAPI
import Foundation
import HTTPMock
import OpenAPIRuntime

/// The `HTTPBody` bytes of a streamed response: each part when it is due, pulled only when the consumer asks
/// for the next (nothing is buffered ahead of it). Iterated once.
///
/// The journal hears each part as it is handed over, and how the stream ended: finished, failed (the error is thrown
/// from the iterator), or the client went away (its task was cancelled, or it stopped iterating and let the body
/// go).
struct StreamedBody: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk

    let run: StreamRun

    func makeAsyncIterator() -> Iterator { Iterator(run: run) }

    struct Iterator: AsyncIteratorProtocol {
        let run: StreamRun

        mutating func next() async throws -> HTTPBody.ByteChunk? {
            try await run.next()
        }
    }
}

/// One response's stream: its playback and its journal entry. Ends the stream as the client going away if it is
/// freed before the end.
final class StreamRun: Sendable {
    private let playback: StreamPlayback
    private let mock: HTTPMock
    private let entry: Int
    private let ended = Locked(false)
    /// The iterator waiting for the next event, if it is.
    private let waiting = Locked<CheckedContinuation<StreamEvent, Never>?>(nil)

    init(playback: StreamPlayback, mock: HTTPMock, entry: Int) {
        self.playback = playback
        self.mock = mock
        self.entry = entry
    }

    deinit { end(.clientWentAway) }

    func next() async throws -> HTTPBody.ByteChunk? {
        if ended.withLock({ $0 }) { return nil }
        let event: StreamEvent = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<StreamEvent, Never>) in
                waiting.withLock { $0 = continuation }
                let now = playback.next(whenDue: { [weak self] event in self?.resume(with: event) })
                if let now { resume(with: now) }
            }
        } onCancel: {
            // Stops the playback, and wakes a wait for a part that will not come now.
            self.end(.clientWentAway)
            self.resume(with: .failure(CancellationError()))
        }
        if Task.isCancelled {
            end(.clientWentAway)
            throw CancellationError()
        }
        switch event {
        case .part(let data):
            mock.streamed(entry, parts: [data])
            playback.delivered()
            return ArraySlice(data)
        case .end:
            end(.finished)
            return nil
        case .failure(let error):
            end(.failed(error))
            throw error
        }
    }

    /// Hands `event` to the waiting iterator, once.
    private func resume(with event: StreamEvent) {
        waiting.withLock { waiting in
            defer { waiting = nil }
            return waiting
        }?.resume(returning: event)
    }

    /// Ends the stream once: the playback is freed and the journal completed.
    func end(_ ending: StreamRecord.Ending) {
        let first = ended.withLock { ended in
            defer { ended = true }
            return !ended
        }
        guard first else { return }
        playback.cancel()
        mock.endStream(entry, ending)
    }
}
#endif
