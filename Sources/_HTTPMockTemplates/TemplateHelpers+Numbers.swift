import Foundation

extension HandlebarsRenderer {
    /// `numberFormat` and `wordWrap`, as WireMock 2.35.1 (Handlebars.java) renders them.
    func numbers(_ helper: TemplateHelper, _ arguments: HelperArguments) throws(TemplateProblem) -> TemplateValue {
        switch helper {
        case .numberFormat: return try numberFormat(arguments)
        case .wordWrap:
            guard case .int(let width) = arguments.param(1).single else {
                throw arguments.problem("the width must be a whole number written without quotes, not '\(arguments.text(1))'")
            }
            let text = TemplateWordWrap.wrap(arguments.text(0), width: width)
            try charge(text.utf8.count, arguments.call.position)
            return .string(text)
        default: throw arguments.problem("\(helper.rawValue) is not a number helper")
        }
    }

    /// A number is formatted; any other value (text that reads as a number too) prints the format argument, as
    /// WireMock does.
    private func numberFormat(_ arguments: HelperArguments) throws(TemplateProblem) -> TemplateValue {
        let value: TemplateDecimal
        switch arguments.param(0).single {
        case .int(let number): value = TemplateDecimal(number)
        case .double(let number): value = TemplateDecimal(number)
        case .bigNumber(let text): value = TemplateDecimal(text: text) ?? TemplateDecimal(Double(text) ?? .nan)
        default: return arguments.params.count > 1 ? .string(arguments.text(1)) : .null
        }
        let localeName = arguments.params.count > 2 ? arguments.text(2) : nil
        var format: TemplateNumberFormat
        do {
            format = try TemplateNumberFormat(style: arguments.params.count > 1 ? arguments.text(1) : nil, locale: localeName)
        } catch { throw arguments.problem(error.message) }
        if let grouping = arguments.hash["groupingUsed"] {
            guard case .bool(let flag) = grouping.single else { throw arguments.problem("groupingUsed must be true or false") }
            format.groupingUsed = flag
        }
        if let parseIntegerOnly = arguments.hash["parseIntegerOnly"], case .bool = parseIntegerOnly.single {} else if arguments.hash["parseIntegerOnly"] != nil {
            throw arguments.problem("parseIntegerOnly must be true or false")
        }
        func digits(_ key: String) throws(TemplateProblem) -> Int? {
            guard let given = arguments.hash[key] else { return nil }
            guard case .int(let number) = given.single else { throw arguments.problem("\(key) must be a whole number written without quotes, not '\(given.single.text)'") }
            return max(0, number)
        }
        // Maximums first, then minimums, as WireMock applies them: a minimum above the maximum raises it.
        if let count = try digits("maximumFractionDigits") { format.maximumFraction = count; format.minimumFraction = min(format.minimumFraction, count) }
        if let count = try digits("maximumIntegerDigits") { format.maximumInteger = count; format.minimumInteger = min(format.minimumInteger, count) }
        if let count = try digits("minimumFractionDigits") { format.minimumFraction = count; format.maximumFraction = max(format.maximumFraction, count) }
        if let count = try digits("minimumIntegerDigits") { format.minimumInteger = count; format.maximumInteger = max(format.maximumInteger, count) }
        if let mode = arguments.hashText("roundingMode") {
            guard let rounding = TemplateDecimal.Rounding(rawValue: mode.uppercased()) else {
                throw arguments.problem("'\(mode)' is not a rounding mode; use one of \(TemplateDecimal.Rounding.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            format.rounding = rounding
        }
        guard let text = format.format(value) else {
            throw arguments.problem("\(value.plain) needs rounding, and roundingMode is UNNECESSARY")
        }
        try charge(text.utf8.count, arguments.call.position)
        return .string(text)
    }
}

/// A number as decimal digits: `0.d1d2… × 10^point`, with the sign apart.
struct TemplateDecimal: Sendable {
    var negative: Bool
    /// Digits without zeros at either end; empty for zero.
    var digits: [UInt8]
    var point: Int
    /// For a decimal, the digits of its exact binary value, which decide its rounding when `digits` stop
    /// exactly half way.
    var exact: [UInt8]? = nil
    var exactPoint = 0
    var isNaN = false
    var isInfinite = false
    /// The decimal it was read from, if it was one.
    var double: Double? = nil

    enum Rounding: String, CaseIterable, Sendable {
        case UP, DOWN, CEILING, FLOOR, HALF_UP, HALF_DOWN, HALF_EVEN, UNNECESSARY
    }

    init(_ number: Int) {
        negative = number < 0
        (digits, point) = Self.trimmed(Array(String(number.magnitude).utf8).map { $0 - 48 }, point: String(number.magnitude).count)
    }

    init(_ number: Double) {
        negative = number.sign == .minus
        digits = []
        point = 0
        double = number
        guard number.isFinite else { isNaN = number.isNaN; isInfinite = number.isInfinite; return }
        guard number != 0 else { return }
        // The shortest digits that read back as the number, as Java prints it.
        let shortest = TemplateNumber.shortestDigits(of: number.magnitude)
        (digits, point) = Self.trimmed(Array(shortest.digits.utf8).map { $0 - 48 }, point: shortest.point)
        // The exact binary value: a double has at most 1074 digits after the point.
        let full = String(format: "%.1080f", number.magnitude)
        let wholeExact = full.prefix { $0 != "." }
        (exact, exactPoint) = Self.trimmed(Array(full.utf8.filter { $0 != 46 }).map { $0 - 48 }, point: wholeExact.count)
    }

    /// A number as JSON writes it (`12345678901234567890123`, `1.5E-30`).
    init?(text: String) {
        guard let plain = TemplateNumber.bigDecimalText(text, plain: true) else { return nil }
        negative = plain.hasPrefix("-")
        let body = negative ? plain.dropFirst() : Substring(plain)
        let whole = body.prefix { $0 != "." }
        // Past a thousand zeros the text keeps an exponent (`1E+2000`): no plain digits to read.
        guard body.count <= 2_100, body.utf8.allSatisfy({ $0 == 46 || (48...57).contains($0) }) else { return nil }
        (digits, point) = Self.trimmed(Array(body.utf8.filter { $0 != 46 }).map { $0 - 48 }, point: whole.count)
    }

    private static func trimmed(_ raw: [UInt8], point: Int) -> ([UInt8], Int) {
        guard let first = raw.firstIndex(where: { $0 != 0 }) else { return ([], 0) }
        let last = raw.lastIndex { $0 != 0 }!
        return (Array(raw[first...last]), point - first)
    }

    var isZero: Bool { digits.isEmpty }

    /// The number written plainly, for messages.
    var plain: String {
        if isNaN { return "NaN" }
        if isInfinite { return negative ? "-Infinity" : "Infinity" }
        return TemplateNumber.bigDecimalText((negative ? "-" : "") + "0." + (digits.isEmpty ? "0" : digits.map(String.init).joined()) + "E\(point)", plain: true) ?? "0"
    }

    /// The number times 10^shift.
    func shifted(_ shift: Int) -> TemplateDecimal {
        var copy = self
        if !copy.digits.isEmpty { copy.point += shift }
        if copy.exact != nil { copy.exactPoint += shift }
        copy.double = nil
        return copy
    }

    /// The number rounded to `places` digits after the point; `nil` when it needs rounding and `mode` is
    /// `UNNECESSARY`.
    func rounded(places: Int, _ mode: Rounding) -> TemplateDecimal? {
        let keep = point + places
        guard digits.count > keep else { return self }
        guard mode != .UNNECESSARY else { return nil }
        // The digits past the cut decide; half way is judged on the exact binary value when there is one.
        let (source, sourcePoint) = exact.map { ($0, exactPoint) } ?? (digits, point)
        let cut = sourcePoint + places
        let kept = cut > 0 ? Array(source.prefix(cut)) : []
        let rest = cut >= 0 ? Array(source.dropFirst(cut)) : Array(repeating: 0, count: -cut) + source
        let first = rest.first ?? 0
        let beyondHalf = rest.dropFirst().contains { $0 != 0 }
        let lastKept = kept.last ?? 0
        let up: Bool
        switch mode {
        case .UP: up = true
        case .DOWN: up = false
        case .CEILING: up = !negative
        case .FLOOR: up = negative
        case .HALF_UP: up = first >= 5
        case .HALF_DOWN: up = first > 5 || (first == 5 && beyondHalf)
        case .HALF_EVEN: up = first > 5 || (first == 5 && (beyondHalf || lastKept % 2 == 1))
        case .UNNECESSARY: up = false
        }
        var result = kept.isEmpty ? [UInt8]() : kept
        var resultPoint = sourcePoint
        if cut < 0 { result = []; resultPoint = -places }
        if up {
            var index = result.count - 1
            while index >= 0, result[index] == 9 { result[index] = 0; index -= 1 }
            if index >= 0 { result[index] += 1 } else {
                result.insert(1, at: 0)
                resultPoint += 1
                if cut < 0 { resultPoint = -places + 1; result = [1] }
            }
        }
        var copy = self
        (copy.digits, copy.point) = Self.trimmed(result, point: resultPoint)
        copy.exact = nil
        return copy
    }
}

/// A Java `DecimalFormat` pattern (`#,##0.00`, `0.###`, `000`, `#%`, `'#'0`, `0.0;(0.0)`) with a locale's symbols.
struct TemplateNumberFormat: Sendable {
    struct Problem: Error { let message: String }

    /// A part of a prefix or a suffix.
    enum Affix: Sendable, Equatable {
        case text(String), percent, permille, currency, currencyCode, minus
    }

    var positivePrefix: [Affix] = [], positiveSuffix: [Affix] = []
    var negativePrefix: [Affix]? = nil, negativeSuffix: [Affix] = []
    var minimumInteger = 1, maximumInteger = Int.max, minimumFraction = 0, maximumFraction = 3
    var groupingSize = 3
    var groupingUsed = true
    var pointAlwaysShown = false
    var multiplier = 0
    var rounding = TemplateDecimal.Rounding.HALF_EVEN
    var symbols = Symbols()

    struct Symbols: Sendable {
        var point = ".", grouping = ",", percent = "%", permille = "\u{2030}", minus = "-", currency = "$", code = "USD"
    }

    /// Java caps the digits it prints of a decimal at 309 before the point and 340 after.
    static let integerLimit = 309, fractionLimit = 340

    /// `style` is `integer`, `percent`, `currency`, a pattern, or nothing (the locale's decimal format);
    /// `locale` is written `en_US`, `de`, `fr_FR` (the default is `en_US`).
    init(style: String?, locale name: String?) throws(Problem) {
        let locale = try Self.locale(name ?? "en_US")
        let formatter = NumberFormatter()
        formatter.locale = locale
        switch style {
        case "percent": formatter.numberStyle = .percent
        case "currency": formatter.numberStyle = .currency
        default: formatter.numberStyle = .decimal
        }
        symbols.point = formatter.decimalSeparator ?? "."
        symbols.grouping = formatter.groupingSeparator ?? ","
        symbols.percent = formatter.percentSymbol ?? "%"
        symbols.permille = formatter.perMillSymbol ?? "\u{2030}"
        symbols.minus = formatter.minusSign ?? "-"
        symbols.currency = formatter.currencySymbol ?? "\u{00A4}"
        let code = formatter.internationalCurrencySymbol ?? "XXX"
        symbols.code = code == "\u{00A4}\u{00A4}" ? "XXX" : code
        switch style {
        case nil, "integer", "percent", "currency":
            try parse(formatter.positiveFormat ?? "#,##0.###")
            if style == "integer" { maximumFraction = 0; minimumFraction = 0; pointAlwaysShown = false }
        case let pattern?:
            try parse(pattern)
        }
    }

    /// A locale written as Java's `LocaleUtils` reads one: `ll`, `ll_CC`, `ll_CC_variant`, `_CC`, with the
    /// language in lower case and the country in upper case (or three digits).
    static func locale(_ name: String) throws(Problem) -> Locale {
        let parts = name.split(separator: "_", omittingEmptySubsequences: false)
        let lower = { (part: Substring) in part.allSatisfy { $0.isASCII && $0.isLowercase } }
        let country = { (part: Substring) in part.isEmpty || (part.count == 2 && part.allSatisfy { $0.isASCII && $0.isUppercase })
            || (part.count == 3 && part.allSatisfy { $0.isASCII && $0.isNumber }) }
        let language = parts[0]
        let valid = name.isEmpty || (
            (language.isEmpty ? parts.count > 1 && !parts[1].isEmpty : [2, 3].contains(language.count) && lower(language))
            && (parts.count < 2 || country(parts[1])) && parts.count <= 3 && name.count <= 50)
        guard valid else { throw Problem(message: "Invalid locale format: \(name); write a locale as en_US, de_DE or fr") }
        return Locale(identifier: name)
    }

    /// Reads a pattern as Java's `DecimalFormat` does: a positive part and an optional negative one after `;`,
    /// each a prefix, digits and a suffix; text between quotes is literal.
    mutating func parse(_ pattern: String) throws(Problem) {
        // An empty pattern keeps the grouping and prints every digit, with no zero before the point.
        guard !pattern.isEmpty else {
            minimumInteger = 0; maximumInteger = Int.max; minimumFraction = 0; maximumFraction = Int.max
            return
        }
        func fail(_ what: String) -> Problem { Problem(message: "\(what) in the number pattern \"\(pattern.prefix(200))\"") }
        let characters = Array(pattern)
        var index = 0
        var sawPercent = false
        func affix(stopAtNumber: Bool) throws(Problem) -> [Affix] {
            var parts: [Affix] = [], literal = ""
            func flush() { if !literal.isEmpty { parts.append(.text(literal)); literal = "" } }
            while index < characters.count {
                let character = characters[index]
                if character == "'" {
                    if index + 1 < characters.count, characters[index + 1] == "'" { literal.append("'"); index += 2; continue }
                    guard let close = characters[(index + 1)...].firstIndex(of: "'") else { throw fail("A quote is not closed") }
                    literal += String(characters[(index + 1)..<close])
                    index = close + 1
                    continue
                }
                if "#0,.".contains(character) {
                    if stopAtNumber { break }
                    throw fail("The unquoted special character '\(character)' is")
                }
                if character == ";" { break }
                switch character {
                case "%", "\u{2030}":
                    if sawPercent { throw fail("More than one percent or per mille sign is") }
                    sawPercent = true
                    flush()
                    parts.append(character == "%" ? .percent : .permille)
                    multiplier = character == "%" ? 2 : 3
                case "\u{00A4}":
                    flush()
                    if index + 1 < characters.count, characters[index + 1] == "\u{00A4}" { parts.append(.currencyCode); index += 1 } else { parts.append(.currency) }
                case "-": flush(); parts.append(.minus)
                default: literal.append(character)
                }
                index += 1
            }
            flush()
            return parts
        }
        positivePrefix = try affix(stopAtNumber: true)
        // The digits: `#`s, then `0`s, then `#`s after the point; `,` marks a group.
        var left = 0, zeros = 0, right = 0, decimal = -1, group = -1, total = 0
        while index < characters.count, "#0,.E".contains(characters[index]) {
            switch characters[index] {
            case "#":
                if zeros > 0 { right += 1 } else { left += 1 }
                if group >= 0, decimal < 0 { group += 1 }
                total += 1
            case "0":
                if right > 0 { throw fail("A '0' after a '#' of the fraction is") }
                zeros += 1
                if group >= 0, decimal < 0 { group += 1 }
                total += 1
            case ",":
                if decimal >= 0 { throw fail("A grouping separator after the point is") }
                group = 0
            case ".":
                if decimal >= 0 { throw fail("More than one decimal separator is") }
                decimal = total
            default:
                throw fail("Scientific notation (E) is not supported; it is")
            }
            index += 1
        }
        positiveSuffix = try affix(stopAtNumber: false)
        if index < characters.count, characters[index] == ";" {
            index += 1
            guard total > 0 || !positivePrefix.isEmpty || !positiveSuffix.isEmpty else { throw fail("The unquoted special character ';' is") }
            let saved = multiplier, savedPercent = sawPercent
            sawPercent = false
            negativePrefix = try affix(stopAtNumber: true)
            while index < characters.count, "#0,.".contains(characters[index]) { index += 1 }
            negativeSuffix = try affix(stopAtNumber: false)
            multiplier = saved
            sawPercent = savedPercent
            if index < characters.count { throw fail("A second ';' is") }
        }
        // `#.##` and `.##`: one integer digit, the others after the point.
        if zeros == 0, left > 0, decimal >= 0 {
            let place = max(decimal, 1)
            right = left - place
            left = place - 1
            zeros = 1
        }
        if (decimal < 0 && right > 0) || (decimal >= 0 && (decimal < left || decimal > left + zeros)) || group == 0 {
            throw fail("The arrangement of digits is not valid; it is")
        }
        let point = decimal >= 0 ? decimal : left + zeros + right
        minimumInteger = point - left
        maximumInteger = Int.max
        minimumFraction = decimal >= 0 ? left + zeros - point : 0
        maximumFraction = decimal >= 0 ? left + zeros + right - point : 0
        groupingSize = max(group, 0)
        groupingUsed = group > 0
        pointAlwaysShown = decimal == 0 || decimal == total
    }

    /// The number as text; `nil` when it needs rounding and the rounding mode is `UNNECESSARY`.
    func format(_ value: TemplateDecimal) -> String? {
        var number = value
        if multiplier > 0 {
            // Java multiplies a decimal in floating point (0.285 is 28.499999999999996 percent).
            if let double = value.double {
                number = TemplateDecimal(double * (multiplier == 2 ? 100 : 1000))
            } else {
                number = value.shifted(multiplier)
            }
        }
        let negative = number.negative
        let prefix = negative ? negativePrefix ?? [.minus] + positivePrefix : positivePrefix
        let suffix = negative && negativePrefix != nil ? negativeSuffix : positiveSuffix
        func write(_ parts: [Affix]) -> String {
            parts.map { part -> String in
                switch part {
                case .text(let text): text
                case .percent: symbols.percent
                case .permille: symbols.permille
                case .currency: symbols.currency
                case .currencyCode: symbols.code
                case .minus: symbols.minus
                }
            }.joined()
        }
        if number.isNaN { return "NaN" }
        if number.isInfinite { return write(prefix) + "\u{221E}" + write(suffix) }
        let maxFraction = min(maximumFraction, Self.fractionLimit), minFraction = min(minimumFraction, maxFraction)
        let maxInteger = min(maximumInteger, Self.integerLimit), minInteger = min(minimumInteger, maxInteger)
        guard let rounded = number.rounded(places: maxFraction, rounding) else { return nil }
        // The integer digits, the highest cut when there are more than maximumIntegerDigits.
        var integer = (0..<max(rounded.point, 0)).map { $0 < rounded.digits.count ? rounded.digits[$0] : 0 }
        if integer.count > maxInteger { integer = Array(integer.suffix(maxInteger)) }
        while integer.first == 0, integer.count > minInteger { integer.removeFirst() }
        if integer.count < minInteger { integer = Array(repeating: 0, count: minInteger - integer.count) + integer }
        var fraction = (0..<maxFraction).map { place -> UInt8 in
            let position = rounded.point + place
            return position >= 0 && position < rounded.digits.count ? rounded.digits[position] : 0
        }
        while fraction.count > minFraction, fraction.last == 0 { fraction.removeLast() }
        if integer.isEmpty, fraction.isEmpty { integer = [0] }
        var body = ""
        for (position, digit) in integer.enumerated() {
            let left = integer.count - position
            if groupingUsed, groupingSize > 0, position > 0, left % groupingSize == 0 { body += symbols.grouping }
            body.append(Character(Unicode.Scalar(digit + 48)))
        }
        if !fraction.isEmpty || pointAlwaysShown { body += symbols.point }
        body += String(decoding: fraction.map { $0 + 48 }, as: UTF8.self)
        return write(prefix) + body + write(suffix)
    }
}

/// Breaks text into lines of at most `width` UTF-16 code units at spaces, as Apache Commons' `WordUtils.wrap`
/// does for WireMock: a word longer than the width stays whole on its own line, a space at the start of a line
/// is dropped, the existing line breaks count as ordinary characters, and lines end with `\n`.
enum TemplateWordWrap {
    static func wrap(_ text: String, width given: Int) -> String {
        let units = Array(text.utf16)
        let width = max(given, 1)
        let space = UInt16(32)
        var result: [UInt16] = []
        var offset = 0
        while offset < units.count {
            // The first space within width + 1 characters.
            let window = offset..<(width >= units.count - offset ? units.count : offset + width + 1)
            if let first = units[window].firstIndex(of: space), first == offset {
                offset += 1
                continue
            }
            if units.count - offset <= width { break }
            if let last = units[window].lastIndex(of: space) {
                result += units[offset..<last] + [10]
                offset = last + 1
            } else if let next = units[(offset + width)...].firstIndex(of: space) {
                // A long word: the line runs to the next space.
                result += units[offset..<next] + [10]
                offset = next + 1
            } else {
                result += units[offset...]
                offset = units.count
            }
        }
        if offset < units.count { result += units[offset...] }
        return String(decoding: result, as: UTF16.self)
    }
}
