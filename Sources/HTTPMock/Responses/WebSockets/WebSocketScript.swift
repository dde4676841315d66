import Foundation

/// A scripted WebSocket conversation: what the mock sends when the client connects, how it replies to the client's
/// messages, what it sends later, and when it closes. Served by HTTPMockServer (see its article "WebSockets").
///
/// ```swift
/// let script = WebSocketScript()
///     .send(.text("{\"type\":\"welcome\"}"))
///     .reply(to: .text("ping"), with: .text("pong"))
///     .reply(to: .json(["type": "subscribe"]), with: .text("{\"type\":\"subscribed\"}"))
///     .send(.text("{\"type\":\"tick\"}"), after: 0.1)
/// mock.addResponses(forPath: "/socket") { MockResponse.webSocket(script) }
/// ```
public struct WebSocketScript: Sendable {
    /// A message sent on its own, `after` seconds after the connection opened.
    public struct Timed: Sendable {
        public var after: TimeInterval
        public var message: WebSocketMessage
    }

    /// A reply: the first rule whose pattern matches a client message sends its messages.
    public struct Reply: Sendable {
        public var pattern: WebSocketMessagePattern
        public var messages: [WebSocketMessage]
        /// Close the connection after replying, with this code.
        public var closeCode: Int?
    }

    /// Messages sent when the connection opens, in order.
    public private(set) var onConnect: [WebSocketMessage] = []
    /// Messages sent on their own timing.
    public private(set) var timed: [Timed] = []
    /// Replies to the client's messages, tried in order.
    public private(set) var replies: [Reply] = []
    /// When and how the mock closes the connection by itself: seconds after it opened, code, reason.
    public private(set) var closing: (after: TimeInterval, code: Int, reason: String)?

    /// An empty conversation: the connection opens and stays open until the client closes it.
    public init() {}

    /// Sends `message` when the connection opens, or `after` seconds after it opened.
    public func send(_ message: WebSocketMessage, after: TimeInterval = 0) -> WebSocketScript {
        var copy = self
        if after != 0 { copy.timed.append(Timed(after: after, message: message)) } else { copy.onConnect.append(message) }
        return copy
    }

    /// Answers each client message that `pattern` matches with `messages` (and closes after them with
    /// `closeCode`, if given).
    public func reply(to pattern: WebSocketMessagePattern, with messages: WebSocketMessage..., closeCode: Int? = nil) -> WebSocketScript {
        var copy = self
        copy.replies.append(Reply(pattern: pattern, messages: messages, closeCode: closeCode))
        return copy
    }

    /// Closes the connection `after` seconds after it opened, with `code` (1000: normal) and `reason`.
    public func close(code: Int = 1000, reason: String = "", after: TimeInterval = 0) -> WebSocketScript {
        var copy = self
        copy.closing = (after, code, reason)
        return copy
    }

    /// A problem with the values, said when the response is registered.
    var problem: String? {
        var problems: [String] = []
        for item in timed where !(item.after.isFinite && item.after >= 0) {
            problems.append("a message is sent after \(item.after) s; use a finite number of seconds, 0 or more")
        }
        if let closing, !(closing.after.isFinite && closing.after >= 0) {
            problems.append("the close comes after \(closing.after) s; use a finite number of seconds, 0 or more")
        }
        let codes = replies.compactMap(\.closeCode) + (closing.map { [$0.code] } ?? [])
        for code in codes where !Self.isSendable(code) {
            problems.append("close code \(code) cannot be sent; use 1000-1003, 1007-1014, or 3000-4999")
        }
        if let closing, closing.reason.utf8.count > 123 {
            problems.append("a close reason is at most 123 bytes; this one is \(closing.reason.utf8.count)")
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    /// Close codes an endpoint may send (RFC 6455 §7.4).
    static func isSendable(_ code: Int) -> Bool {
        (1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code)
    }
}
