import Foundation

/// The keywords that check the value itself, without subschemas: each adds at most one violation (`required` and
/// `dependentRequired` one for each missing member), and ignores values of a type it is not about.
extension JSONSchema.Evaluator {
    func check(_ keyword: Keyword, _ instance: JSONValue, at path: String, into report: inout Report) {
        func fail(_ name: String, _ message: String) { report.add(path, name, message) }
        switch (keyword, instance) {
        case (.type(let types), _):
            if !types.contains(where: { $0.includes(instance) }) {
                fail("type", "expected \(Self.list(types.map(\.phrase), or: true)), not \(instance.schemaKind)")
            }
        case (.enumeration(let values), _):
            if !values.contains(where: { $0.matches(instance) }) {
                let allowed = values.prefix(10).map { $0.description.clipped(to: 40) }.joined(separator: ", ") + (values.count > 10 ? ", …" : "")
                fail("enum", values.isEmpty ? "no value is allowed (\"enum\" is empty)"
                                            : "\(instance.schemaQuote) is not one of the allowed values: \(allowed)")
            }
        case (.constant(let value), _):
            if !value.matches(instance) {
                fail("const", "\(instance.schemaQuote) is not the required value \(value.description.clipped(to: 60))")
            }
        case (.multipleOf(let divisor), .int), (.multipleOf(let divisor), .double), (.multipleOf(let divisor), .decimal):
            if !Self.isMultiple(instance, of: divisor) { fail("multipleOf", "\(instance) is not a multiple of \(divisor)") }
        case (.bound(let bound), .int), (.bound(let bound), .double), (.bound(let bound), .decimal):
            guard let order = Self.compare(instance, bound.limit) else { break }
            switch (bound.isMaximum, bound.isExclusive) {
            case (true, false) where order > 0: fail(bound.keyword, "\(instance) is greater than the maximum \(bound.limit)")
            case (true, true) where order >= 0: fail(bound.keyword, "\(instance) is not less than the exclusive maximum \(bound.limit)")
            case (false, false) where order < 0: fail(bound.keyword, "\(instance) is less than the minimum \(bound.limit)")
            case (false, true) where order <= 0: fail(bound.keyword, "\(instance) is not greater than the exclusive minimum \(bound.limit)")
            default: break
            }
        // Lengths are in characters as JSON Schema counts them: Unicode code points.
        case (.maxLength(let limit), .string(let text)):
            let length = text.unicodeScalars.count
            if length > limit { fail("maxLength", "\(instance.schemaQuote) is \(length) characters long, more than the maximum length \(limit)") }
        case (.minLength(let limit), .string(let text)):
            let length = text.unicodeScalars.count
            if length < limit {
                fail("minLength", "\(instance.schemaQuote) is \(length) character\(length == 1 ? "" : "s") long, fewer than the minimum length \(limit)")
            }
        case (.pattern(let pattern), .string(let text)):
            if !pattern.isFound(in: text) { fail("pattern", "\(instance.schemaQuote) does not match the pattern \(pattern.source)") }
        case (.format(let format), .string(let text)):
            guard schema.validatesFormats, let check = JSONSchema.FormatCheck.known[format], !check.accepts(text) else { break }
            fail("format", "\(instance.schemaQuote) is not a valid \(format) (\(check.expected))")
        case (.format(let format), .int), (.format(let format), .double), (.format(let format), .decimal):
            guard schema.validatesFormats, let fits = JSONSchema.fitsNumericFormat(format, instance), !fits else { break }
            fail("format", "\(instance.schemaQuote) is not a \(format) (\(JSONSchema.numericFormats[format] ?? format))")
        case (.maxItems(let limit), .array(let items)):
            if items.count > limit { fail("maxItems", "the array has \(items.count) items, more than the maximum \(limit)") }
        case (.minItems(let limit), .array(let items)):
            if items.count < limit { fail("minItems", "the array has \(Self.counted(items.count, "item")), fewer than the minimum \(limit)") }
        case (.uniqueItems, .array(let items)):
            if let (first, second) = Self.firstDuplicate(items) {
                fail("uniqueItems", "items \(first) and \(second) are equal (\(items[first].description.clipped(to: 40))), but every item must be different")
            }
        case (.maxProperties(let limit), .object(let members)):
            if members.count > limit { fail("maxProperties", "the object has \(members.count) properties, more than the maximum \(limit)") }
        case (.minProperties(let limit), .object(let members)):
            if members.count < limit {
                fail("minProperties", "the object has \(Self.counted(members.count, "property", plural: "properties")), fewer than the minimum \(limit)")
            }
        case (.required(let names), .object(let members)):
            for name in names where members[name] == nil { fail("required", "the required property \"\(name)\" is missing") }
        case (.dependentRequired(let dependencies, let name), .object(let members)):
            for dependency in dependencies where members[dependency.name] != nil {
                for required in dependency.required where members[required] == nil {
                    fail(name, "the property \"\(required)\" is missing; it is required when \"\(dependency.name)\" is present")
                }
            }
        default:
            break
        }
    }

    /// `a`, `a or b`, `a, b or c`.
    private static func list(_ words: [String], or: Bool) -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + (or ? " or " : " and ") + words.last!
    }

    private static func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        count == 1 ? "1 \(noun)" : "\(count) \(plural ?? noun + "s")"
    }

    /// -1, 0 or 1 as `a` is less than, equal to or greater than `b` (exactly when both are integers).
    static func compare(_ a: JSONValue, _ b: JSONValue) -> Int? {
        if case .int(let x) = a, case .int(let y) = b { return x < y ? -1 : x > y ? 1 : 0 }
        // Exactly when either is past what a double holds (18446744073709551600 is below 18446744073709551615).
        if case .decimal = a, let x = a.exactNumber, let y = b.exactNumber { return x < y ? -1 : x > y ? 1 : 0 }
        if case .decimal = b, let x = a.exactNumber, let y = b.exactNumber { return x < y ? -1 : x > y ? 1 : 0 }
        guard let x = a.number, let y = b.number else { return nil }
        return x < y ? -1 : x > y ? 1 : 0
    }

    /// Whether `value` divided by `divisor` (greater than 0) is a whole number: exactly for integers; for other
    /// numbers within a few units of rounding, since `0.3` and `0.1` are not exact in binary (0.3 is a multiple).
    static func isMultiple(_ value: JSONValue, of divisor: JSONValue) -> Bool {
        if case .int(let x) = value, case .int(let y) = divisor { return x % y == 0 }
        guard let x = value.number, let y = divisor.number else { return true }
        let quotient = x / y
        // Past the largest double (1e308 by 0.5), the remainder, which is exact, says it.
        guard quotient.isFinite else { return x.isFinite && x.truncatingRemainder(dividingBy: y) == 0 }
        return abs(quotient - quotient.rounded()) <= 4 * quotient.ulp
    }

    /// The positions of the first two equal items (by meaning: `1` equals `1.0`, key order does not matter).
    private static func firstDuplicate(_ items: [JSONValue]) -> (Int, Int)? {
        var seen: [JSONValue: Int] = [:]
        for (index, item) in items.enumerated() {
            if let earlier = seen.updateValue(index, forKey: canonical(item)) { return (earlier, index) }
        }
        return nil
    }

    /// Whole doubles as integers, so that equal-by-meaning values hash alike.
    private static func canonical(_ value: JSONValue) -> JSONValue {
        switch value {
        case .double(let number) where number.rounded() == number && abs(number) < 9.2e18: .int(Int(number))
        case .array(let items): .array(items.map(canonical))
        case .object(let members): .object(members.mapValues(canonical))
        default: value
        }
    }
}
