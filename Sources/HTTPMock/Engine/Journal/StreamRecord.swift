import Foundation

/// What a streamed response delivered: its parts, when each reached the client, and how the stream ended.
///
/// ```swift
/// let entry = try #require(mock.journal.last)
/// #expect(entry.stream?.partCount == 5)
/// #expect(entry.stream?.events.map(\.data) == ["The", " answer", " is", " 42", "[DONE]"])
/// #expect(entry.stream?.clientWentAway == false)
/// ```
///
/// The journal keeps the bytes of the first parts, up to ``keptBytes`` a stream (1 MiB); after that it only counts
/// them, so a long stream does not grow the journal. A real server's stream relayed by a passthrough or a proxy is
/// kept up to ``keptRelayedBytes``, so that a recording holds all of it.
public struct StreamRecord: Sendable {
    /// One part as it reached the client.
    public struct Part: Sendable, Hashable {
        /// The part's bytes.
        public let data: Data
        /// Seconds after the headers went out.
        public let offset: TimeInterval
    }

    /// How a stream ended.
    public enum Ending: Sendable, CustomStringConvertible {
        /// Every part went out, then the end of the body.
        case finished
        /// The stream failed part of the way through (a ``StreamFault``, a live stream's failure, a producer's
        /// error): the client got this error.
        case failed(any Error & Sendable)
        /// The client went away before the end (it cancelled, its connection closed).
        case clientWentAway

        public var description: String {
            switch self {
            case .finished: "finished"
            case .failed(let error): "failed: \(error)"
            case .clientWentAway: "the client went away"
            }
        }
    }

    /// The most bytes of parts kept for one stream.
    public static let keptBytes = 1 << 20
    /// The most bytes of parts kept for a real server's stream that was relayed (and may be recorded).
    public static let keptRelayedBytes = 64 << 20

    /// The status and headers that went out before the parts.
    public let status: Int
    public let headers: [String: String]
    /// The parts kept, in the order they reached the client (the first ones, up to ``keptBytes``).
    public internal(set) var parts: [Part] = []
    /// How many parts reached the client, kept or not.
    public internal(set) var partCount = 0
    /// How many bytes reached the client.
    public internal(set) var byteCount = 0
    /// How the stream ended; `nil` while it is open.
    public internal(set) var ending: Ending?
    /// When the headers went out.
    public let startedAt: Date

    /// The bytes this record keeps: ``keptBytes``, or ``keptRelayedBytes`` for a relayed stream.
    let keptLimit: Int

    init(status: Int, headers: [String: String], startedAt: Date = Date(), relayed: Bool = false) {
        self.status = status
        self.headers = headers
        self.startedAt = startedAt
        keptLimit = relayed ? Self.keptRelayedBytes : Self.keptBytes
    }

    /// Whether the stream is still open.
    public var isOpen: Bool { ending == nil }

    /// Whether the client went away before the end.
    public var clientWentAway: Bool {
        if case .clientWentAway = ending { return true }
        return false
    }

    /// Whether every part kept reached the journal (``partCount`` parts, none past ``keptBytes``, or
    /// ``keptRelayedBytes`` for a relayed stream).
    public var isWhole: Bool { parts.count == partCount }

    /// The kept parts' bytes, joined.
    public var body: Data {
        var body = Data()
        for part in parts { body.append(part.data) }
        return body
    }

    /// The server-sent events in the kept parts (see ``ServerSentEvent/events(in:)``).
    public var events: [ServerSentEvent] { ServerSentEvent.events(in: body) }

    /// Bytes of the parts kept.
    private var keptByteCount = 0

    mutating func append(_ data: Data, at date: Date) {
        partCount += 1
        byteCount += data.count
        if keptByteCount + data.count <= keptLimit {
            keptByteCount += data.count
            parts.append(Part(data: data, offset: date.timeIntervalSince(startedAt)))
        }
    }
}
