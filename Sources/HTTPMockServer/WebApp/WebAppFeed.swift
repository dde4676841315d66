#if Server
import Foundation
import HTTPMock

/// The events of one open traffic page (`GET /__admin/webapp/events`): the journal's changes as server-sent
/// events, sent through the server's own streaming (a ``MockStream`` played like any streamed body, so only what
/// the connection can take is written).
///
/// Bounded whatever the page does: the journal's observer puts each event in ``BoundedEvents`` and never waits; a
/// task moves them into the stream, which holds at most ``streamBytes`` for the connection. A page that reads
/// slower than requests arrive loses events, and is told how many by a `dropped` event, so a page left open on a
/// busy server never grows the server's memory.
final class WebAppFeed: Sendable {
    /// Bytes the stream holds for a connection that does not take them (the queue's events wait behind).
    static let streamBytes = 64 * 1024

    private struct State {
        var events: BoundedEvents
        /// The task waiting for the next event.
        var waiting: CheckedContinuation<Data?, Never>?
        var closed = false
    }

    private let state: Locked<State>

    init(limits: BoundedEvents.Limits) {
        state = Locked(State(events: BoundedEvents(limits)))
    }

    /// A stream of `mock`'s journal events for one page, as a response for the connection to send; it ends when
    /// the client goes away (the connection closes) or the server stops (`lifecycle`), and then stops observing
    /// the journal.
    static func response(for mock: HTTPMock, lifecycle: ServerLifecycle, limits: BoundedEvents.Limits, url: URL) -> WireResponse {
        let feed = WebAppFeed(limits: limits)
        let stream = MockStream(bufferLimit: streamBytes)
        let observation = mock.observeJournal { event, entry in
            guard event == .appended || event == .completed else { return }
            feed.offer(WebAppEvent.request(entry, event))
        }
        // Said once the journal is observed: a request made after the page read it is in the stream.
        feed.offer(WebAppEvent.ready(nextJournalID: mock.nextJournalID))
        Task {
            while let event = await feed.next() {
                await stream.send(event)
            }
        }
        // A graceful stop ends the stream, which would otherwise hold the stop for its whole grace period.
        let stopping = lifecycle.whenStopping {
            feed.close()
            stream.finish()
        }
        Task {
            await stream.waitUntilClosed()
            observation.remove()
            feed.close()
            if let stopping { lifecycle.forget(stopping) }
        }
        // A stream the server plays as it relays a proxied one: sent as it comes, never journaled.
        return .relayed(status: 200, headers: [
            "Content-Type": "text/event-stream; charset=utf-8",
            "Cache-Control": "no-store",
            "X-Content-Type-Options": "nosniff",
        ], parts: stream, url: url)
    }

    /// Queues `event`, or counts it as dropped when the queue is full; never waits.
    func offer(_ event: Data) {
        let handOver: (CheckedContinuation<Data?, Never>, Data)? = state.withLock { state in
            guard !state.closed else { return nil }
            state.events.offer(event)
            guard let waiting = state.waiting, let next = state.events.take() else { return nil }
            state.waiting = nil
            return (waiting, next)
        }
        if let (waiting, next) = handOver { waiting.resume(returning: next) }
    }

    /// The next event, once there is one; `nil` once the feed is closed.
    func next() async -> Data? {
        await withCheckedContinuation { continuation in
            let now: Data?? = state.withLock { state in
                if state.closed { return .some(nil) }
                if let event = state.events.take() { return .some(event) }
                state.waiting = continuation
                return .none
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Drops what is queued and ends ``next()``.
    func close() {
        let waiting = state.withLock { state in
            state.closed = true
            state.events = BoundedEvents(state.events.limits)
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume(returning: nil)
    }
}

/// A queue of events that holds at most so many events and so many bytes: what does not fit is dropped and
/// counted, and the count goes out as a `dropped` event in the place of what was lost, before the next event
/// that fits (or once the queue has emptied).
struct BoundedEvents {
    struct Limits: Sendable {
        /// The most events queued.
        var events: Int
        /// The most bytes queued.
        var bytes: Int

        /// What a page gets: 512 events or 1 MiB, whichever comes first.
        static let standard = Limits(events: 512, bytes: 1 << 20)
    }

    let limits: Limits
    private var queued: [Data] = []
    private var head = 0
    private(set) var bytes = 0
    /// Events dropped since the last `dropped` event was queued.
    private(set) var dropped = 0

    init(_ limits: Limits) {
        self.limits = Limits(events: max(1, limits.events), bytes: max(1, limits.bytes))
    }

    /// How many events wait.
    var count: Int { queued.count - head }

    /// Queues `event`, after a `dropped` event if some were dropped before it; drops it if it does not fit.
    mutating func offer(_ event: Data) {
        let notice = dropped > 0 ? WebAppEvent.dropped(dropped) : nil
        let needed = event.count + (notice?.count ?? 0)
        guard count + (notice == nil ? 1 : 2) <= limits.events, bytes + needed <= limits.bytes else {
            dropped += 1
            return
        }
        if let notice {
            append(notice)
            dropped = 0
        }
        append(event)
    }

    /// The next event; a `dropped` event when the queue has emptied after drops.
    mutating func take() -> Data? {
        guard head < queued.count else {
            guard dropped > 0 else { return nil }
            defer { dropped = 0 }
            return WebAppEvent.dropped(dropped)
        }
        let event = queued[head]
        head += 1
        bytes -= event.count
        if head == queued.count {
            queued.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= queued.count {
            queued.removeFirst(head)
            head = 0
        }
        return event
    }

    private mutating func append(_ event: Data) {
        queued.append(event)
        bytes += event.count
    }
}

/// The server-sent events the page reads, framed (`event:`, one `data:` line of JSON, a blank line).
enum WebAppEvent {
    /// `ready`: the stream observes the journal; the next request journaled gets `nextJournalID`.
    static func ready(nextJournalID: Int) -> Data {
        var json = JSONBytes(capacity: 64)
        json.object { json in json.member("nextJournalID", nextJournalID) }
        return frame("ready", json, retry: 2_000)
    }

    /// `dropped`: so many events did not fit while the page read slower than they came.
    static func dropped(_ count: Int) -> Data {
        var json = JSONBytes(capacity: 32)
        json.object { json in json.member("dropped", count) }
        return frame("dropped", json)
    }

    /// `request`: a request journaled (`appended`) or answered (`completed`), as a short serve event: the fields
    /// of `GET /__admin/requests` a list shows (the page reads the rest with `GET /__admin/requests/{id}`).
    static func request(_ entry: JournalEntry, _ event: JournalEvent) -> Data {
        var json = JSONBytes(capacity: 512)
        json.object { json in
            json.member("event", event == .completed ? "completed" : "appended")
            json.key("httpmock")
            json.object { json in
                if let report = entry.report {
                    json.key("closest")
                    ServeEventJSON.writeClosest(report, into: &json)
                }
                json.member("journalID", entry.id)
                json.member("resolution", entry.resolution.description)
                if case .stub(_, let summary) = entry.resolution { json.member("stubSummary", summary) }
            }
            json.member("id", ServeEventJSON.id(of: entry))
            json.key("request")
            json.object { json in
                json.member("loggedDate", Int((entry.receivedAt.timeIntervalSince1970 * 1000).rounded()))
                json.member("loggedDateString", entry.receivedAt.iso8601)
                json.member("method", entry.request.method)
                json.member("url", ServeEventJSON.target(of: entry.request))
            }
            if let status = entry.statusCode {
                json.key("response")
                json.object { json in json.member("status", status) }
            }
            if let completedAt = entry.completedAt {
                json.key("timing")
                ServeEventJSON.writeTiming(from: entry.receivedAt, to: completedAt, into: &json)
            }
            json.member("wasMatched", entry.resolution.isMatched)
        }
        return frame("request", json)
    }

    private static func frame(_ name: String, _ json: JSONBytes, retry: Int? = nil) -> Data {
        var bytes = Data()
        if let retry { bytes.append(contentsOf: Array("retry: \(retry)\n".utf8)) }
        bytes.append(contentsOf: Array("event: \(name)\ndata: ".utf8))
        // JSON escapes every line break inside its strings: the data is one line.
        bytes.append(json.data)
        bytes.append(contentsOf: Array("\n\n".utf8))
        return bytes
    }
}

extension ServeEventJSON {
    /// The closest stubs of an unmatched request, as HTTPMock's report lists them:
    /// `[{"stub", "summary", "differences": ["field: expected …, got …"]}]`.
    static func writeClosest(_ report: UnmatchedReport, into json: inout JSONBytes) {
        json.array { json in
            for miss in report.closest {
                json.object { json in
                    json.key("differences")
                    json.array { json in for difference in miss.differences { json.string(difference.description) } }
                    json.member("stub", "\(miss.stub)")
                    json.member("summary", miss.summary)
                }
            }
        }
    }

    /// WireMock's `timing` of a serve event, in milliseconds: `totalTime` from the request's arrival to its answer's
    /// delivery, of which `addedDelay` was the mapping's fixed delay and `serveTime` the rest; HTTPMock does not time
    /// the sending apart, so `processTime` is all of `serveTime` and `responseSendTime` 0.
    static func writeTiming(from received: Date, to completed: Date, addedDelay: Int = 0, into json: inout JSONBytes) {
        let total = Int((max(0, completed.timeIntervalSince(received)) * 1000).rounded())
        let delay = min(max(0, addedDelay), total)
        json.object { json in
            json.member("addedDelay", delay)
            json.member("processTime", total - delay)
            json.member("responseSendTime", 0)
            json.member("serveTime", total - delay)
            json.member("totalTime", total)
        }
    }

    /// A request's path and query as sent (`/users?page=2`), as a logged request's `url` gives it.
    static func target(of request: CapturedRequest) -> String {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: true)
        var url = components?.percentEncodedPath ?? "/"
        if url.isEmpty { url = "/" }
        if let query = components?.percentEncodedQuery { url += "?" + query }
        return url
    }
}
#endif
