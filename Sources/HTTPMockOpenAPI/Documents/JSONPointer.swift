#if OpenAPI
import HTTPMock
import _HTTPMockJSON

/// JSON pointers (RFC 6901) into a document: `/paths/~1pets~1{petId}/get`.
enum JSONPointer {
    /// `token` escaped for a pointer (`~` as `~0`, `/` as `~1`).
    static func escape(_ token: String) -> String {
        guard token.contains("~") || token.contains("/") else { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// `pointer` with `token` appended.
    static func child(_ pointer: String, _ token: String) -> String { pointer + "/" + escape(token) }

    /// The tokens of `pointer`, unescaped; `nil` when it is not a pointer.
    static func tokens(_ pointer: String) -> [String]? {
        if pointer.isEmpty { return [] }
        guard pointer.hasPrefix("/") else { return nil }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    /// The value at `pointer` in `value`; `nil` when there is none.
    static func value(at pointer: String, in value: JSONValue) -> JSONValue? {
        guard let tokens = tokens(pointer) else { return nil }
        var current = value
        for token in tokens {
            switch current {
            case .object(let members):
                guard let member = members[token] else { return nil }
                current = member
            case .array(let elements):
                guard let index = Int(token), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// The pointer of a `$ref` (`#/components/schemas/Pet`), percent-decoded; `nil` when it is not one into the
    /// same document.
    static func fromReference(_ reference: String) -> String? {
        guard reference.hasPrefix("#") else { return nil }
        return String(reference.dropFirst()).removingPercentEncoding
    }
}

extension JSONValue {
    /// The members of an object; `nil` for any other value.
    var members: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The text of a string; `nil` for any other value.
    var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var elements: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    subscript(_ key: String) -> JSONValue? { members?[key] }

    /// What kind of value it is, for messages.
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double, .decimal: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
#endif
