import Foundation

/// One part of a streamed body, and when it is due: `delay` seconds after the part before it was delivered (the
/// first part: after the headers).
///
/// Each part reaches the client as one piece, as one chunk of a chunked response would, when it is due.
///
/// ```swift
/// MockResponse.chunks([
///     .chunk("{\"progress\":10}\n"),
///     .chunk("{\"progress\":60}\n", after: 0.5),
///     .event(ServerSentEvent("done"), after: 0.5),
/// ])
/// ```
public struct StreamPart: Sendable, Hashable {
    /// The bytes of the part.
    public var data: Data
    /// Seconds after the part before it (the first part: after the headers). 0: at once.
    public var delay: TimeInterval

    /// A part of `data`, due `delay` seconds after the part before it.
    public init(_ data: Data, after delay: TimeInterval = 0) {
        self.data = data
        self.delay = delay
    }

    /// Raw bytes, due `delay` seconds after the part before.
    public static func chunk(_ data: Data, after delay: TimeInterval = 0) -> StreamPart {
        StreamPart(data, after: delay)
    }

    /// UTF-8 text, due `delay` seconds after the part before.
    public static func chunk(_ text: String, after delay: TimeInterval = 0) -> StreamPart {
        StreamPart(Data(text.utf8), after: delay)
    }

    /// A server-sent event, framed (see ``ServerSentEvent``), due `delay` seconds after the part before.
    public static func event(_ event: ServerSentEvent, after delay: TimeInterval = 0) -> StreamPart {
        StreamPart(event.encoded, after: delay)
    }
}

/// What goes wrong inside a streamed body, after some of its parts were delivered.
///
/// ```swift
/// MockResponse.events(tokens, every: 0.05, fault: .drop(afterParts: 3))   // three events, then the connection drops
/// ```
public enum StreamFault: Sendable {
    /// The connection drops after this many parts: the client gets `URLError(.networkConnectionLost)` (over
    /// the socket, the connection closes without the chunked body's end).
    case drop(afterParts: Int)
    /// The request fails with `error` after this many parts (over the socket, as ``drop(afterParts:)``: a
    /// server cannot send an error inside a body).
    case fail(any Error & Sendable, afterParts: Int)
    /// No part comes after this many, and the stream never ends: the client waits until its timeout, or until it
    /// cancels.
    case stall(afterParts: Int)

    /// The number of parts delivered before the fault.
    public var afterParts: Int {
        switch self {
        case .drop(let count), .fail(_, let count), .stall(let count): count
        }
    }
}
