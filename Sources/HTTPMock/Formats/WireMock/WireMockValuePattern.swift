import Foundation
import _HTTPMockJSON
import _HTTPMockXML
import _HTTPMockRegex

/// A WireMock value pattern (`{"equalTo": "x"}`, `{"matches": "[0-9]+"}`, `{"absent": true}`, `{"and": […]}`,
/// and for bodies `equalToJson`, `matchesJsonPath`, `binaryEqualTo`), reduced to a few tests that translate onto
/// the one matcher vocabulary (``WireMockValuePattern/match(_:)``).
///
/// As in WireMock, a test of a value fails when the value is missing, but for `absent` and the negations
/// (`doesNotContain`, `doesNotMatch`, `not`), which a missing header, parameter or body meets (a missing cookie
/// meets none).
indirect enum WireMockValuePattern: Sendable {
    /// The value equals this text.
    case equal(String)
    /// The value contains a match of this regular expression (anchored by the decoder where WireMock matches
    /// the whole value).
    case regex(String)
    case present
    case not(WireMockValuePattern)
    case all([WireMockValuePattern])
    case any([WireMockValuePattern])
    /// Bodies: JSON equal to this value.
    case json(JSONValue, JSONComparison)
    /// Bodies: the JSONPath selects something (that meets the pattern, if one is given).
    case jsonPath(JSONPath, WireMockValuePattern?)
    /// Bodies: exactly these bytes.
    case bytes(Data)
    /// A value passes a test the vocabulary has no word for (`greaterThanNumber 5`, a date, a JSON Schema, XML);
    /// `heavy`: the test may take long (it then runs outside the engine's lock).
    case test(String, @Sendable (String) -> Bool, heavy: Bool)
    /// `hasExactly` (`true`) or `includes`: each pattern is met by one of the values (and, for `hasExactly`, each
    /// value meets one of the patterns).
    case multiple(exactly: Bool, [WireMockValuePattern])

    static let operators = ["equalTo", "contains", "doesNotContain", "matches", "doesNotMatch", "absent", "and", "or", "not",
                            "equalToJson", "matchesJsonPath", "binaryEqualTo", "anything", "hasExactly", "includes",
                            "before", "after", "equalToDateTime", "equalToXml", "matchesXPath", "matchesJsonSchema"]
                            + numberOperators.map(\.name)
    /// WireMock's number patterns: the value, read as a number, compared with the operand.
    static let numberOperators: [(name: String, symbol: String, holds: @Sendable (Double, Double) -> Bool)] = [
        ("equalToNumber", "=", { $0 == $1 }), ("greaterThanNumber", ">", { $0 > $1 }), ("greaterThanEqualNumber", ">=", { $0 >= $1 }),
        ("lessThanNumber", "<", { $0 < $1 }), ("lessThanEqualNumber", "<=", { $0 <= $1 }),
    ]
    static let modifiers = ["caseInsensitive", "ignoreArrayOrder", "ignoreExtraElements"]
    static let operatorSet = Set(operators)
    /// Every key a value pattern may have.
    static let knownKeys = operators + modifiers + WireMockDateTime.keys + xmlModifiers + ["expression", "schemaVersion"]
    /// The modifiers of `equalToXml` and `matchesXPath`.
    static let xmlModifiers = ["enablePlaceholders", "placeholderOpeningDelimiterRegex", "placeholderClosingDelimiterRegex",
                               "exemptedComparisons", "ignoreOrderOfSameNode", "namespaceAwareness", "xPathNamespaces"]

    /// Reads the pattern at `node`. Body-only operators are refused unless `body` is set.
    static func decode(_ node: WireMockNode, body: Bool) throws(HTTPMockError) -> WireMockValuePattern {
        guard case .object(let written) = node.value else {
            throw node.error("expected a value pattern such as {\"equalTo\": \"…\"}, not \(node.kind)")
        }
        // A modifier given null is left out (`"caseInsensitive": null` is false, as in WireMock); an operator given
        // null tests nothing that can be named (WireMock refuses most, and takes `"absent": null` as true and
        // `"equalToJson": null` as met by no body): refused, never read as a test every value meets.
        if written.values.contains(.null), let key = operators.first(where: { written[$0] == .null }) {
            throw node.child(key, of: written)!.error("\"\(key)\" is null; give what it tests, such as {\"\(key)\": \(nullOperandExample(key))}")
        }
        let fields = try node.object(known: knownKeys)
        // The operators given, in the order of ``operators`` (a pattern has one or two keys: look those up).
        let given = fields.count == 1 && operatorSet.contains(fields.keys.first!)
            ? [fields.keys.first!] : operators.filter { fields[$0] != nil }
        guard given.count == 1, let kind = given.first else {
            throw node.error(given.isEmpty
                ? "a value pattern needs one of: \(operators.joined(separator: ", "))"
                : "a value pattern has one operator, not \(given.map { "\"\($0)\"" }.joined(separator: " and "))")
        }
        let value = node.child(kind, of: fields)!
        // Modifiers and their owners: only a pattern with more than its operator has any.
        if fields.count > 1 {
            for modifier in modifiers where fields[modifier] != nil {
                let allowed = modifier == "caseInsensitive" ? ["equalTo"] : ["equalToJson"]
                guard allowed.contains(kind) else { throw node.error("\"\(modifier)\" applies to \"\(allowed[0])\", not to \"\(kind)\"") }
            }
            if fields["expression"] != nil { throw node.error("\"expression\" belongs inside \"matchesJsonPath\"") }
            for modifier in xmlModifiers where fields[modifier] != nil {
                let owner = modifier == "xPathNamespaces" ? "matchesXPath" : "equalToXml"
                guard kind == owner else { throw node.error("\"\(modifier)\" applies to \"\(owner)\", not to \"\(kind)\"") }
            }
            if fields["schemaVersion"] != nil, kind != "matchesJsonSchema" {
                throw node.error("\"schemaVersion\" applies to \"matchesJsonSchema\", not to \"\(kind)\"")
            }
            let dates = ["before", "after", "equalToDateTime"]
            for modifier in WireMockDateTime.keys where fields[modifier] != nil && !dates.contains(kind) {
                throw node.error("\"\(modifier)\" applies to \"before\", \"after\" and \"equalToDateTime\", not to \"\(kind)\"")
            }
        }
        if !body, ["equalToJson", "matchesJsonPath", "binaryEqualTo"].contains(kind) {
            throw node.error("\"\(kind)\" applies to bodyPatterns only")
        }
        switch kind {
        case "equalTo":
            let text = try scalarText(value)
            let ignoresCase = try fields["caseInsensitive"].map { _ throws(HTTPMockError) in try node.child("caseInsensitive", of: fields)!.bool() } ?? false
            return ignoresCase ? .test("equalTo \"\(text)\" (case ignored)", { equalsIgnoringCase($0, text) }, heavy: false) : .equal(text)
        case "contains":
            let text = try scalarText(value)
            // Outside bodies (whose text is read as the body's regular expressions read it) a literal search: no
            // expression compiled for each mapping, and none run for each request.
            // An empty text goes the expression's way too, which refuses it: it would be met by every value.
            return body || text.isEmpty ? .regex(NSRegularExpression.escapedPattern(for: text)) : .contains(text)
        case "doesNotContain":
            let text = try scalarText(value)
            return .not(body || text.isEmpty ? .regex(NSRegularExpression.escapedPattern(for: text)) : .contains(text))
        case "matches":
            return .regex(try anchored(value))
        case "doesNotMatch":
            return .not(.regex(try anchored(value)))
        case "absent":
            // WireMock reads any value of `absent` as `true` (`"absent": false` too): the part is not there.
            _ = try value.bool()
            return .not(.present)
        case "and", "or":
            var parts: [WireMockValuePattern] = []
            for element in try value.elements() { parts.append(try decode(element, body: body)) }
            if parts.isEmpty { throw value.error("\"\(kind)\" needs at least one pattern") }
            return kind == "and" ? .all(parts) : .any(parts)
        case "not":
            return .not(try decode(value, body: body))
        case "equalToJson":
            var comparison = JSONComparison()
            if let flag = node.child("ignoreArrayOrder", of: fields) { comparison.ignoresArrayOrder = try flag.bool() }
            if let flag = node.child("ignoreExtraElements", of: fields) { comparison.ignoresExtraElements = try flag.bool() }
            let expected = try jsonValue(value)
            return .json(expected, comparison.prepared(for: expected))
        case "matchesJsonPath":
            return try jsonPath(value)
        case "before", "after", "equalToDateTime":
            let moment = try WireMockDateTime(WireMockDateTime.Comparison(rawValue: kind)!, value: value, fields: fields, in: node)
            return .test(moment.description, { moment.holds($0) }, heavy: true)
        case "equalToXml":
            return try xml(value, fields: fields, in: node)
        case "matchesXPath":
            return try xPath(value, fields: fields, in: node, body: body)
        case "matchesJsonSchema":
            return try jsonSchema(value, version: node.child("schemaVersion", of: fields))
        case "anything":
            // Met by any value, and by none: WireMock's pattern that leaves a part unchecked.
            return .any([.present, .not(.present)])
        case "hasExactly", "includes":
            var parts: [WireMockValuePattern] = []
            for element in try value.elements() { parts.append(try decode(element, body: body)) }
            if parts.isEmpty { throw value.error("\"\(kind)\" needs at least one pattern") }
            return .multiple(exactly: kind == "hasExactly", parts)
        case let name where name.hasSuffix("Number"):
            let comparison = numberOperators.first { $0.name == name }!
            let operand: Double
            switch value.value {
            case .int(let whole): operand = Double(whole)
            case .double(let number): operand = number
            case .decimal(let text): operand = Double(text) ?? 0
            case .string(let text) where Double(text.trimmingCharacters(in: .whitespaces)) != nil:
                operand = Double(text.trimmingCharacters(in: .whitespaces))!
            default: throw value.error("expected a number, not \(value.kind)")
            }
            let holds = comparison.holds
            let written = operand == operand.rounded() && abs(operand) < 1e15 ? String(Int64(operand)) : String(operand)
            return .test("\(comparison.symbol) \(written)", { text in
                Double(text.trimmingCharacters(in: .whitespaces)).map { holds($0, operand) } ?? false
            }, heavy: false)
        default: // binaryEqualTo
            guard let data = Base64.decode(try value.string()) else { throw value.error("the text is not valid base64") }
            return .bytes(data)
        }
    }

    /// `equalToXml`: the value is XML equal to this document (whitespace between elements, attribute order and
    /// namespace prefixes aside), with WireMock's placeholders and exemptions.
    private static func xml(_ value: WireMockNode, fields: [String: JSONValue], in node: WireMockNode) throws(HTTPMockError) -> WireMockValuePattern {
        let expected = try value.string()
        var placeholders: (opening: String, closing: String)?
        if try node.child("enablePlaceholders", of: fields)?.bool() == true {
            placeholders = (try node.child("placeholderOpeningDelimiterRegex", of: fields)?.string() ?? "\\$\\{",
                            try node.child("placeholderClosingDelimiterRegex", of: fields)?.string() ?? "\\}")
        }
        var exempted = Set<String>()
        if let list = node.child("exemptedComparisons", of: fields) {
            for element in try list.elements() { exempted.insert(try element.string()) }
        }
        if let awareness = node.child("namespaceAwareness", of: fields) {
            let mode = try awareness.string()
            guard ["LEGACY", "STRICT", "NONE"].contains(mode) else { throw awareness.error("expected \"STRICT\", \"LEGACY\" or \"NONE\", not \(awareness.kind)") }
        }
        let ignoresOrder = try node.child("ignoreOrderOfSameNode", of: fields)?.bool() ?? false
        let comparison: XMLComparison
        do {
            comparison = try XMLComparison(expected: expected, placeholders: placeholders, exempted: exempted, ignoresOrderOfSameNode: ignoresOrder)
        } catch {
            throw value.error(error.message)
        }
        return .test("equalToXml \(expected.clipped(to: 60))", { comparison.matches(Data($0.utf8)) }, heavy: true)
    }

    /// `matchesXPath`: the expression selects something in the XML value (that meets the pattern beside it, if
    /// one is given: `{"expression": "//id/text()", "equalTo": "7"}`); `xPathNamespaces` names its prefixes. As in
    /// WireMock, the pattern is given a selected element as its XML, printed as WireMock prints it (`<id>7</id>` and
    /// a line break), an attribute or a text as its value; and only nodes count: an expression whose value is a
    /// number, a string or a truth (`count(//id) = 2`) matches nothing, in WireMock as here.
    private static func xPath(_ value: WireMockNode, fields: [String: JSONValue], in node: WireMockNode,
                              body: Bool) throws(HTTPMockError) -> WireMockValuePattern {
        var namespaces: [String: String] = [:]
        if let declared = node.child("xPathNamespaces", of: fields) {
            for (prefix, uri) in try declared.members() { namespaces[prefix] = try uri.string() }
        }
        var textNode = value
        var inner: (@Sendable (String?) -> Bool)?
        if case .object(var object) = value.value {
            guard let expression = value.child("expression", of: object) else {
                throw value.error("\"matchesXPath\" is an XPath string or an object with \"expression\" and a value pattern")
            }
            textNode = expression
            object["expression"] = nil
            inner = try decode(WireMockNode(value: .object(object), path: value.path, place: value.place), body: body).test()
        }
        let text = try textNode.string()
        let expression: XPathExpression
        do { expression = try XPathExpression(text, namespaces: namespaces) } catch { throw textNode.error(error.message) }
        let test = inner
        return .test("matchesXPath \(text)", { document in
            guard let selected = expression.selects(Data(document.utf8), asWireMock: true) else { return false }
            guard let test else { return !selected.isEmpty }
            return selected.contains { test($0) }
        }, heavy: true)
    }

    /// `matchesJsonSchema`: the value is JSON (a text that is not JSON is a string) valid against the schema, given
    /// as JSON or as JSON in a string. `schemaVersion` as WireMock names drafts: `V4`, `V6`, `V7`, `V201909`,
    /// `V202012` (the default), each read with its own draft's rules; a `"$schema"` in the schema wins.
    private static func jsonSchema(_ value: WireMockNode, version: WireMockNode?) throws(HTTPMockError) -> WireMockValuePattern {
        let schema = try jsonValue(value)
        let name = try version?.string() ?? "V202012"
        let draft: JSONSchema.Draft
        switch name {
        case "V4": draft = .draft4
        case "V6": draft = .draft6
        case "V7": draft = .draft7
        case "V201909": draft = .draft2019_09
        case "V202012": draft = .draft2020_12
        default: throw version!.error("\"\(name)\" is not a schema version; use V4, V6, V7, V201909 or V202012")
        }
        let compiled: JSONSchema
        do {
            compiled = try JSONSchema(schema, draft: draft)
        } catch {
            throw value.error(error.message)
        }
        return .test("matchesJsonSchema", { text in
            compiled.validates(JSONValue.parse(Data(text.utf8)) ?? .string(text))
        }, heavy: true)
    }

    /// `caseInsensitive`, as Java's `String.equalsIgnoreCase` compares: character by character, each pair equal, or
    /// equal in upper case, or in the lower case of their upper case, each character mapped alone (`ß` is not `SS`,
    /// `ı` is `I`).
    static func equalsIgnoringCase(_ lhs: String, _ rhs: String) -> Bool {
        func upper(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
            single(scalar.properties.uppercaseMapping) ?? scalar
        }
        func lower(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
            // The one character whose lower case alone is not its full lower case (`i` and a combining dot).
            scalar == "\u{130}" ? "i" : single(scalar.properties.lowercaseMapping) ?? scalar
        }
        func single(_ mapping: String) -> Unicode.Scalar? {
            var scalars = mapping.unicodeScalars.makeIterator()
            guard let first = scalars.next(), scalars.next() == nil else { return nil }
            return first
        }
        guard lhs.unicodeScalars.count == rhs.unicodeScalars.count else { return false }
        return zip(lhs.unicodeScalars, rhs.unicodeScalars).allSatisfy { a, b in
            if a == b { return true }
            let (upperA, upperB) = (upper(a), upper(b))
            return upperA == upperB || lower(upperA) == lower(upperB)
        }
    }

    /// WireMock compares numbers and booleans given to `equalTo` as their text.
    private static func scalarText(_ node: WireMockNode) throws(HTTPMockError) -> String {
        switch node.value {
        case .string(let text): return text
        case .int, .double, .decimal, .bool: return node.value.description
        default: throw node.error("expected a string, not \(node.kind)")
        }
    }

    /// WireMock's `matches` is a match of the whole value, with `.` matching line breaks too (WireMock compiles its
    /// patterns with Java's DOTALL), read as Java reads it (``JavaRegex``): `(?s)\A(?:pattern)\z`, checked to compile.
    static func anchored(_ node: WireMockNode) throws(HTTPMockError) -> String {
        let pattern = try node.string()
        if pattern.isEmpty { throw node.error("the regular expression is empty; write what to match") }
        let translated = JavaRegex.icu(pattern)
        do { _ = try NSRegularExpression(pattern: translated) } catch {
            throw node.error("the regular expression \"\(pattern)\" does not compile (check brackets, parentheses and escapes; write a literal dot as \\.)")
        }
        return "(?s)\\A(?:" + translated + ")\\z"
    }

    /// `equalToJson` takes JSON, or JSON written in a string.
    private static func jsonValue(_ node: WireMockNode) throws(HTTPMockError) -> JSONValue {
        guard case .string(let text) = node.value else { return node.value }
        guard let value = JSONValue(data: Data(text.utf8)) else {
            throw node.error("the string is not JSON (\(JSONSyntax.locate(in: Data(text.utf8)).detail)); write the JSON itself, or fix the text")
        }
        return value
    }

    /// `"$.a"` or `{"expression": "$.a", "equalTo": "x"}` (any value pattern beside the expression).
    private static func jsonPath(_ node: WireMockNode) throws(HTTPMockError) -> WireMockValuePattern {
        func compile(_ node: WireMockNode) throws(HTTPMockError) -> JSONPath {
            let text = try node.string()
            do { return try JSONPath(text) } catch { throw node.error(error.message) }
        }
        guard case .object(var object) = node.value else { return .jsonPath(try compile(node), nil) }
        guard let expression = node.child("expression", of: object) else {
            throw node.error("\"matchesJsonPath\" is a JSONPath string or an object with \"expression\" and a value pattern")
        }
        object["expression"] = nil
        let pattern = try decode(WireMockNode(value: .object(object), path: node.path, place: node.place), body: true)
        return .jsonPath(try compile(expression), pattern)
    }
}

extension WireMockValuePattern {
    /// A value that holds `text`: the same code points in a row (what an expression of `text` escaped finds).
    static func contains(_ text: String) -> WireMockValuePattern {
        let needle = Array(text.utf8)
        return .test("contains \"\(text)\"", { value in
            guard !needle.isEmpty else { return true }
            var value = value
            return value.withUTF8 { bytes in
                guard bytes.count >= needle.count else { return false }
                let first = needle[0]
                var index = 0
                let last = bytes.count - needle.count
                while index <= last {
                    if bytes[index] == first {
                        var offset = 1
                        while offset < needle.count, bytes[index + offset] == needle[offset] { offset += 1 }
                        if offset == needle.count { return true }
                    }
                    index += 1
                }
                return false
            }
        }, heavy: false)
    }
}

extension WireMockValuePattern {
    /// An operand of the operator `key`, as an error shows it.
    static func nullOperandExample(_ key: String) -> String {
        switch key {
        case "absent": "true"
        case "and", "or", "hasExactly", "includes": "[{\"equalTo\": \"…\"}]"
        case "not": "{\"equalTo\": \"…\"}"
        case "anything": "\"anything\""
        case "equalToJson": "{\"id\": 1}"
        case "matchesJsonPath": "\"$.id\""
        case "matchesJsonSchema": "{\"type\": \"object\"}"
        case "before", "after", "equalToDateTime": "\"now\""
        case let name where name.hasSuffix("Number"): "5"
        default: "\"…\""
        }
    }
}
