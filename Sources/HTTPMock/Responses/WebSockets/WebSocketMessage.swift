import Foundation

/// A WebSocket message: text or bytes.
public enum WebSocketMessage: Sendable, Hashable, CustomStringConvertible {
    /// A text message (UTF-8 on the wire).
    case text(String)
    /// A binary message.
    case binary(Data)

    /// The message's text, if it is text.
    public var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The message's bytes (a text message's UTF-8).
    public var data: Data {
        switch self {
        case .text(let text): Data(text.utf8)
        case .binary(let data): data
        }
    }

    public var description: String {
        switch self {
        case .text(let text): "text \"\(text.count > 80 ? String(text.prefix(80)) + "…" : text)\""
        case .binary(let data): "binary, \(data.count) bytes"
        }
    }
}

/// Which client messages a scripted reply answers.
public struct WebSocketMessagePattern: Sendable, CustomStringConvertible {
    private let test: @Sendable (WebSocketMessage) -> Bool
    /// How the pattern reads in reports (`text "ping"`).
    public let description: String

    /// A pattern of your own; `description` says what it matches.
    public init(_ description: String, matches: @escaping @Sendable (WebSocketMessage) -> Bool) {
        self.description = description
        test = matches
    }

    /// Whether `message` matches the pattern.
    public func matches(_ message: WebSocketMessage) -> Bool { test(message) }

    /// Any message.
    public static let any = WebSocketMessagePattern("any message") { _ in true }

    /// A text message equal to `text`.
    public static func text(_ text: String) -> WebSocketMessagePattern {
        WebSocketMessagePattern("text \"\(text)\"") { $0.text == text }
    }

    /// A text message that contains `fragment`.
    public static func containing(_ fragment: String) -> WebSocketMessagePattern {
        WebSocketMessagePattern("text containing \"\(fragment)\"") { $0.text?.contains(fragment) == true }
    }

    /// A text message that is a JSON object with these top-level fields and values (others may be there too).
    public static func json(_ fields: [String: String]) -> WebSocketMessagePattern {
        WebSocketMessagePattern("JSON with \(fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", "))") { message in
            guard let data = message.text.map({ Data($0.utf8) }),
                  let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return false }
            return fields.allSatisfy { name, value in object[name].map { "\($0)" } == value }
        }
    }
}
