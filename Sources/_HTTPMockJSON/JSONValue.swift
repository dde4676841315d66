import Foundation

/// A JSON value: what JSON body matchers compare, what definition files hold and what recordings write.
///
/// Integers and other numbers are kept apart, so a value written back out reads as it did; comparisons
/// (``matches(_:wildcard:)``, ``isContained(in:)``) are by meaning: key order, whitespace and number spelling
/// (`1` vs `1.0`) do not matter.
package enum JSONValue: Codable, Sendable, Hashable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    /// A number `Int` does not hold and a double would round, as its JSON text: an integer past 64 bits (all of them,
    /// so that they stay integers: `12345678901234567890123`), a fraction with more digits than a double keeps
    /// (`0.10000000000000000001`), one too small for a double (`1e-400`).
    /// Written back as it was read; compared by its exact value (``exactNumber``).
    case decimal(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses JSON bytes (top-level scalars too); `nil` if they are not JSON. A key written twice keeps its last
    /// value. Strict: a trailing comma or a byte order mark before UTF-8 makes them no JSON, as WireMock's Jackson
    /// reads them.
    package init?(data: Data) {
        // Strict JSON straight from its bytes (every UTF-8 body); JSON in UTF-16 or UTF-32 as Foundation reads it
        // (Foundation on Linux also takes trailing commas and a UTF-8 byte order mark, which are no JSON).
        if let value = JSONValue.parse(data, lastKeyWins: true) {
            self = value
            return
        }
        guard Self.isWide(data), let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
              let value = JSONValue(object: object) else { return nil }
        self = value
    }

    /// JSON as json-smart's permissive mode reads it for Jayway's JSONPath (in WireMock): strict JSON in UTF-8, but
    /// for a comma before a closing bracket or brace; a key written twice keeps its last value.
    package static func permissive(_ data: Data) -> JSONValue? {
        parse(data, lastKeyWins: true, allowsTrailingCommas: true)
    }

    /// Whether `data` looks like JSON in UTF-16 or UTF-32 (RFC 4627, 3): a byte order mark of either, or a zero
    /// byte among the first two, which JSON in UTF-8 never has.
    private static func isWide(_ data: Data) -> Bool {
        guard data.count >= 2 else { return false }
        let first = data[data.startIndex], second = data[data.startIndex + 1]
        return first == 0 || second == 0 || (first == 0xFE && second == 0xFF) || (first == 0xFF && second == 0xFE)
    }

    /// Converts what `JSONSerialization` produces.
    init?(object: Any) {
        switch object {
        case is NSNull:
            self = .null
        case let number as NSDecimalNumber:
            // What Foundation reads of a number a double does not hold (up to 38 digits).
            self = JSONValue.number(number.description, isWhole: !number.description.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })) ?? .double(number.doubleValue)
        case let number as NSNumber:
            // Booleans are NSNumbers whose Objective-C type is `c` (char), on Linux as on Apple platforms.
            switch String(cString: number.objCType) {
            case "c": self = .bool(number.boolValue)
            case "d", "f": self = .double(number.doubleValue)
            // An integer past `Int.max` and within 64 unsigned bits.
            case "Q": self = JSONValue.number(number.stringValue, isWhole: true) ?? .double(number.doubleValue)
            default: self = .int(number.intValue)
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

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Most likely first: every failed attempt costs a thrown error. `Int` before `Double` keeps integers exact.
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode(Int.self) { self = .int(value) }
        else if let value = try? container.decode(Double.self) { self = .double(value) }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode([String: JSONValue].self) { self = .object(value) }
        else { self = .array(try container.decode([JSONValue].self)) }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .decimal(let text):
            // `Codable` has no way to write a number's own text: Foundation's decimal keeps 38 digits of it.
            // Past its range (`1e-400`) the double's value, never a NaN that would stop the encoding.
            if let value = Decimal(string: text), value.isFinite, !value.isNaN, Double(text).map({ $0 != 0 || value.isZero }) ?? false {
                try container.encode(value)
            } else {
                try container.encode(Double(text) ?? 0)
            }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The value as compact JSON text with sorted keys: the same for equal values, so it can key a queue.
    package var data: Data {
        var bytes: [UInt8] = []
        write(to: &bytes)
        return Data(bytes)
    }

    /// The value as indented JSON text with sorted keys, for files people read: every number as it reads back, the
    /// same value of the same kind (`100.0` stays a double, a decimal keeps every digit), which `JSONEncoder` loses.
    package var prettyData: Data {
        var bytes: [UInt8] = []
        writePretty(to: &bytes, indent: 0)
        return Data(bytes)
    }

    package var description: String { String(decoding: data, as: UTF8.self) }

    /// Whether `other` equals this value by meaning, where a string equal to `wildcard` here matches anything there.
    package func matches(_ other: JSONValue, wildcard: String? = nil) -> Bool {
        switch (self, other) {
        case (.string(let mine), _) where wildcard != nil && mine == wildcard: return true
        case (.array(let mine), .array(let theirs)):
            return mine.count == theirs.count && zip(mine, theirs).allSatisfy { $0.matches($1, wildcard: wildcard) }
        case (.object(let mine), .object(let theirs)):
            return mine.count == theirs.count && mine.allSatisfy { key, value in
                theirs[key].map { value.matches($0, wildcard: wildcard) } ?? false
            }
        case (.int(let mine), .int(let theirs)): return mine == theirs
        case (.double(let mine), .double(let theirs)): return mine == theirs
        // Exactly: every integer to 2⁵³ is a double.
        case (.int(let mine), .double(let theirs)) where mine.magnitude <= 1 << 53: return Double(mine) == theirs
        case (.double(let mine), .int(let theirs)) where theirs.magnitude <= 1 << 53: return mine == Double(theirs)
        case (.int, .double), (.double, .int), (.decimal, _), (_, .decimal):
            // By exact value: a double's past 2⁵³ is not any integer's near it.
            guard let mine = exactNumber, let theirs = other.exactNumber else { return false }
            return mine == theirs
        default: return self == other
        }
    }

    /// Whether `other` holds everything this value holds: objects may have more keys; arrays must have the
    /// same length with each element containing the expected one; scalars must be equal by meaning.
    package func isContained(in other: JSONValue) -> Bool {
        switch (self, other) {
        case (.object(let expected), .object(let actual)):
            return expected.allSatisfy { key, value in actual[key].map { value.isContained(in: $0) } ?? false }
        case (.array(let expected), .array(let actual)):
            return expected.count == actual.count && zip(expected, actual).allSatisfy { $0.isContained(in: $1) }
        default:
            return matches(other)
        }
    }
}
