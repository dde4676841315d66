import Foundation

/// What a WebSocket conversation carried: every message both ways, in order, and how it closed.
///
/// ```swift
/// let record = try #require(mock.journal.last?.webSocket)
/// #expect(record.fromClient.map(\.text) == ["ping"])
/// #expect(record.closeCode == 1000)
/// ```
///
/// The journal keeps the first 10,000 messages (and at most 1 MiB of them) of a conversation and counts the rest.
public struct WebSocketRecord: Sendable {
    /// One message, with its direction and when it went.
    public struct Message: Sendable, Hashable {
        public let message: WebSocketMessage
        /// `true`: the client sent it; `false`: the mock did.
        public let fromClient: Bool
        /// Seconds after the connection opened.
        public let offset: TimeInterval
    }

    /// The messages kept, both ways, in order.
    public internal(set) var messages: [Message] = []
    /// How many messages went, kept or not.
    public internal(set) var messageCount = 0
    /// Whether the conversation is still open.
    public internal(set) var isOpen = true
    /// The close code of the close frame, if one was sent either way.
    public internal(set) var closeCode: Int?
    /// When the connection opened.
    public let openedAt = Date()

    private var keptBytes = 0

    /// The messages the client sent.
    public var fromClient: [WebSocketMessage] { messages.filter(\.fromClient).map(\.message) }
    /// The messages the mock sent.
    public var toClient: [WebSocketMessage] { messages.filter { !$0.fromClient }.map(\.message) }

    mutating func append(_ message: WebSocketMessage, fromClient: Bool, at date: Date) {
        messageCount += 1
        let size = message.data.count
        guard messages.count < 10_000, keptBytes + size <= 1 << 20 else { return }
        keptBytes += size
        messages.append(Message(message: message, fromClient: fromClient, offset: date.timeIntervalSince(openedAt)))
    }

    mutating func close(code: Int?) {
        guard isOpen else { return }
        isOpen = false
        closeCode = code
    }
}
