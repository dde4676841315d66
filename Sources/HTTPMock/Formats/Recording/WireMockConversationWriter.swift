import Foundation
import _HTTPMockJSON

/// Turns a recorded WebSocket conversation (a journal entry's ``WebSocketRecord``) into WireMock message stub
/// mappings that replay it:
/// - what the server sent before the client's first message goes out when a client opens a WebSocket on the same
///   URL (an `http-request` trigger on the upgrade, whose `originating` channel is the one it opened: HTTPMock's
///   reading, where WireMock sends nothing);
/// - each message the client sent is a trigger (its text `equalTo`, or its bytes `binaryEqualTo`) on a channel
///   opened on that URL, answered by what the server sent after it, until the client's next message;
/// - every answer keeps its timing (`fixedDelayMilliseconds` after what triggered it).
///
/// A client message that came again is answered as the first time (message stubs have no scenarios); the close is
/// not replayed.
enum WireMockConversationWriter {
    /// The message mappings of `entry`'s conversation, as one file's JSON (`{"messageMappings": […]}`); `nil` when
    /// the entry holds no conversation.
    static func file(for entry: JournalEntry) -> Data? {
        guard let record = entry.webSocket else { return nil }
        let request = entry.request
        var url = request.path.isEmpty ? "/" : request.path
        if let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedQuery { url += "?" + query }
        let channel: JSONValue = .object(["type": .string("websocket"), "initiatingRequestPattern": .object(["url": .string(url)])])
        var mappings: [JSONValue] = []
        var pending: [WebSocketRecord.Message] = []
        var trigger: WebSocketRecord.Message?
        var seen = Set<WebSocketMessage>()

        func flush() {
            defer { pending = [] }
            let start = trigger?.offset ?? 0
            let actions: [JSONValue] = pending.map { sent in
                var action: [String: JSONValue] = [
                    "type": .string("send"),
                    "message": .object(["body": body(of: sent.message)]),
                    "channelTarget": .object(["type": .string("originating")]),
                ]
                let delay = ((sent.offset - start) * 1_000_000).rounded() / 1_000
                if delay > 0 { action["fixedDelayMilliseconds"] = .double(delay) }
                return .object(action)
            }
            if let trigger {
                guard seen.insert(trigger.message).inserted else { return }
                let pattern: JSONValue = switch trigger.message {
                case .text(let text): .object(["equalTo": .string(text)])
                case .binary(let data): .object(["binaryEqualTo": .string(data.base64EncodedString())])
                }
                mappings.append(.object([
                    "id": .string(UUID.random().lowercasedText),
                    "name": .string("\(url): \(trigger.message.description)"),
                    "trigger": .object(["type": .string("message"), "channel": channel, "message": .object(["body": pattern])]),
                    "actions": .array(actions),
                ]))
            } else if !actions.isEmpty {
                mappings.append(.object([
                    "id": .string(UUID.random().lowercasedText),
                    "name": .string("\(url): on connect"),
                    "trigger": .object(["type": .string("http-request"), "requestPattern": .object([
                        "method": .string("GET"), "url": .string(url),
                        "headers": .object(["Upgrade": .object(["equalTo": .string("websocket"), "caseInsensitive": .bool(true)])]),
                    ])]),
                    "actions": .array(actions),
                ]))
            }
        }

        for message in record.messages {
            if message.fromClient {
                flush()
                trigger = message
            } else {
                pending.append(message)
            }
        }
        flush()
        return JSONValue.object(["messageMappings": .array(mappings)]).prettyData
    }

    private static func body(of message: WebSocketMessage) -> JSONValue {
        switch message {
        case .text(let text): .object(["data": .string(text)])
        case .binary(let data): .object(["data": .string(data.base64EncodedString()), "encoding": .string("binary")])
        }
    }
}
