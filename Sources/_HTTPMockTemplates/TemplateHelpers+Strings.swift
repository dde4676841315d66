import Foundation
import _HTTPMockRegex

extension HandlebarsRenderer {
    /// Runs a helper on its evaluated arguments (block helpers, `if`, `each`, `with`, are rendered by the
    /// renderer itself).
    func run(_ helper: TemplateHelper, _ arguments: HelperArguments) throws(TemplateProblem) -> TemplateValue {
        switch helper {
        case .if, .unless, .each, .with:
            throw arguments.problem("\(helper.rawValue) is a block helper; write \(helper.spec.usage)")
        case .lookup: return lookup(arguments.param(0), arguments.param(1))
        case .log: return .null
        case .eq, .neq, .gt, .gte, .lt, .lte, .and, .or, .not: return comparison(helper, arguments)
        case .contains: return .bool(contains(arguments.param(0), arguments.param(1)))
        case .matches:
            let text = arguments.text(0)
            let regex = try regularExpression("\\A(?:" + arguments.text(1) + ")\\z", arguments)
            return .bool(try firstMatch(of: regex, in: text, arguments) != nil)
        case .trim, .upper, .lower, .capitalize, .capitalizeFirst, .replace, .substring, .abbreviate, .split, .join, .size,
             .length, .stripes, .isOdd, .isEven, .defaultIfEmpty, .default, .center, .ljust, .rjust, .cut, .yesno, .slugify,
             .stripTags, .regexExtract:
            return try string(helper, arguments)
        case .math, .range, .array, .arrayAdd, .arrayRemove, .arrayJoin:
            return try list(helper, arguments)
        case .jsonPath, .parseJson, .toJson, .formatJson, .jsonMerge, .jsonArrayAdd, .jsonRemove:
            return try json(helper, arguments)
        case .base64, .urlEncode, .formData, .val, .assign:
            return try encoding(helper, arguments)
        case .now, .date, .parseDate, .dateFormat, .truncateDate:
            return try dates(helper, arguments)
        case .randomValue, .randomInt, .randomDecimal, .pickRandom, .hostname, .systemValue:
            return try random(helper, arguments)
        case .xPath, .soapXPath:
            return try xml(helper, arguments)
        case .numberFormat, .wordWrap:
            return try numbers(helper, arguments)
        }
    }

    // MARK: - Lookups and comparisons

    /// `lookup map 'key'`, `lookup list 1`; a key with dots (`'ids[].1'`) is followed step by step when the map
    /// has no such key.
    func lookup(_ value: TemplateValue, _ key: TemplateValue) -> TemplateValue {
        let name = key.single.text
        if let found = member(value, name) { return found }
        var current = value
        for part in name.split(separator: ".", omittingEmptySubsequences: false) {
            guard let next = member(current, String(part)) else { return .null }
            current = next
        }
        return current
    }

    private func comparison(_ helper: TemplateHelper, _ arguments: HelperArguments) -> TemplateValue {
        let truth: Bool
        let a = arguments.param(0), b = arguments.param(1)
        switch helper {
        case .eq: truth = Self.equal(a, b)
        case .neq: truth = !Self.equal(a, b)
        case .gt: truth = Self.order(a, b) == .orderedDescending
        case .gte: truth = [.orderedDescending, .orderedSame].contains(Self.order(a, b))
        case .lt: truth = Self.order(a, b) == .orderedAscending
        case .lte: truth = [.orderedAscending, .orderedSame].contains(Self.order(a, b))
        case .and: truth = arguments.params.allSatisfy { !$0.isEmpty }
        case .or: truth = arguments.params.contains { !$0.isEmpty }
        default: truth = a.isEmpty // not
        }
        if let chosen = arguments.hash[truth ? "yes" : "no"] { return chosen }
        return .bool(truth)
    }

    /// Java's `Character.isWhitespace`: space separators but the no-break ones, tab, line breaks, U+001C–U+001F.
    static func isJavaWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x1C...0x1F: return true
        case 0xA0, 0x2007, 0x202F: return false
        default:
            let category = scalar.properties.generalCategory
            return category == .spaceSeparator || category == .lineSeparator || category == .paragraphSeparator
        }
    }

    /// Java's `Character.isLetter`: the letter categories.
    static func isJavaLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        default: return false
        }
    }

    /// Lower case as Java's `toLowerCase` writes it: a capital sigma that ends a word is a final sigma (`ΟΔΟΣ` is
    /// `οδος`).
    static func javaLowercased(_ text: String) -> String {
        guard text.unicodeScalars.contains("Σ") else { return text.lowercased() }
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            guard scalar == "Σ" else { result.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars); continue }
            // Final when a cased letter comes before and none after (case-ignorable characters between are skipped).
            let before = scalars[..<index].reversed().first { !$0.properties.isCaseIgnorable }
            let after = scalars[(index + 1)...].first { !$0.properties.isCaseIgnorable }
            let final = before.map(\.properties.isCased) == true && after.map(\.properties.isCased) != true
            result.append(final ? "ς" : "σ")
        }
        return String(result)
    }

    /// UTF-16 code units as text, half of a surrogate pair as `?` (as Java's UTF-8 encoder writes one).
    static func javaText(_ units: ArraySlice<UInt16>) -> String {
        var scalars = String.UnicodeScalarView()
        var index = units.startIndex
        while index < units.endIndex {
            let unit = units[index]
            if UTF16.isLeadSurrogate(unit), index + 1 < units.endIndex, UTF16.isTrailSurrogate(units[index + 1]) {
                scalars.append(Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(units[index + 1]) - 0xDC00))!)
                index += 2
                continue
            }
            scalars.append(Unicode.Scalar(unit) ?? "?")
            index += 1
        }
        return String(scalars)
    }

    /// Equal: numbers by value (`1` and `'1.0'` when one of them is a number), dates by moment, the rest by text.
    static func equal(_ a: TemplateValue, _ b: TemplateValue) -> Bool {
        let x = a.single, y = b.single
        switch (x, y) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.date(let first), .date(let second)): return first.date == second.date
        default: break
        }
        if isNumber(x) || isNumber(y), let first = x.number, let second = y.number { return first.double == second.double }
        return x.text == y.text
    }

    private static func isNumber(_ value: TemplateValue) -> Bool {
        switch value {
        case .int, .double, .bigNumber: return true
        default: return false
        }
    }

    /// Numbers (and text that reads as numbers) by value, dates by moment, the rest by text.
    static func order(_ a: TemplateValue, _ b: TemplateValue) -> ComparisonResult? {
        let x = a.single, y = b.single
        if case .null = x { return nil }
        if case .null = y { return nil }
        if case .date(let first) = x, case .date(let second) = y { return first.date.compare(second.date) }
        if let first = x.number?.double, let second = y.number?.double {
            return first < second ? .orderedAscending : first > second ? .orderedDescending : .orderedSame
        }
        let first = x.text, second = y.text
        return first < second ? .orderedAscending : first > second ? .orderedDescending : .orderedSame
    }

    /// A list has an item equal to `needle`; text holds it.
    func contains(_ haystack: TemplateValue, _ needle: TemplateValue) -> Bool {
        switch haystack {
        case .array(let items, _): return items.contains { Self.equal($0, needle) }
        case .multi(let multi) where multi.text == nil: return multi.values.contains { Self.equal($0, needle) }
        case .object(let object): return object[needle.single.text] != nil
        case .null: return false
        default:
            let text = needle.single.text
            return text.isEmpty || haystack.single.text.contains(text)
        }
    }

    func regularExpression(_ pattern: String, _ arguments: HelperArguments) throws(TemplateProblem) -> NSRegularExpression {
        if let regex = regularExpressions[pattern] { return regex }
        do {
            // Written for WireMock's Java: read as Java reads it.
            let regex = try NSRegularExpression(pattern: JavaRegex.icu(pattern))
            if regularExpressions.count < 64 { regularExpressions[pattern] = regex }
            return regex
        } catch {
            throw arguments.problem("the regular expression '\(pattern)' does not compile")
        }
    }

    // MARK: - Strings

    private func string(_ helper: TemplateHelper, _ arguments: HelperArguments) throws(TemplateProblem) -> TemplateValue {
        let text = arguments.text(0)
        switch helper {
        // As Java's `String.trim`: what is at or below U+0020 goes, other spaces (U+00A0, U+2003) stay.
        case .trim: return .string(String(text.unicodeScalars.drop { $0.value <= 0x20 }.reversed().drop { $0.value <= 0x20 }.reversed()
            .reduce(into: String.UnicodeScalarView()) { $0.append($1) }))
        case .upper: return .string(text.uppercased())
        case .lower: return .string(Self.javaLowercased(text))
        case .capitalize:
            let fully = arguments.hashFlag("fully")
            var result = "", startOfWord = true
            for character in text {
                if character.isWhitespace { startOfWord = true; result.append(character); continue }
                result += startOfWord ? character.uppercased() : fully ? character.lowercased() : String(character)
                startOfWord = false
            }
            return .string(result)
        case .capitalizeFirst: return .string(text.prefix(1).uppercased() + text.dropFirst())
        case .replace:
            let target = arguments.text(1)
            let replacement = arguments.text(2)
            guard !target.isEmpty else {
                // As Java's `replace`: the replacement before each UTF-16 code unit and at the end.
                let units = Array(text.utf16)
                try charge((units.count + 1) * replacement.utf8.count, arguments.call.position)
                return .string(replacement + units.indices.map { Self.javaText(units[$0...$0]) + replacement }.joined())
            }
            if replacement.utf8.count > target.utf8.count {
                let grows = text.components(separatedBy: target).count - 1
                try charge(grows * (replacement.utf8.count - target.utf8.count), arguments.call.position)
            }
            return .string(text.replacingOccurrences(of: target, with: replacement))
        // Positions and widths count UTF-16 code units, as Java's do (an emoji is two); half of a pair prints as `?`.
        case .substring:
            let units = Array(text.utf16)
            let start = try arguments.integer(1, "the start")
            let end = arguments.params.count > 2 ? try arguments.integer(2, "the end") : units.count
            guard start >= 0, start <= end, end <= units.count else {
                throw arguments.problem("\(start)…\(end) is not inside '\(text)', which has \(units.count) characters (UTF-16 code units)")
            }
            return .string(Self.javaText(units[start..<end]))
        case .abbreviate:
            let width = try arguments.integer(1, "the width")
            guard width >= 4 else { throw arguments.problem("the width must be at least 4, as \"...\" takes 3") }
            let units = Array(text.utf16)
            return .string(units.count <= width ? text : Self.javaText(units[..<(width - 3)]) + "...")
        case .split:
            let separator = arguments.params.count > 1 ? arguments.text(1) : ","
            guard !text.isEmpty else { return .list([]) }
            let parts = separator.isEmpty ? text.map { String($0) } : text.components(separatedBy: separator)
            try allow(parts.count, arguments.call.position)
            return .list(parts.map { .string($0) })
        case .join:
            var values = arguments.params
            let separator = values.count > 1 ? values.removeLast().single.text : ","
            var items: [TemplateValue] = []
            for value in values {
                switch value {
                case .array(let list, _): items += list
                case .multi(let multi) where multi.text == nil: items += multi.values
                default: items.append(value)
                }
            }
            try allow(items.count, arguments.call.position)
            let joined = items.map(printed).joined(separator: separator)
            return .string((arguments.hashText("prefix") ?? "") + joined + (arguments.hashText("suffix") ?? ""))
        case .size, .length:
            switch arguments.param(0) {
            // Java's length: UTF-16 code units.
            case .string(let text): return .int(text.utf16.count)
            case .null: return .int(0)
            // WireMock's size of a number or a boolean is nothing.
            case .int, .double, .bigNumber, .bool: return .null
            case .object(let object): return .int(object.count)
            case let value: return .int(value.items?.count ?? value.text.count)
            }
        case .stripes:
            let index = try arguments.integer(0, "the index")
            return arguments.param(index % 2 == 0 ? 1 : 2)
        case .isOdd, .isEven:
            let number = try arguments.integer(0, "the value")
            let wanted = helper == .isOdd ? number % 2 != 0 : number % 2 == 0
            guard wanted else { return .null }
            return arguments.params.count > 1 ? arguments.param(1) : .string(helper == .isOdd ? "odd" : "even")
        case .defaultIfEmpty, .default:
            let value = arguments.param(0)
            return value.isEmpty ? arguments.param(1) : value
        case .center, .ljust, .rjust:
            guard let size = try arguments.hashInteger("size") else { throw arguments.problem("give the width: size=20") }
            guard size <= limits.output else { throw arguments.problem("size=\(size) is wider than the output may be") }
            // As Apache Commons' `rightPad`, `leftPad` and `center`: widths in UTF-16 code units, the pad text repeated
            // and cut (`center` puts half the padding, rounded down, on the left).
            let given = arguments.hashText("pad") ?? " "
            let pad = Array((given.isEmpty ? " " : given).utf16)
            let missing = max(0, size - text.utf16.count)
            let left = helper == .ljust ? 0 : helper == .rjust ? missing : missing / 2
            func padding(_ count: Int) -> String { Self.javaText((0..<count).map { pad[$0 % pad.count] }[...]) }
            return .string(padding(left) + text + padding(missing - left))
        case .cut:
            let removed = arguments.params.count > 1 ? arguments.text(1) : " "
            return .string(removed.isEmpty ? text : text.replacingOccurrences(of: removed, with: ""))
        case .yesno:
            switch arguments.param(0).single {
            case .null: return .string(arguments.hashText("maybe") ?? "maybe")
            case let value:
                let truth = HelperArguments.flag(value)
                return .string(truth ? arguments.hashText("yes") ?? "yes" : arguments.hashText("no") ?? "no")
            }
        case .slugify:
            // As Handlebars.java's: the text without the whitespace around it, each letter in lower case, each
            // whitespace a `-`, and nothing else (digits, punctuation and `-` go).
            var result = String.UnicodeScalarView()
            for scalar in text.unicodeScalars.drop(while: Self.isJavaWhitespace).reversed().drop(while: Self.isJavaWhitespace).reversed() {
                if Self.isJavaWhitespace(scalar) { result.append("-"); continue }
                guard scalar.value <= 0xFFFF, Self.isJavaLetter(scalar) else { continue }
                result.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
            }
            return .string(String(result))
        case .stripTags:
            return .string(text.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression))
        case .regexExtract:
            let regex = try regularExpression(arguments.text(1), arguments)
            guard let match = try firstMatch(of: regex, in: text, arguments) else {
                if let fallback = arguments.hash["default"] { return fallback }
                // As WireMock writes it in place; default='…' gives another text.
                return .string("[ERROR: Nothing matched \(arguments.text(1))]")
            }
            func group(_ index: Int) -> TemplateValue {
                guard let range = Range(match.range(at: index), in: text) else { return .null }
                return .string(String(text[range]))
            }
            guard arguments.params.count > 2 else { return group(0) }
            let groups = match.numberOfRanges > 1 ? (1..<match.numberOfRanges).map(group) : [group(0)]
            assign(arguments.text(2), .list(groups))
            return .null
        default:
            throw arguments.problem("\(helper.rawValue) is not a string helper")
        }
    }
}
