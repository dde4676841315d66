import Foundation
import _HTTPMockJSON

/// JSON for the template helpers: parsed with the keys in their order (`parseJson`, `formatJson`), written compact
/// or pretty as WireMock's Jackson writes it (`{` then `"key" : value` lines indented by two spaces, lists on one
/// line: `[ 1, 2, 3 ]`), and converted to and from ``JSONValue`` for ``JSONPath``.
package enum TemplateJSON {
    /// The deepest nesting a parsed document may have.
    static let maximumDepth = 256

    /// Parses JSON text; objects and lists print as JSON when `json`, as Java maps and lists otherwise. Numbers as
    /// WireMock's Jackson reads them (`parseJson`, `formatJson`…): whole ones past 64 bits and every decimal exactly,
    /// as Java's `BigInteger` and `BigDecimal` (`1.10` stays `1.10`, `1e400` is `1E+400`); `jsonSmart`, as its
    /// JSONPath reads them instead.
    static func parse(_ text: String, json: Bool, jsonSmart: Bool = false) -> TemplateValue? {
        var parser = Parser(bytes: Array(text.utf8), json: json, jsonSmart: jsonSmart)
        parser.skipSpace()
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipSpace()
        return parser.index == parser.bytes.count ? value : nil
    }

    /// How a string is escaped in the JSON written.
    enum Escaping: Sendable {
        /// As WireMock's Jackson writes it (indented objects, `toJson`, `formatJson`): `"`, `\\`, and the control
        /// characters below U+0020 (`\n`, `\t`… or `\u001F`, in upper case).
        case jackson
        /// As json-smart, which WireMock's JSONPath returns its lists in, writes a list `jsonPath` selects: as Jackson,
        /// and also `/` as `\/`, and U+007F to U+009F and U+2000 to U+20FF as `\u…`.
        case jsonSmart
    }

    /// `omittingNulls`: members whose value is null are left out of objects (not of lists), as WireMock's Jackson does.
    /// `plainDecimals`: decimals written without an exponent (`100`, not `1E+2`), as WireMock's Jackson writes them;
    /// by default when `escaping` is Jackson's (a JSON tree Jackson prints with its own defaults keeps the exponent).
    static func write(_ value: TemplateValue, pretty: Bool, omittingNulls: Bool = false, escaping: Escaping = .jackson,
                      plainDecimals: Bool? = nil) -> String {
        var out = ""
        write(value, pretty: pretty, omittingNulls: omittingNulls, escaping: escaping, plain: plainDecimals ?? (escaping == .jackson),
              nesting: 0, to: &out)
        return out
    }

    private static func write(_ value: TemplateValue, pretty: Bool, omittingNulls: Bool, escaping: Escaping, plain: Bool, nesting: Int,
                              to out: inout String) {
        func write(_ value: TemplateValue, pretty: Bool, nesting: Int, to out: inout String) {
            TemplateJSON.write(value, pretty: pretty, omittingNulls: omittingNulls, escaping: escaping, plain: plain, nesting: nesting, to: &out)
        }
        func quote(_ text: String, to out: inout String) { TemplateJSON.quote(text, escaping, to: &out) }
        switch value {
        case .null, .request: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .int(let number): out += String(number)
        case .double(let number):
            // Jackson writes what is not finite as text ("Infinity"), json-smart as null.
            if number.isFinite { out += TemplateNumber.javaText(of: number) }
            else if escaping == .jackson { quote(TemplateNumber.javaText(of: number), to: &out) }
            else { out += "null" }
        case .bigNumber(let text): out += TemplateNumber.bigDecimalText(text, plain: plain) ?? text
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

    /// `text` as a JSON string, in quotes, escaped as `escaping` says.
    static func quote(_ text: String, _ escaping: Escaping, to out: inout String) {
        // Most text needs no escape: it goes whole.
        let plain = text.utf8.allSatisfy { byte in
            byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
                && (escaping == .jackson || (byte != UInt8(ascii: "/") && byte < 0x7F))
        }
        if plain {
            out += "\"" + text + "\""
            return
        }
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        out.unicodeScalars.append("\"")
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "/" where escaping == .jsonSmart: out += "\\/"
            default:
                let code = scalar.value
                if code < 0x20 || (escaping == .jsonSmart && ((0x7F...0x9F).contains(code) || (0x2000...0x20FF).contains(code))) {
                    out += "\\u"
                    for shift in [12, 8, 4, 0] { out.unicodeScalars.append(hex[Int((code >> UInt32(shift)) & 0xF)]) }
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out.unicodeScalars.append("\"")
    }

    /// A value read by ``JSONPath`` (objects, having no order there, keep their keys sorted).
    package static func value(_ json: JSONValue) -> TemplateValue {
        switch json {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .int(number)
        case .double(let number): return .double(number)
        case .decimal(let text): return .bigNumber(text)
        case .string(let text): return .string(text)
        case .array(let items): return .array(items.map(value), json: true)
        case .object(let members):
            return .object(TemplateObject(members.keys.sorted().map { ($0, value(members[$0]!)) }, json: true))
        }
    }

    /// A document `jsonPath` reads, as a value: text (and a value that prints as text) parsed as WireMock's
    /// JSONPath reads it (json-smart: big integers and long decimals kept, `1e400` infinite), the request as a map,
    /// other values as they are; `nil` for text that is not JSON.
    static func document(_ value: TemplateValue, request: () -> TemplateValue) -> TemplateValue? {
        switch value {
        case .null: return nil
        case .request: return request()
        case .string(let text): return parse(text.trimmingCharacters(in: .whitespacesAndNewlines), json: true, jsonSmart: true)
        case .multi(let multi):
            if let text = multi.text { return document(.string(text), request: request) }
            return multi.values.count == 1 ? document(multi.values[0], request: request) : .array(multi.values, json: true)
        default: return value
        }
    }

    /// A document (``document(_:request:)``) as ``JSONValue``, for ``JSONPath`` to select in; text inside stays text.
    static func selectable(_ value: TemplateValue) -> JSONValue {
        switch value {
        case .null, .request: return .null
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .int(number)
        case .double(let number): return .double(number)
        case .bigNumber(let text): return Self.exactNumber(text)
        case .string(let text): return .string(text)
        case .date: return .string(value.text)
        case .multi(let multi):
            if let text = multi.text { return .string(text) }
            return multi.values.count == 1 ? selectable(multi.values[0]) : .array(multi.values.map(selectable))
        case .array(let items, _): return .array(items.map(selectable))
        case .object(let object):
            var members: [String: JSONValue] = [:]
            for (key, item) in object.pairs { members[key] = selectable(item) }
            return .object(members)
        }
    }

    /// Where ``JSONPath`` goes from `value` (a document, as ``selectable(_:)`` makes it), in the document.
    static func inside(_ value: TemplateValue, _ member: JSONPath.Member) -> TemplateValue? {
        switch (value, member) {
        case (.object(let object), .name(let name)): return object[name]
        case (.array(let items, _), .index(let index)): return items.indices.contains(index) ? items[index] : nil
        case (.multi(let multi), _) where multi.text == nil:
            return multi.values.count == 1 ? inside(multi.values[0], member) : inside(.array(multi.values, json: true), member)
        default: return nil
        }
    }

    /// The object several names at the end of a path select (`$.user['name','id']`), its members in the path's order.
    static func merged(_ parts: [(String, JSONValue, TemplateValue?)]) -> TemplateValue? {
        .object(TemplateObject(parts.map { ($0.0, $0.2 ?? value($0.1)) }))
    }

    /// Places to take out of a document, as a tree of members, each taken out as Jayway's JSONPath deletes: the
    /// members of an object by name; the elements of one list by index from the highest down, each index at the
    /// time it is taken (so an index given twice takes out the element after it too).
    struct Removals {
        /// How many times this place was selected.
        private var times = 0
        private var inside: [JSONPath.Member: Removals] = [:]

        init() {}

        mutating func add(_ place: [JSONPath.Member]) {
            add(place[...])
        }

        private mutating func add(_ place: ArraySlice<JSONPath.Member>) {
            guard let first = place.first else { times += 1; return }
            inside[first, default: Removals()].add(place.dropFirst())
        }

        /// `value` without the places added; `nil` where a list has fewer elements than an index taken out.
        func applied(to value: TemplateValue) -> TemplateValue? {
            switch value {
            case .object(let object):
                var kept = TemplateObject(json: object.json, caseInsensitive: object.caseInsensitive)
                for (key, item) in object.pairs {
                    guard let below = inside[.name(key)] else { kept[key] = item; continue }
                    if below.times > 0 { continue }
                    guard let changed = below.applied(to: item) else { return nil }
                    kept[key] = changed
                }
                return .object(kept)
            case .array(let items, let json):
                // Each index taken, highest first; one taken again is the next element still there above it.
                var gone = Set<Int>()
                let taken = inside.compactMap { member, below -> (Int, Int)? in
                    if case .index(let index) = member, below.times > 0 { (index, below.times) } else { nil }
                }
                for (index, times) in taken.sorted(by: { $0.0 > $1.0 }) {
                    for _ in 0..<times {
                        guard index >= 0, index < items.count - gone.count else { return nil }
                        var original = index
                        while gone.contains(original) { original += 1 }
                        gone.insert(original)
                    }
                }
                var kept: [TemplateValue] = []
                kept.reserveCapacity(items.count - gone.count)
                for (index, item) in items.enumerated() where !gone.contains(index) {
                    guard let below = inside[.index(index)] else { kept.append(item); continue }
                    guard let changed = below.applied(to: item) else { return nil }
                    kept.append(changed)
                }
                return .array(kept, json: json)
            default:
                return value
            }
        }
    }

    /// The keys of an object of a document, in its order.
    static func keys(_ value: TemplateValue) -> [String]? {
        switch value {
        case .object(let object): return object.keys
        case .multi(let multi) where multi.text == nil && multi.values.count == 1: return keys(multi.values[0])
        default: return nil
        }
    }

    /// What `jsonPath` selected, as WireMock's JSONPath gives it: objects are maps (alone, one prints as Java prints
    /// a map, `{a=1}`), lists JSON arrays (`[1,2]`) as json-smart reads them from text, or Java lists (`[1, 2]`) in
    /// a document given as a value (`parseJson`'s); in the document's order, its numbers as it read them.
    static func selected(_ json: JSONValue, _ view: TemplateValue?, javaLists: Bool = false) -> TemplateValue {
        guard let view else { return value(json) }
        return asRead(view, javaLists: javaLists)
    }

    /// A value of a document as ``selected(_:_:javaLists:)`` gives it, each part converted once.
    private static func asRead(_ view: TemplateValue, javaLists: Bool) -> TemplateValue {
        switch view {
        case .object(let object): return .object(TemplateObject(object.pairs.map { ($0.0, asRead($0.1, javaLists: javaLists)) }))
        case .array(let items, _): return .array(items.map { asRead($0, javaLists: javaLists) }, json: !javaLists)
        case .null, .bool, .int, .double, .bigNumber, .string: return view
        case .multi, .date, .request: return value(selectable(view))
        }
    }

    /// The value as ``JSONValue``, for ``JSONPath``; text that holds JSON is parsed.
    static func jsonValue(_ value: TemplateValue) -> JSONValue? {
        switch value {
        case .null, .request: return .null
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .int(number)
        case .double(let number): return .double(number)
        case .bigNumber(let text): return Self.exactNumber(text)
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
        /// Numbers as json-smart reads them for WireMock's JSONPath: an integer past 64 bits and a decimal of more
        /// than 18 characters exactly (Java's `BigInteger` and `BigDecimal`), others as `double`, infinite too.
        let jsonSmart: Bool
        var index = 0

        init(bytes: [UInt8], json: Bool, jsonSmart: Bool) {
            self.bytes = bytes
            self.json = json
            self.jsonSmart = jsonSmart
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
            if jsonSmart {
                if whole, text.utf8.dropFirst(text.hasPrefix("-") ? 1 : 0).allSatisfy({ (48...57).contains($0) }) { return .bigNumber(text) }
                if !whole, text.utf8.count > 18, TemplateNumber.bigDecimalText(text) != nil { return .bigNumber(text) }
                return Double(text).map(TemplateValue.double)
            }
            if whole { return text.utf8.dropFirst(text.hasPrefix("-") ? 1 : 0).allSatisfy({ (48...57).contains($0) }) ? .bigNumber(text) : nil }
            return TemplateNumber.bigDecimalText(text) != nil ? .bigNumber(text) : nil
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

    /// A number json-smart kept past a double (a `BigInteger`, a `BigDecimal`), with every digit, for ``JSONPath``'s
    /// filters to compare exactly (as Jayway does) with their literals, which it reads exactly too.
    static func exactNumber(_ text: String) -> JSONValue {
        JSONValue.number(text, isWhole: !text.contains { $0 == "." || $0 == "e" || $0 == "E" }) ?? .double(Double(text) ?? 0)
    }
}
