import Foundation
import _HTTPMockRegex

extension JSONSchema.Compiler {
    /// The place of `key` under `location`, as a JSON pointer (`~` and `/` escaped).
    static func child(_ location: String, _ key: String) -> String {
        guard key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return location + "/" + key }
        return location + "/" + key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// A number keyword's value (`minimum`), or `nil` when it is absent.
    func number(_ object: [String: JSONValue], _ key: String, at location: String) throws(JSONSchemaError) -> JSONValue? {
        guard let value = object[key] else { return nil }
        switch value {
        case .int, .double, .decimal: return value
        case .string(let text) where Double(text) != nil:
            throw failure(Self.child(location, key), "\"\(key)\" must be a number, not \(value.schemaKind); write it without quotes (\(text))")
        default:
            throw failure(Self.child(location, key), "\"\(key)\" must be a number, not \(value.schemaKind)")
        }
    }

    /// A count keyword's value (`maxLength`): a whole number from 0 (`2.0` is one), or `nil` when it is absent.
    func count(_ object: [String: JSONValue], _ key: String, at location: String) throws(JSONSchemaError) -> Int? {
        guard let value = object[key] else { return nil }
        switch value {
        case .int(let whole) where whole >= 0: return whole
        case .double(let number) where number >= 0 && number.rounded() == number && number < 9e18: return Int(number)
        default:
            throw failure(Self.child(location, key), "\"\(key)\" must be a whole number from 0, not \(value.schemaKind)")
        }
    }

    /// Property names (`required`, a member of `dependentRequired`).
    func names(_ value: JSONValue, at location: String, keyword: String) throws(JSONSchemaError) -> [String] {
        guard case .array(let elements) = value else {
            throw failure(location, "\"\(keyword)\" must list property names in an array ([\"id\", \"name\"]), not \(value.schemaKind)")
        }
        var names: [String] = []
        for element in elements {
            guard case .string(let name) = element else {
                throw failure(location, "\"\(keyword)\" must list property names (strings), but holds \(element.schemaKind)")
            }
            names.append(name)
        }
        return names
    }

    /// A regular expression, compiled; ECMA-262's meaning written in ICU's syntax (``ECMARegex``).
    func pattern(_ value: JSONValue, at location: String, keyword: String) throws(JSONSchemaError) -> JSONSchema.Pattern {
        guard case .string(let source) = value else {
            throw failure(location, "\"\(keyword)\" must be a regular expression in a string, not \(value.schemaKind)")
        }
        do {
            return JSONSchema.Pattern(source: source, regex: try NSRegularExpression(pattern: ECMARegex.icu(source)))
        } catch {
            let what = keyword == "pattern" ? "\"pattern\"" : "this \"patternProperties\" name"
            throw failure(location, "\(what) is not a valid regular expression: \"\(source.clipped(to: 80))\"; fix it (in JSON a backslash is written \\\\, as in \"^\\\\d+$\")")
        }
    }

    /// The schemas of an array keyword (`allOf`, positional `items`), or `nil` when it is absent.
    mutating func schemaArray(_ object: [String: JSONValue], _ key: String, at location: String,
                              allowsEmpty: Bool) throws(JSONSchemaError) -> [Int]? {
        guard let value = object[key] else { return nil }
        let place = Self.child(location, key)
        guard case .array(let elements) = value, allowsEmpty || !elements.isEmpty else {
            throw failure(place, "\"\(key)\" must be \(allowsEmpty ? "an" : "a non-empty") array of schemas, not \(value.schemaKind == "an array" ? "an empty array" : value.schemaKind)")
        }
        var nodes: [Int] = []
        for (index, element) in elements.enumerated() {
            nodes.append(try compile(element, at: place + "/\(index)"))
        }
        return nodes
    }

    /// The schemas of an object keyword (`properties`, `$defs`) sorted by name, or `nil` when it is absent.
    mutating func schemaMap(_ object: [String: JSONValue], _ key: String, at location: String) throws(JSONSchemaError) -> [(name: String, node: Int)]? {
        guard let value = object[key] else { return nil }
        let place = Self.child(location, key)
        guard case .object(let members) = value else {
            throw failure(place, "\"\(key)\" must be an object of schemas by name, not \(value.schemaKind)")
        }
        var nodes: [(name: String, node: Int)] = []
        for name in members.keys.sorted() {
            nodes.append((name, try compile(members[name]!, at: Self.child(place, name))))
        }
        return nodes
    }
}
