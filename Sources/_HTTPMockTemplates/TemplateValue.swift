import Foundation
import _HTTPMockJSON

/// A value a WireMock (Handlebars) template works with: what a path names, a literal, a helper's result.
///
/// Printing follows WireMock (Handlebars.java): `null` is empty, lists print as `[a, b]` and maps as `{a=1}` (as
/// Java prints them), except values a JSON helper produced (`jsonPath`), which print as compact JSON.
package indirect enum TemplateValue: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    /// A number of a JSON document that `jsonPath` reads past what `int` and `double` hold, as WireMock's JSONPath
    /// (json-smart) keeps it: an integer past 64 bits, a decimal of more than 18 characters. It holds the number as
    /// the document wrote it, prints as Java prints a `BigInteger` or `BigDecimal` (`1E-21`), in Jackson's JSON
    /// without an exponent (`0.000000000000000000001`), and counts as the nearest `Double`.
    case bigNumber(String)
    case string(String)
    /// A list; `json` when it prints as JSON (`["a","b"]`) rather than as Java prints a list (`[a, b]`).
    case array([TemplateValue], json: Bool)
    case object(TemplateObject)
    /// A value that can be one or many (a query parameter, a header, a cookie, a form field, the path): it prints
    /// as its first value, and `.[n]`, `first`, `last` and `each` reach all of them.
    case multi(TemplateMulti)
    case date(TemplateDate)
    /// The request model (`request`), whose attributes are read when a template names them.
    case request

    package static func list(_ items: [TemplateValue]) -> TemplateValue { .array(items, json: false) }

    /// A list of strings that prints as its first value.
    package static func multi(_ texts: [String]) -> TemplateValue { .multi(TemplateMulti(values: texts.map { .string($0) })) }
}

/// Keys in their order, each with a value; keys may be compared without regard to case (headers).
package struct TemplateObject: Sendable {
    private(set) var keys: [String] = []
    private(set) var values: [String: TemplateValue] = [:]
    var json = false
    /// Prints indented, without its null members, as WireMock prints an object `jsonPath` selects.
    var pretty = false
    var caseInsensitive = false

    package init(json: Bool = false, caseInsensitive: Bool = false) {
        self.json = json
        self.caseInsensitive = caseInsensitive
    }

    package init(_ pairs: [(String, TemplateValue)], json: Bool = false, caseInsensitive: Bool = false) {
        self.init(json: json, caseInsensitive: caseInsensitive)
        for (key, value) in pairs { self[key] = value }
    }

    var count: Int { keys.count }

    package subscript(key: String) -> TemplateValue? {
        get {
            if let value = values[key] { return value }
            guard caseInsensitive else { return nil }
            return keys.first { $0.caseInsensitiveCompare(key) == .orderedSame }.flatMap { values[$0] }
        }
        set {
            if let newValue {
                if values.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if values.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    var pairs: [(String, TemplateValue)] { keys.map { ($0, values[$0]!) } }
}

/// One or many values. `text`, when set, is what it prints as (the request's path prints as the path, while its
/// items are the segments); `named` holds values reached by name (the variables of a `urlPathTemplate`).
package struct TemplateMulti: Sendable {
    var values: [TemplateValue]
    var text: String? = nil
    var named: [String: TemplateValue] = [:]

    package init(values: [TemplateValue], text: String? = nil, named: [String: TemplateValue] = [:]) {
        self.values = values
        self.text = text
        self.named = named
    }

    /// The item at `index`; a negative index counts back from the end as WireMock's documentation shows it
    /// (`things.[-1]` of `1, 2, 3` is `2`).
    func item(_ index: Int) -> TemplateValue? {
        let position = index < 0 ? values.count + index - 1 : index
        return values.indices.contains(position) ? values[position] : nil
    }
}

/// A moment, with the zone and format it prints in (ISO 8601 in UTC when neither is given).
package struct TemplateDate: Sendable {
    var date: Date
    var format: String? = nil
    var timeZone: TimeZone? = nil
}

extension TemplateValue {
    /// Whether Handlebars takes the value as false: null, `false`, `""`, `0`, an empty list or map.
    var isEmpty: Bool {
        switch self {
        case .null: return true
        case .bool(let flag): return !flag
        case .int(let number): return number == 0
        case .double(let number): return number == 0 || number.isNaN
        case .bigNumber(let text): return Double(text) == 0
        case .string(let text): return text.isEmpty
        case .array(let items, _): return items.isEmpty
        case .object(let object): return object.count == 0
        case .multi(let multi): return multi.values.isEmpty && multi.text == nil
        case .date, .request: return false
        }
    }

    /// The value a comparison or a string helper sees: the first of a multi-value, the value itself otherwise.
    var single: TemplateValue {
        if case .multi(let multi) = self {
            if let text = multi.text { return .string(text) }
            return multi.values.first ?? .null
        }
        return self
    }

    /// The items `each`, `size` and the list helpers see; `nil` for a value that is not a collection.
    var items: [TemplateValue]? {
        switch self {
        case .array(let items, _): return items
        case .multi(let multi): return multi.values
        case .object(let object): return object.keys.map { object[$0]! }
        default: return nil
        }
    }

    /// How deeply lists and maps nest in it (a scalar is 0), counted up to `limit` (past it, `limit + 1`).
    func depth(limit: Int) -> Int {
        guard limit >= 0 else { return 1 }
        let children: [TemplateValue]
        switch self {
        case .array(let items, _): children = items
        case .object(let object): children = object.keys.map { object[$0]! }
        case .multi(let multi): children = multi.values + Array(multi.named.values)
        default: return 0
        }
        var deepest = 0
        for child in children {
            if case .array = child {} else if case .object = child {} else if case .multi = child {} else { continue }
            deepest = max(deepest, child.depth(limit: limit - 1))
            if deepest >= limit { break }
        }
        return deepest + 1
    }

    /// The value as a number: numbers, and text that reads as one.
    var number: TemplateNumber? {
        switch single {
        case .int(let number): return .int(number)
        case .double(let number): return number.isFinite ? .double(number) : nil
        case .bigNumber(let text): return Double(text).flatMap { $0.isFinite ? .double($0) : nil }
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if let number = Int(trimmed) { return .int(number) }
            if let number = Double(trimmed), number.isFinite, trimmed.contains(where: \.isNumber) { return .double(number) }
            return nil
        case .bool(let flag): return .int(flag ? 1 : 0)
        default: return nil
        }
    }

    /// The text the value prints as.
    var text: String {
        switch self {
        case .null: return ""
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .double(let number): return TemplateNumber.javaText(of: number)
        case .bigNumber(let text): return TemplateNumber.bigDecimalText(text) ?? text
        case .string(let text): return text
        case .array(let items, let json):
            return json ? TemplateJSON.write(self, pretty: false, escaping: .jsonSmart) : "[" + items.map(\.javaText).joined(separator: ", ") + "]"
        case .object(let object):
            if object.json { return TemplateJSON.write(self, pretty: object.pretty, omittingNulls: object.pretty) }
            return "{" + object.pairs.map { "\($0.0)=\($0.1.javaText)" }.joined(separator: ", ") + "}"
        case .multi(let multi): return multi.text ?? multi.values.first?.text ?? ""
        case .date(let date): return TemplateDates.text(date)
        case .request: return "request"
        }
    }

    /// The text inside a Java collection: `null` prints as `null` there.
    private var javaText: String {
        if case .null = self { return "null" }
        return text
    }
}

/// A number read from a value: whole numbers stay whole.
package enum TemplateNumber: Sendable {
    case int(Int)
    case double(Double)

    var double: Double {
        switch self {
        case .int(let number): Double(number)
        case .double(let number): number
        }
    }

    var value: TemplateValue {
        switch self {
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        }
    }

    /// A decimal as WireMock prints one (Java's `Double.toString`): `2.0`, `0.001`, `1.5E-7`, `9.223372036854776E18`.
    static func javaText(of number: Double) -> String {
        guard number.isFinite else { return number.isNaN ? "NaN" : number < 0 ? "-Infinity" : "Infinity" }
        if number == 0 { return number.sign == .minus ? "-0.0" : "0.0" }
        let (digits, point) = shortestDigits(of: abs(number))
        let sign = number < 0 ? "-" : ""
        if abs(number) >= 1e-3, abs(number) < 1e7 {
            if point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + digits }
            if digits.count <= point { return sign + digits + String(repeating: "0", count: point - digits.count) + ".0" }
            return sign + digits.prefix(point) + "." + digits.dropFirst(point)
        }
        let rest = digits.dropFirst()
        return sign + digits.prefix(1) + "." + (rest.isEmpty ? "0" : rest) + "E" + String(point - 1)
    }

    /// The shortest digits that read back as `magnitude` (positive), and where the point goes: `0.d1d2… × 10^point`.
    static func shortestDigits(of magnitude: Double) -> (digits: String, point: Int) {
        let text = "\(magnitude)"
        var mantissa = Substring(text), exponent = 0
        if let mark = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<mark]
            exponent = Int(text[text.index(after: mark)...]) ?? 0
        }
        let whole = mantissa.prefix { $0 != "." }
        let fraction = mantissa.dropFirst(whole.count + 1)
        var digits = String(whole + fraction), point = whole.count + exponent
        while digits.first == "0" { digits.removeFirst(); point -= 1 }
        while digits.last == "0" { digits.removeLast() }
        return (digits, point)
    }

    /// A number written as `text` (JSON's grammar) as Java's `BigDecimal.toString` prints it: its digits with the
    /// point where the text puts it (`1.000e5` is `100.0`), or `1E-21` past six zeros after the point or with a
    /// negative scale; `plain`, as `toPlainString` does, without an exponent (but past a thousand zeros). `nil` when
    /// `text` is no number.
    static func bigDecimalText(_ text: String, plain: Bool = false) -> String? {
        var mantissa = Substring(text), exponent = 0
        if let mark = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<mark]
            var written = text[text.index(after: mark)...]
            if written.hasPrefix("+") { written = written.dropFirst() }
            guard let value = Int(written), value.magnitude < 1_000_000_000 else { return nil }
            exponent = value
        }
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa = mantissa.dropFirst() }
        let parts = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, parts.count <= 2,
              (whole + (parts.count > 1 ? parts[1] : "")).allSatisfy(\.isASCII), (whole + (parts.count > 1 ? parts[1] : "")).allSatisfy(\.isNumber) else { return nil }
        let fraction = parts.count > 1 ? parts[1] : ""
        var digits = String(whole + fraction).drop { $0 == "0" }
        if digits.isEmpty { digits = "0" }
        let scale = fraction.count - exponent
        let adjusted = -scale + (digits.count - 1)
        // BigDecimal has no negative zero.
        let sign = negative && digits != "0" ? "-" : ""
        // Plain text of an exponent in the thousands would be as many digits: such a number keeps its exponent.
        let plain = plain && abs(scale) <= 1_000
        if plain, scale <= 0 { return sign + digits + String(repeating: "0", count: digits == "0" ? 0 : -scale) }
        if scale >= 0, adjusted >= -6 || plain {
            guard scale > 0 else { return sign + digits }
            if digits.count > scale { return sign + digits.dropLast(scale) + "." + digits.suffix(scale) }
            return sign + "0." + String(repeating: "0", count: scale - digits.count) + digits
        }
        let rest = digits.dropFirst()
        return sign + digits.prefix(1) + (rest.isEmpty ? "" : "." + rest) + "E" + (adjusted > 0 ? "+" : "") + String(adjusted)
    }

    /// The number of digits after the point of a decimal written as `text` (Java's `BigDecimal` scale): `2` for
    /// `9.00`, `6` for `1.0E-5`, `-6` for `1.0E7`.
    static func scale(ofDecimal text: Substring) -> Int {
        var mantissa = text, exponent = 0
        if let mark = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<mark]
            exponent = Int(text[text.index(after: mark)...]) ?? 0
        }
        let fraction = mantissa.firstIndex(of: ".").map { mantissa.distance(from: $0, to: mantissa.endIndex) - 1 } ?? 0
        return fraction - exponent
    }
}
