import Foundation
import _HTTPMockJSON

/// A streamed answer in a WireMock mapping, as recordings write it and HTTPMock serves it.
///
/// WireMock has no streamed parts, and refuses a key it does not know in `response`. So the mapping stays WireMock's
/// own: `response.body` (or `base64Body`, `bodyFileName`) holds every byte, and `response.chunkedDribbleDelay` sends
/// them in as many chunks over the stream's time, which WireMock honours. The parts themselves go where WireMock
/// keeps what is not its own, the mapping's `metadata`:
///
/// ```json
/// "metadata": { "httpmock": { "stream": { "parts": [
///     { "bytes": 15, "afterMilliseconds": 0 },
///     { "bytes": 17, "afterMilliseconds": 200.4 }
/// ] } } }
/// ```
///
/// Each part is the next `bytes` of the body, sent `afterMilliseconds` after the part before (the first: after the
/// headers). HTTPMock serves those parts with those delays; the sizes must add up to the body's.
struct WireMockStreamParts {
    /// The key of HTTPMock's own members in a mapping's `metadata`.
    static let metadataKey = "httpmock"

    struct Part {
        let bytes: Int
        /// Milliseconds after the part before.
        let after: Double
    }

    let parts: [Part]

    /// The parts of a recorded stream: each part's offset from the headers (seconds) and size.
    init(recorded: [(offset: TimeInterval, size: Int)]) {
        var previous = 0.0
        parts = recorded.map { part in
            defer { previous = max(previous, part.offset) }
            // Microseconds are enough, and keep the file free of float noise.
            let after = max(0, ((part.offset - previous) * 1_000_000).rounded() / 1_000)
            return Part(bytes: part.size, after: after)
        }
    }

    /// `metadata.httpmock.stream`, as written.
    var json: JSONValue {
        .object(["parts": .array(parts.map { .object(["bytes": .int($0.bytes), "afterMilliseconds": .double($0.after)]) })])
    }

    /// `chunkedDribbleDelay` for WireMock: the body in as many chunks, over the parts' time (`nil` when it took no
    /// whole millisecond).
    var dribble: JSONValue? {
        let total = Int(parts.reduce(0) { $0 + $1.after }.rounded())
        guard total > 0 else { return nil }
        return .object(["numberOfChunks": .int(parts.count), "totalDuration": .int(total)])
    }

    /// Reads `metadata.httpmock.stream` of a mapping, if it has one; other metadata is the user's, and left alone.
    init?(metadata: WireMockNode) throws(HTTPMockError) {
        guard case .object(let members) = metadata.value, let own = metadata.child(Self.metadataKey, of: members) else {
            return nil
        }
        let ownFields = try own.object(known: ["stream", "eventChannel"])
        guard let stream = own.child("stream", of: ownFields) else { return nil }
        let fields = try stream.object(known: ["parts"])
        guard let list = stream.child("parts", of: fields) else { throw stream.error("the required key \"parts\" is missing; add it") }
        var parts: [Part] = []
        for element in try list.elements() {
            let part = try element.object(known: ["bytes", "afterMilliseconds"])
            guard let bytes = element.child("bytes", of: part) else { throw element.error("the required key \"bytes\" is missing; add it") }
            let after = try element.child("afterMilliseconds", of: part).map { (node) throws(HTTPMockError) in try node.milliseconds() } ?? 0
            parts.append(Part(bytes: try bytes.integer(in: 0...Int(Int32.max)), after: after))
        }
        guard !parts.isEmpty else { throw list.error("a stream needs at least one part") }
        self.parts = parts
    }

    /// Whether a mapping's `metadata.httpmock.eventChannel` is `true`: its response is an event stream that stays
    /// open as a message channel of type `sse` (its body, if any, goes out first), which `/__admin/channels/send`
    /// and message stubs push events to.
    static func isEventChannel(_ metadata: WireMockNode) throws(HTTPMockError) -> Bool {
        guard case .object(let members) = metadata.value, let own = metadata.child(Self.metadataKey, of: members),
              case .object(let ownFields) = own.value, let flag = own.child("eventChannel", of: ownFields) else { return false }
        return try flag.bool()
    }

    /// `body` cut into the parts, each with its delay; an error naming `node` when the sizes do not add up.
    func stream(of body: Data, at node: WireMockNode) throws(HTTPMockError) -> [StreamPart] {
        let total = parts.reduce(0) { $0 + $1.bytes }
        guard total == body.count else {
            throw node.error("the stream's parts hold \(total) bytes, but the body has \(body.count); make the parts' \"bytes\" add up to the body's size")
        }
        var start = body.startIndex
        return parts.map { part in
            defer { start += part.bytes }
            return StreamPart(body[start..<(start + part.bytes)], after: part.after / 1_000)
        }
    }
}
