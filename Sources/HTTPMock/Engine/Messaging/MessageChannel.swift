import Foundation

/// A connection that stays open for messages both ways or one way: a WebSocket conversation, or a server-sent-event
/// stream that a stub keeps open for pushed events (``MockResponse/eventChannel(_:status:lifetime:headers:)``).
///
/// Channels are what WireMock calls "request-initiated": each is found again by the request that opened it, so a
/// message sent to "every channel whose request matches" reaches the right clients.
public struct MessageChannel: Sendable, Identifiable, Hashable {
    /// What kind of connection a channel is.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A WebSocket conversation: messages both ways.
        case webSocket = "websocket"
        /// A server-sent-event stream kept open: each message sent to it goes out as one event (`data:` lines).
        case serverSentEvents = "sse"
    }

    /// The channel's identifier, as the admin API and the message journal give it.
    public let id: UUID
    public let kind: Kind
    /// The request that opened the channel (the WebSocket upgrade, the event stream's `GET`).
    public let request: CapturedRequest
    /// When it opened.
    public let openedAt: Date
    /// Whether it is open now (a listing's snapshot).
    public internal(set) var isOpen: Bool

    init(id: UUID = UUID.random(), kind: Kind, request: CapturedRequest, openedAt: Date = Date(), isOpen: Bool = true) {
        self.id = id
        self.kind = kind
        self.request = request
        self.openedAt = openedAt
        self.isOpen = isOpen
    }
}

/// One message in the message journal: what a client sent on a channel (``Direction/received``), or what the mock
/// sent it (``Direction/sent``), with the channel, the message stub that matched or sent it, and when.
///
/// ```swift
/// let received = mock.messageEvents.filter { $0.direction == .received }
/// #expect(received.map(\.message.text) == ["ping"])
/// ```
///
/// The journal keeps the last 10,000 events and at most 16 MiB of their messages;
/// older ones go first.
public struct MessageEvent: Sendable, Identifiable {
    /// Which way the message went.
    public enum Direction: String, Sendable, Hashable {
        /// The client sent it.
        case received = "RECEIVED"
        /// The mock sent it.
        case sent = "SENT"
    }

    public let id: UUID
    public let direction: Direction
    /// The channel it went on (as it was when the message went).
    public let channel: MessageChannel
    public let message: WebSocketMessage
    /// The message stub that matched the received message, or that sent this one; `nil` for none.
    public let stubID: UUID?
    /// That stub's name, if it has one.
    public let stubName: String?
    /// When the message went.
    public let date: Date

    /// Whether a message stub matched (received) or sent (sent) the message.
    public var wasMatched: Bool { stubID != nil }
}
