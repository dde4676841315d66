import Foundation

/// One server-sent event, framed as the WHATWG HTML standard defines the `text/event-stream` format.
///
/// ```swift
/// ServerSentEvent("Hello")                                   // data: Hello
/// ServerSentEvent("{\"token\":\"Hi\"}", event: "delta", id: "1")
/// ServerSentEvent.comment("keep-alive")                      // : keep-alive
/// ```
///
/// A `data` value of several lines goes out as one `data:` line each, which a client joins back with line feeds.
/// `event`, `id` and `retry` are written before the data; `comment` as a line starting with a colon, which
/// clients ignore. The event ends with a blank line, so a client dispatches it as soon as it arrives.
public struct ServerSentEvent: Sendable, Hashable, CustomStringConvertible {
    /// The event's data; `nil` for an event without any `data:` line (a comment, a `retry:` alone).
    public var data: String?
    /// The event type (`event:`); `nil`: the client's default, `message`.
    public var event: String?
    /// The last event ID (`id:`), which a client sends back as `Last-Event-ID` when it reconnects.
    public var id: String?
    /// The reconnection time in milliseconds (`retry:`).
    public var retry: Int?
    /// A comment line (`: text`), which clients ignore: servers send them to keep a connection alive.
    public var comment: String?

    /// An event with `data`, and optionally a type, an ID and a reconnection time.
    public init(_ data: String?, event: String? = nil, id: String? = nil, retry: Int? = nil, comment: String? = nil) {
        self.data = data
        self.event = event
        self.id = id
        self.retry = retry
        self.comment = comment
    }

    /// A comment alone (`: text`), which clients ignore.
    public static func comment(_ text: String) -> ServerSentEvent {
        ServerSentEvent(nil, comment: text)
    }

    /// The event as it goes out on the wire, ending with the blank line that dispatches it.
    public var encoded: Data { Data(text.utf8) }

    /// The event's text on the wire.
    public var description: String { text }

    private var text: String {
        // The common event, one line of data alone.
        if comment == nil, event == nil, id == nil, retry == nil, let data,
           !data.utf8.contains(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) {
            return "data: " + data + "\n\n"
        }
        var text = ""
        if let comment {
            for line in Self.lines(of: comment) { text += ": \(line)\n" }
        }
        if let event { text += "event: \(Self.oneLine(event))\n" }
        if let id { text += "id: \(Self.oneLine(id))\n" }
        if let retry { text += "retry: \(retry)\n" }
        if let data {
            for line in Self.lines(of: data) { text += "data: \(line)\n" }
        }
        return text + "\n"
    }

    /// A field's value cannot hold a line break: one would end the field.
    private static func oneLine(_ value: String) -> String {
        String(value.unicodeScalars.filter { $0 != "\n" && $0 != "\r" }.map(Character.init))
    }

    /// The lines of a multi-line value, split at CRLF, LF or CR as a client splits them.
    private static func lines(of value: String) -> [String] {
        var lines: [String] = []
        var current = ""
        var afterCR = false
        for scalar in value.unicodeScalars {
            if afterCR, scalar == "\n" {
                afterCR = false
                continue
            }
            afterCR = false
            if scalar == "\r" || scalar == "\n" {
                lines.append(current)
                current = ""
                afterCR = scalar == "\r"
            } else {
                current.unicodeScalars.append(scalar)
            }
        }
        lines.append(current)
        return lines
    }
}
