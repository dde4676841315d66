import Foundation

/// Any JSON value, as written in a definition file (a JSON body, a JSON body matcher).
enum DefinitionJSON: Codable, Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([DefinitionJSON])
    case object([String: DefinitionJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Most likely first: every failed attempt costs a thrown error. `Int` before `Double` keeps integers exact.
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode(Int.self) { self = .int(value) }
        else if let value = try? container.decode(Double.self) { self = .double(value) }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode([String: DefinitionJSON].self) { self = .object(value) }
        else { self = .array(try container.decode([DefinitionJSON].self)) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The value as compact JSON text with sorted keys.
    var data: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data("null".utf8)
    }

    /// The value as indented JSON text with sorted keys, for files people read.
    var prettyData: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data("null".utf8)
    }

    /// Parses JSON bytes; `nil` when they are not JSON.
    init?(parsing data: Data) {
        guard let value = try? JSONDecoder().decode(DefinitionJSON.self, from: data) else { return nil }
        self = value
    }

    /// Whether `other` equals this value, where a string equal to `wildcard` here matches anything there.
    func matches(_ other: DefinitionJSON, wildcard: String?) -> Bool {
        switch (self, other) {
        case (.string(let mine), _) where wildcard != nil && mine == wildcard: return true
        case (.array(let mine), .array(let theirs)):
            return mine.count == theirs.count && zip(mine, theirs).allSatisfy { $0.matches($1, wildcard: wildcard) }
        case (.object(let mine), .object(let theirs)):
            return mine.count == theirs.count && mine.allSatisfy { key, value in
                theirs[key].map { value.matches($0, wildcard: wildcard) } ?? false
            }
        case (.int(let mine), .double(let theirs)): return Double(mine) == theirs
        case (.double(let mine), .int(let theirs)): return mine == Double(theirs)
        default: return self == other
        }
    }
}
