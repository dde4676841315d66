/// A number's exact value in decimal: ±0.d₁d₂…dₙ × 10^exponent, its digits without leading or trailing zeros (none
/// at all for zero), so that every spelling of one value gives equal parts (`1e2`, `100`, `100.0`, `0.1e3`).
///
/// What ``JSONValue/decimal(_:)`` numbers (those neither `Int` nor `Double` holds exactly) are compared by, and what
/// says whether a number's text survives a `Double`.
package struct JSONDecimal: Hashable, Comparable, Sendable {
    package let negative: Bool
    /// ASCII digits, the first and last not `0`; empty for zero.
    package let digits: [UInt8]
    package let exponent: Int

    /// The value of a number's text: JSON's grammar, and what Swift prints for a `Double` (`1e-05`, `1.5e+22`);
    /// `nil` for anything else, or for an exponent past a billion.
    package init?(_ text: some StringProtocol) {
        var utf8 = Substring(text).utf8[...]
        var negative = false
        if utf8.first == UInt8(ascii: "-") { negative = true; utf8 = utf8.dropFirst() }
        else if utf8.first == UInt8(ascii: "+") { utf8 = utf8.dropFirst() }
        // Every digit of the mantissa, and how many come before its point.
        var all: [UInt8] = []
        var wholeCount: Int? = nil
        while let byte = utf8.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
            utf8 = utf8.dropFirst()
            if byte == UInt8(ascii: ".") {
                guard wholeCount == nil else { return nil }
                wholeCount = all.count
            } else {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                all.append(byte)
            }
        }
        guard !all.isEmpty else { return nil }
        var exponent = 0
        if !utf8.isEmpty {
            utf8 = utf8.dropFirst()
            var sign = 1
            if utf8.first == UInt8(ascii: "-") { sign = -1; utf8 = utf8.dropFirst() }
            else if utf8.first == UInt8(ascii: "+") { utf8 = utf8.dropFirst() }
            guard !utf8.isEmpty, utf8.count <= 9,
                  utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
            exponent = sign * Int(String(decoding: utf8, as: UTF8.self))!
        }
        // 0.0123 × 10^p is 0.123 × 10^(p-1): each leading zero moves the point.
        let leading = all.prefix { $0 == UInt8(ascii: "0") }.count
        var digits = Array(all.dropFirst(leading))
        while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        self.negative = negative && !digits.isEmpty
        self.digits = digits
        self.exponent = digits.isEmpty ? 0 : (wholeCount ?? all.count) - leading + exponent
    }

    /// The exact value of an integer.
    package init(_ whole: Int) {
        self.init(String(whole))!
    }

    /// The value of a finite double's shortest spelling (the one that reads back as it): `0.1` for 0.1, not the
    /// binary fraction's 55 digits.
    package init?(_ number: Double) {
        guard number.isFinite else { return nil }
        self.init(number.description)
    }

    /// The value written out in full, without an exponent or trailing zeros (`100`, `0.00000015`, `-2.5`, `0`), as
    /// Java's `BigDecimal` writes a number stripped of its zeros with `toPlainString()`; `nil` when its exponent is
    /// past `limit` either way (`1e300` with the default limit), which would add that many zeros.
    package func plainText(limit: Int = 400) -> String? {
        guard !digits.isEmpty else { return "0" }
        guard exponent <= limit, exponent >= -limit else { return nil }
        let all = String(decoding: digits, as: UTF8.self)
        let body: String
        if exponent >= digits.count {
            body = all + String(repeating: "0", count: exponent - digits.count)
        } else if exponent <= 0 {
            body = "0." + String(repeating: "0", count: -exponent) + all
        } else {
            body = all.prefix(exponent) + "." + all.dropFirst(exponent)
        }
        return negative ? "-" + body : body
    }

    /// Whether the value is a whole number.
    package var isWhole: Bool { digits.count <= exponent || digits.isEmpty }

    package static func < (a: JSONDecimal, b: JSONDecimal) -> Bool {
        if a == b { return false }
        if a.negative != b.negative { return a.negative }
        let smaller = magnitudeLess(a, b)
        return a.negative ? !smaller : smaller
    }

    /// Whether `|a|` < `|b|`: zero first, then by exponent, then digit by digit.
    private static func magnitudeLess(_ a: JSONDecimal, _ b: JSONDecimal) -> Bool {
        if a.digits.isEmpty || b.digits.isEmpty { return a.digits.isEmpty && !b.digits.isEmpty }
        if a.exponent != b.exponent { return a.exponent < b.exponent }
        return a.digits.lexicographicallyPrecedes(b.digits)
    }
}

extension JSONValue {
    /// A number's exact value (`nil` for what is no number); a double's is that of its shortest spelling.
    package var exactNumber: JSONDecimal? {
        switch self {
        case .int(let whole): JSONDecimal(whole)
        case .double(let number): JSONDecimal(number)
        case .decimal(let text): JSONDecimal(text)
        default: nil
        }
    }

    /// Whether two numbers are equal as WireMock's `equalToJson` compares them (with `BigDecimal`s, each number
    /// written with a fraction or an exponent first stripped of its trailing zeros, one written as an integer kept
    /// as it is, then compared value and scale): equal values, except that an integer ending in zeros (`100`) never
    /// equals a number written otherwise (`1e2`, `100.0`), where `15` equals `1.5e1` and `1` equals `1.0`.
    package static func wireMockNumbersEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
        // The usual kinds without building decimals (a request's body compares each of its numbers).
        switch (a, b) {
        case (.int(let x), .int(let y)): return x == y
        case (.double(let x), .double(let y)): return x == y
        case (.int(let x), .double(let y)) where x.magnitude <= 1 << 53, (.double(let y), .int(let x)) where x.magnitude <= 1 << 53:
            return Double(x) == y && (x == 0 || x % 10 != 0)
        default: break
        }
        guard let x = a.exactNumber, let y = b.exactNumber, x == y else { return false }
        guard a.isIntegerLiteral != b.isIntegerLiteral, !x.digits.isEmpty else { return true }
        // The integer's scale is 0; the other's, stripped of its zeros, is 0 only when the integer ends in none.
        return x.digits.count == x.exponent
    }

    /// Whether a number was written as an integer (no fraction, no exponent).
    var isIntegerLiteral: Bool {
        switch self {
        case .int: true
        case .decimal(let text): !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        default: false
        }
    }
}
