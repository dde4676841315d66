import Foundation

extension ServerSentEvent {
    /// The events a `text/event-stream` body holds, read as the WHATWG HTML standard tells a client to read them:
    /// lines end at CRLF, LF or CR; a blank line dispatches the event; `data:` lines are joined with line feeds;
    /// one space after the colon is dropped; lines starting with a colon are comments; unknown fields and a
    /// `retry:` that is not all digits are ignored; an event still open when the body ends is not dispatched.
    ///
    /// Unlike a browser, an event without data is kept (with `data` `nil`) when it has a type, an ID, a retry or a
    /// comment, so a test can see every frame that was sent.
    ///
    /// ```swift
    /// let events = ServerSentEvent.events(in: entry.responseBody ?? Data())
    /// #expect(events.map(\.data) == ["Hello", "world"])
    /// ```
    public static func events(in body: Data) -> [ServerSentEvent] {
        var reader = ServerSentEventReader()
        return reader.read(body) 
    }
}

/// Reads server-sent events from a body that arrives in pieces: each piece may end mid-line.
public struct ServerSentEventReader: Sendable {
    private var line: [UInt8] = []
    private var afterCR = false
    private var pending = Pending()
    /// The longest line kept: a longer one is cut, so a stream without line breaks cannot grow the reader.
    public static let maximumLineLength = 1 << 20

    private struct Pending {
        var data: [String] = []
        var event: String?
        var id: String?
        var retry: Int?
        var comments: [String] = []
        var isEmpty: Bool { data.isEmpty && event == nil && id == nil && retry == nil && comments.isEmpty }
    }

    /// A reader at the start of a stream.
    public init() {}

    /// The events that `piece` completes.
    public mutating func read(_ piece: Data) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in piece {
            if afterCR {
                afterCR = false
                if byte == UInt8(ascii: "\n") { continue }
            }
            if byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") {
                afterCR = byte == UInt8(ascii: "\r")
                if let event = endLine() { events.append(event) }
            } else if line.count < Self.maximumLineLength {
                line.append(byte)
            }
        }
        return events
    }

    private mutating func endLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else {
            guard !pending.isEmpty else { return nil }
            let done = pending
            pending = Pending()
            return ServerSentEvent(done.data.isEmpty ? nil : done.data.joined(separator: "\n"), event: done.event,
                                   id: done.id, retry: done.retry,
                                   comment: done.comments.isEmpty ? nil : done.comments.joined(separator: "\n"))
        }
        let text = String(decoding: line, as: UTF8.self)
        let name: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            name = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
        } else {
            name = Substring(text)
            value = ""
        }
        switch name {
        case "": pending.comments.append(String(value))
        case "data": pending.data.append(String(value))
        case "event": pending.event = String(value)
        case "id" where !value.contains("\0"): pending.id = String(value)
        case "retry" where !value.isEmpty && value.allSatisfy({ $0.isASCII && $0.isNumber }): pending.retry = Int(value)
        default: break
        }
        return nil
    }
}
