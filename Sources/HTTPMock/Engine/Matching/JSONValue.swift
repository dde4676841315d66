import Foundation

/// A parsed JSON document, compared by meaning: key order, whitespace and number spelling (`1` vs `1.0`) do
/// not matter.
enum JSONValue: Sendable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses `data`; `nil` if it is not JSON. Top-level scalars are accepted.
    init?(data: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
              let value = JSONValue(object: object) else { return nil }
        self = value
    }

    /// Converts what `JSONSerialization` produces.
    init?(object: Any) {
        switch object {
        case is NSNull:
            self = .null
        case let number as NSNumber:
            // Booleans are NSNumbers whose Objective-C type is `c` (char), on Linux as on Apple platforms.
            if String(cString: number.objCType) == "c" {
                self = .bool(number.boolValue)
            } else {
                self = .number(number.doubleValue)
            }
        case let string as String:
            self = .string(string)
        case let array as [Any]:
            var values: [JSONValue] = []
            for element in array {
                guard let value = JSONValue(object: element) else { return nil }
                values.append(value)
            }
            self = .array(values)
        case let dictionary as [String: Any]:
            var values: [String: JSONValue] = [:]
            for (key, element) in dictionary {
                guard let value = JSONValue(object: element) else { return nil }
                values[key] = value
            }
            self = .object(values)
        default:
            return nil
        }
    }

    /// Whether `other` holds everything this value holds: objects may have more keys; arrays must have the
    /// same length with each element containing the expected one; scalars must be equal.
    func isContained(in other: JSONValue) -> Bool {
        switch (self, other) {
        case (.object(let expected), .object(let actual)):
            return expected.allSatisfy { key, value in actual[key].map { value.isContained(in: $0) } ?? false }
        case (.array(let expected), .array(let actual)):
            return expected.count == actual.count && zip(expected, actual).allSatisfy { $0.isContained(in: $1) }
        default:
            return self == other
        }
    }

    /// Compact JSON with sorted keys: the same for equal values, so it can key a response queue.
    var description: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value):
            if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
            return String(value)
        case .string(let value):
            let data = try? JSONSerialization.data(withJSONObject: [value], options: [])
            return data.map { String(decoding: $0.dropFirst().dropLast(), as: UTF8.self) } ?? "\"\(value)\""
        case .array(let values): return "[" + values.map(\.description).joined(separator: ",") + "]"
        case .object(let values):
            return "{" + values.sorted { $0.key < $1.key }.map { JSONValue.string($0.key).description + ":" + $0.value.description }
                .joined(separator: ",") + "}"
        }
    }
}
