import Foundation
import _HTTPMockJSON

/// JSON for the template helpers: parsed with the keys in their order (`parseJson`, `formatJson`), written compact
/// or pretty as WireMock's Jackson writes it (`{` then `"key" : value` lines indented by two spaces, lists on one
/// line: `[ 1, 2, 3 ]`), and converted to and from ``JSONValue`` for ``JSONPath``.
package enum TemplateJSON {
    /// The deepest nesting a parsed document may have.
    static let maximumDepth = 256

    /// Parses JSON text; objects and lists print as JSON when `json`, as Java maps and lists otherwise.
    static func parse(_ text: String, json: Bool) -> TemplateValue? {
        var parser = Parser(bytes: Array(text.utf8), json: json)
        parser.skipSpace()
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipSpace()
        return parser.index == parser.bytes.count ? value : nil
    }

    /// `omittingNulls`: members whose value is null are left out of objects (not of lists), as WireMock's Jackson does.
    static func write(_ value: TemplateValue, pretty: Bool, omittingNulls: Bool = false) -> String {
        var out = ""
        write(value, pretty: pretty, omittingNulls: omittingNulls, nesting: 0, to: &out)
        return out
    }

    private static func write(_ value: TemplateValue, pretty: Bool, omittingNulls: Bool = false, nesting: Int, to out: inout String) {
        func write(_ value: TemplateValue, pretty: Bool, nesting: Int, to out: inout String) {
            TemplateJSON.write(value, pretty: pretty, omittingNulls: omittingNulls, nesting: nesting, to: &out)
        }
        switch value {
        case .null, .request: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .int(let number): out += String(number)
        case .double(let number): out += number.isFinite ? TemplateNumber.javaText(of: number) : "null"
        case .string(let text): quote(text, to: &out)
        case .date: quote(value.text, to: &out)
        case .multi(let multi):
            if let text = multi.text { quote(text, to: &out) }
            else if multi.values.count == 1 { write(multi.values[0], pretty: pretty, nesting: nesting, to: &out) }
            else { write(.array(multi.values, json: true), pretty: pretty, nesting: nesting, to: &out) }
        case .array(let items, _):
            if items.isEmpty { out += pretty ? "[ ]" : "[]"; return }
            out += pretty ? "[ " : "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += pretty ? ", " : "," }
                write(item, pretty: pretty, nesting: nesting, to: &out)
            }
            out += pretty ? " ]" : "]"
        case .object(let object):
            var pairs = object.pairs
            if omittingNulls { pairs.removeAll { if case .null = $0.1 { true } else { false } } }
            if pairs.isEmpty { out += pretty ? "{ }" : "{}"; return }
            out += "{"
            let indent = String(repeating: "  ", count: nesting + 1)
            for (index, (key, item)) in pairs.enumerated() {
                if index > 0 { out += "," }
                if pretty { out += "\n" + indent }
                quote(key, to: &out)
                out += pretty ? " : " : ":"
                write(item, pretty: pretty, nesting: nesting + 1, to: &out)
            }
            if pretty { out += "\n" + String(repeating: "  ", count: nesting) }
            out += "}"
        }
    }

    private static func quote(_ text: String, to out: inout String) {
        out += JSONValue.quoted(text)
    }

    /// A value read by ``JSONPath`` (objects, having no order there, keep their keys sorted).
    package static func value(_ json: JSONValue) -> TemplateValue {
        switch json {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .int(number)
        case .double(let number): return .double(number)
        case .string(let text): return .string(text)
        case .array(let items): return .array(items.map(value), json: true)
        case .object(let members):
            return .object(TemplateObject(members.keys.sorted().map { ($0, value(members[$0]!)) }, json: true))
        }
    }

    /// The objects of a parsed document, by their keys sorted, in the document's order: what gives an object
    /// ``JSONPath`` selects (whose keys have no order there) the order of the document.
    struct KeyOrder {
        private var objects: [[String]: [TemplateObject]] = [:]
        /// Where the last search for each set of keys stopped: a path selects in the document's order.
        private var next: [[String]: Int] = [:]
        /// The objects compared since the count was restarted.
        private(set) var examined = 0

        /// The same, its count of objects compared at zero.
        var restarted: KeyOrder {
            var copy = self
            copy.examined = 0
            return copy
        }

        init(_ document: TemplateValue?) {
            if let document { collect(Self.asRead(document)) }
        }

        /// A document as WireMock's Jayway reads it: objects are maps (a member alone prints as Java prints a map,
        /// `{a=1}`), lists JSON arrays (`[1,2]`).
        private static func asRead(_ value: TemplateValue) -> TemplateValue {
            switch value {
            case .object(let object):
                return .object(TemplateObject(object.pairs.map { ($0.0, asRead($0.1)) }))
            case .array(let items, _): return .array(items.map(asRead), json: true)
            default: return value
            }
        }

        private mutating func collect(_ value: TemplateValue) {
            switch value {
            case .object(let object):
                objects[object.keys.sorted(), default: []].append(object)
                for (_, item) in object.pairs { collect(item) }
            case .array(let items, _): for item in items { collect(item) }
            default: break
            }
        }

        /// `json` as a value, its objects (and theirs) with their keys in the document's order.
        mutating func value(_ json: JSONValue) -> TemplateValue {
            switch json {
            case .array(let items): return .array(items.map { value($0) }, json: true)
            case .object(let members):
                let keys = members.keys.sorted()
                if let candidates = objects[keys] {
                    let start = next[keys] ?? 0
                    for offset in 0..<candidates.count {
                        let index = (start + offset) % candidates.count
                        examined += 1
                        guard TemplateJSON.same(json, .object(candidates[index])) else { continue }
                        next[keys] = index + 1
                        return .object(candidates[index])
                    }
                }
                return .object(TemplateObject(keys.map { ($0, value(members[$0]!)) }))
            default: return TemplateJSON.value(json)
            }
        }
    }

    /// Whether a value read by ``JSONPath`` and one parsed here hold the same JSON.
    static func same(_ json: JSONValue, _ value: TemplateValue) -> Bool {
        switch (json, value) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.int(let a), .double(let b)): return Double(a) == b
        case (.double(let a), .int(let b)): return a == Double(b)
        case (.double(let a), .double(let b)): return a == b
        case (.array(let a), .array(let b, _)): return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && b.keys.allSatisfy { key in
                guard let first = a[key], let second = b[key] else { return false }
                return same(first, second)
            }
        default: return false
        }
    }

    /// The value as ``JSONValue``, for ``JSONPath``; text that holds JSON is parsed.
    static func jsonValue(_ value: TemplateValue) -> JSONValue? {
        switch value {
        case .null, .request: return .null
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .int(number)
        case .double(let number): return .double(number)
        case .string(let text): return JSONValue(data: Data(text.utf8))
        case .date: return .string(value.text)
        case .multi(let multi):
            if let text = multi.text { return JSONValue(data: Data(text.utf8)) }
            return multi.values.count == 1 ? jsonValue(multi.values[0]) : plain(.array(multi.values, json: true))
        case .array, .object: return plain(value)
        }
    }

    /// Like ``jsonValue(_:)``, but text stays text.
    private static func plain(_ value: TemplateValue) -> JSONValue {
        switch value {
        case .string(let text): return .string(text)
        case .array(let items, _): return .array(items.map(plain))
        case .object(let object):
            var members: [String: JSONValue] = [:]
            for (key, item) in object.pairs { members[key] = plain(item) }
            return .object(members)
        case .multi(let multi):
            if let text = multi.text { return .string(text) }
            return multi.values.count == 1 ? plain(multi.values[0]) : .array(multi.values.map(plain))
        default: return jsonValue(value) ?? .null
        }
    }

    private struct Parser {
        let bytes: [UInt8]
        let json: Bool
        var index = 0

        init(bytes: [UInt8], json: Bool) {
            self.bytes = bytes
            self.json = json
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int) -> TemplateValue? {
            guard index < bytes.count, depth < TemplateJSON.maximumDepth else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var object = TemplateObject(json: json)
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(object) }
                while true {
                    skipSpace()
                    guard let key = string() else { return nil }
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                    index += 1
                    skipSpace()
                    guard let item = value(depth: depth + 1) else { return nil }
                    object[key] = item
                    skipSpace()
                    guard index < bytes.count else { return nil }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    guard bytes[index] == UInt8(ascii: "}") else { return nil }
                    index += 1
                    return .object(object)
                }
            case UInt8(ascii: "["):
                index += 1
                var items: [TemplateValue] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items, json: json) }
                while true {
                    skipSpace()
                    guard let item = value(depth: depth + 1) else { return nil }
                    items.append(item)
                    skipSpace()
                    guard index < bytes.count else { return nil }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    guard bytes[index] == UInt8(ascii: "]") else { return nil }
                    index += 1
                    return .array(items, json: json)
                }
            case UInt8(ascii: "\""): return string().map(TemplateValue.string)
            case UInt8(ascii: "t"): return word("true", .bool(true))
            case UInt8(ascii: "f"): return word("false", .bool(false))
            case UInt8(ascii: "n"): return word("null", .null)
            default: return number()
            }
        }

        private mutating func word(_ text: String, _ value: TemplateValue) -> TemplateValue? {
            let expected = Array(text.utf8)
            guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else { return nil }
            index += expected.count
            return value
        }

        private mutating func number() -> TemplateValue? {
            let start = index
            var whole = true
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            while index < bytes.count {
                let byte = bytes[index]
                if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1; continue }
                if [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-")].contains(byte) {
                    whole = false
                    index += 1
                    continue
                }
                break
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            guard !text.isEmpty, text != "-" else { return nil }
            if whole, let number = Int(text) { return .int(number) }
            guard let number = Double(text), number.isFinite else { return nil }
            return .double(number)
        }

        private mutating func string() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            var scalars = String.UnicodeScalarView()
            var run = index
            func flush(_ end: Int) {
                scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars)
            }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    flush(index)
                    index += 1
                    return String(scalars)
                }
                if byte < 0x20 { return nil }
                guard byte == UInt8(ascii: "\\") else { index += 1; continue }
                flush(index)
                index += 1
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    guard var code = hex4() else { return nil }
                    if (0xD800...0xDBFF).contains(code), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                       bytes[index + 1] == UInt8(ascii: "u") {
                        index += 2
                        guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default: return nil
                }
                run = index
            }
            return nil
        }

        private mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
                return nil
            }
            index += 4
            return code
        }
    }
}
