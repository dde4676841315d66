#if OpenAPI
import Foundation
import HTTPMock
import _HTTPMockJSON

/// A parameter read from a request as its `style` and `explode` serialize it (OpenAPI's "Style Values"), into the
/// JSON value its schema checks: `simple` (`1,2`, `role,admin` or `role=admin`), `label` (`.1.2`), `matrix`
/// (`;id=1,2`, `;id=1;id=2`), `form` (`id=1&id=2`, `id=1,2`, an exploded object's properties as query items),
/// `spaceDelimited`, `pipeDelimited` and `deepObject` (`id[role]=admin`). Texts are converted to the type of their
/// schema (`"7"` as 7 for an integer); a text that is not of the type stays a string, which the schema refuses.
enum ParameterReading {
    /// The request does not carry it.
    case missing
    case value(JSONValue)
    /// The text is not serialized as the style says (a `label` value without its `.`): what is wrong.
    case malformed(String)
}

/// Why a part of a request cannot be read as the document says it is written (a form body, a `Cookie` header).
struct ReadingProblem: Error {
    let message: String
}

extension ParameterContract {
    /// Styles the specification defines for each location.
    static let styles: [Location: [String]] = [
        .path: ["simple", "label", "matrix"],
        .query: ["form", "spaceDelimited", "pipeDelimited", "deepObject"],
        .header: ["simple"],
        .cookie: ["form"],
    ]

    /// The parameter's value in `request`.
    func read(from request: CapturedRequest, pathValues: [String: String], cookies: [String: String],
              root: JSONValue) -> ParameterReading {
        let schema = schemaValue ?? .object([:])
        let shape = Shape(schema, root: root)
        switch location {
        case .path:
            guard let text = pathValues[name] else { return .missing }
            return readPath(text, shape)
        case .query:
            return readQuery(request.queryItems, shape)
        case .header:
            let values = request.headers.values(for: name)
            guard !values.isEmpty else { return .missing }
            return .value(simple(values.joined(separator: ","), shape, trimming: true))
        case .cookie:
            guard let text = cookies[name] else { return .missing }
            return .value(delimited(text, by: ",", shape))
        }
    }

    // MARK: - Locations

    private func readPath(_ text: String, _ shape: Shape) -> ParameterReading {
        switch style {
        case "label":
            guard text.hasPrefix(".") else {
                return .malformed("\"\(text)\" is not in the label style; it starts with \".\" (.5, .1.2, .role=admin)")
            }
            let rest = String(text.dropFirst())
            return .value(explode ? split(rest, by: ".", shape, pairs: "=") : delimited(rest, by: ",", shape))
        case "matrix":
            let prefix = ";" + name
            guard text.hasPrefix(";") else {
                return .malformed("\"\(text)\" is not in the matrix style; it starts with \";\" (\(prefix)=5)")
            }
            if shape.kind == .object, explode {
                return .value(split(String(text.dropFirst()), by: ";", shape, pairs: "="))
            }
            if shape.kind == .array, explode {
                let items = text.dropFirst().split(separator: ";", omittingEmptySubsequences: false).map(String.init)
                var values: [String] = []
                for item in items {
                    guard item.hasPrefix(name + "=") || item == name else {
                        return .malformed("\"\(text)\" is not in the matrix style; each item is \(prefix)=value")
                    }
                    values.append(String(item.dropFirst(name.count + 1)))
                }
                return .value(.array(values.map { shape.item($0) }))
            }
            guard text == prefix || text.hasPrefix(prefix + "=") else {
                return .malformed("\"\(text)\" is not in the matrix style; it is \(prefix)=value")
            }
            return .value(delimited(String(text.dropFirst(min(text.count, prefix.count + 1))), by: ",", shape))
        default:
            return .value(simple(text, shape, trimming: false))
        }
    }

    private func readQuery(_ items: [QueryItem], _ shape: Shape) -> ParameterReading {
        if style == "deepObject" {
            var members: [String: JSONValue] = [:]
            for item in items where item.name.hasPrefix(name + "[") && item.name.hasSuffix("]") {
                let key = String(item.name.dropFirst(name.count + 1).dropLast())
                members[key] = shape.property(key, item.value ?? "")
            }
            return members.isEmpty ? .missing : .value(.object(members))
        }
        if shape.kind == .object, explode {
            // Its properties are query items of their own: `?role=admin&firstName=Alex`.
            var members: [String: JSONValue] = [:]
            for item in items where shape.properties.keys.contains(item.name) && members[item.name] == nil {
                members[item.name] = shape.property(item.name, item.value ?? "")
            }
            return members.isEmpty ? .missing : .value(.object(members))
        }
        let texts = items.filter { $0.name == name }.map { $0.value ?? "" }
        guard !texts.isEmpty else { return .missing }
        if shape.kind == .array {
            if explode || texts.count > 1 { return .value(.array(texts.map { shape.item($0) })) }
            let separator: Character = style == "spaceDelimited" ? " " : style == "pipeDelimited" ? "|" : ","
            return .value(delimited(texts[0], by: separator, shape))
        }
        return .value(delimited(texts[0], by: ",", shape))
    }

    // MARK: - Serializations

    /// `simple`: `a,b` for an array; `k,v,k,v` for an object, `k=v,k=v` exploded.
    private func simple(_ text: String, _ shape: Shape, trimming: Bool) -> JSONValue {
        if shape.kind == .object, explode { return split(text, by: ",", shape, pairs: "=", trimming: trimming) }
        return delimited(text, by: ",", shape, trimming: trimming)
    }

    /// Items separated by `separator`: an array's items, an object's keys and values in turn, or a scalar whole.
    private func delimited(_ text: String, by separator: Character, _ shape: Shape, trimming: Bool = false) -> JSONValue {
        func clean(_ part: Substring) -> String { trimming ? part.trimmingCharacters(in: .whitespaces) : String(part) }
        switch shape.kind {
        case .array:
            if text.isEmpty { return .array([]) }
            return .array(text.split(separator: separator, omittingEmptySubsequences: false).map { shape.item(clean($0)) })
        case .object:
            let parts = text.split(separator: separator, omittingEmptySubsequences: false).map(clean)
            guard parts.count % 2 == 0 else { return .string(text) }
            var members: [String: JSONValue] = [:]
            for index in stride(from: 0, to: parts.count, by: 2) where members[parts[index]] == nil {
                members[parts[index]] = shape.property(parts[index], parts[index + 1])
            }
            return .object(members)
        case .scalar:
            return shape.scalar(trimming ? text.trimmingCharacters(in: .whitespaces) : text)
        }
    }

    /// Exploded items separated by `separator`: `k=v` pairs for an object, plain items for an array.
    private func split(_ text: String, by separator: Character, _ shape: Shape, pairs: Character, trimming: Bool = false) -> JSONValue {
        let parts = text.split(separator: separator, omittingEmptySubsequences: false)
            .map { trimming ? $0.trimmingCharacters(in: .whitespaces) : String($0) }
        switch shape.kind {
        case .object:
            var members: [String: JSONValue] = [:]
            for part in parts {
                let pair = part.split(separator: pairs, maxSplits: 1, omittingEmptySubsequences: false)
                guard pair.count == 2 else { return .string(text) }
                if members[String(pair[0])] == nil { members[String(pair[0])] = shape.property(String(pair[0]), String(pair[1])) }
            }
            return .object(members)
        case .array:
            return .array(parts.map { shape.item($0) })
        case .scalar:
            return shape.scalar(text)
        }
    }
}

/// What a parameter's schema says of the value's shape, with `$ref`s followed: an array (its items' type), an
/// object (its properties' types) or a scalar (its type).
struct Shape {
    enum Kind { case scalar, array, object }
    let kind: Kind
    let type: String?
    let itemType: String?
    let properties: [String: String?]
    /// Properties whose schema is an array, with their items' type (a form's repeated fields).
    var arrayProperties: Set<String> = []
    var propertyItemTypes: [String: String?] = [:]

    init(_ schema: JSONValue, root: JSONValue) {
        let schema = Self.resolve(schema, in: root)
        type = Self.typeName(schema)
        switch type {
        case "array":
            kind = .array
            itemType = Self.typeName(Self.resolve(schema["items"] ?? .object([:]), in: root))
            properties = [:]
        case "object":
            kind = .object
            itemType = nil
            var properties: [String: String?] = [:]
            for (key, value) in schema["properties"]?.members ?? [:] {
                let property = Self.resolve(value, in: root)
                properties[key] = Self.typeName(property)
                if properties[key] == "array" {
                    arrayProperties.insert(key)
                    propertyItemTypes[key] = Self.typeName(Self.resolve(property["items"] ?? .object([:]), in: root))
                }
            }
            self.properties = properties
        default:
            kind = .scalar
            itemType = nil
            properties = [:]
        }
    }

    func scalar(_ text: String) -> JSONValue { Self.convert(text, to: type) }
    func item(_ text: String) -> JSONValue { Self.convert(text, to: itemType) }
    func property(_ key: String, _ text: String) -> JSONValue { Self.convert(text, to: properties[key] ?? nil) }

    static func resolve(_ schema: JSONValue, in root: JSONValue) -> JSONValue {
        var current = schema
        var hops = 0
        while case .string(let reference)? = current["$ref"], hops < DocumentReader.referenceLimit,
              let pointer = JSONPointer.fromReference(reference), let target = JSONPointer.value(at: pointer, in: root) {
            current = target
            hops += 1
        }
        return current
    }

    static func typeName(_ schema: JSONValue) -> String? {
        if let type = schema["type"]?.text { return type }
        return schema["type"]?.elements?.compactMap(\.text).first { $0 != "null" }
    }

    /// A whole number `Int` cannot read, written as JSON writes numbers (`99999999999999999999`, `7.0`, `1e3`): as JSON
    /// reads it (every digit kept where a double would round it), which a schema's `integer` takes when it has no
    /// fraction.
    private static func wholeBeyondInt(_ text: String) -> JSONValue? {
        guard isJSONNumber(text), let number = Double(text), number.isFinite, number.rounded() == number else { return nil }
        return JSONValue.number(text, isWhole: !text.contains { $0 == "." || $0 == "e" || $0 == "E" }) ?? .double(number)
    }

    /// Whether `text` is a number in JSON's grammar: `-`, digits (no leading zero), a fraction, an exponent.
    static func isJSONNumber(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        func digits() -> Int {
            let start = index
            while index < bytes.count, (48...57).contains(bytes[index]) { index += 1 }
            return index - start
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let start = index
        let whole = digits()
        guard whole > 0, whole == 1 || bytes[start] != UInt8(ascii: "0") else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return false }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return false }
        }
        return index == bytes.count
    }

    /// `text` as the JSON value of `type`; text that is not of the type stays a string.
    static func convert(_ text: String, to type: String?) -> JSONValue {
        switch type {
        case "integer": return Int(text).map(JSONValue.int) ?? wholeBeyondInt(text) ?? .string(text)
        case "number": return Int(text).map(JSONValue.int) ?? Double(text).flatMap { $0.isFinite ? JSONValue.double($0) : nil } ?? .string(text)
        case "boolean": return text == "true" ? .bool(true) : text == "false" ? .bool(false) : .string(text)
        default: return .string(text)
        }
    }
}
#endif
