import Foundation
import _HTTPMockRegex

/// A JSONPath expression in the forms request matchers and templates commonly use (those of Jayway's JsonPath, which
/// WireMock reads them with): `$.a.b`, `$['a b']`, `$.a[0]`, `$.a[-1]`, `$.a[*]`, `$.*`, `$..name`, `$.a[1:3]`;
/// filters `$.a[?(@.b == 'x')]`, `[?(@.n > 2)]`, `[?(@.b)]`, `[?(@.name =~ /ann.*/i)]`, `in`, `nin`, `size`,
/// `empty`, `anyof`, `noneof` and `subsetof`, joined with `&&` or `||`; and the functions `length()`, `size()`,
/// `min()`, `max()`, `avg()`, `sum()`, `stddev()`, `first()`, `last()` and `keys()` at the end of a path or of a
/// filter's operand. Anything else is refused when it is compiled, naming what it met.
package struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    indirect enum Step: Sendable, Hashable {
        case name(String)
        case index(Int)
        /// `['a','b']`: as the last step, one object of those members; before others, each member.
        case names([String])
        /// `[0,2]`: those elements, in that order.
        case indices([Int])
        case slice(Int?, Int?)
        case wildcard
        case descendants(Step)
        case filter(Filter)
        /// A function of what the steps before selected (`length()`, `min()`…).
        case function(String)
    }

    indirect enum Filter: Sendable, Hashable {
        case exists([Step])
        /// The steps, the operator, the literal, and for a number literal the text Java's `BigDecimal` gives it as
        /// written (`1.10`), which a text in the document is compared with (`nil` for a list's items).
        case compare([Step], String, JSONValue, [String?])
        /// `=~ /pattern/flags`.
        case regex([Step], FilterRegex)
        case and(Filter, Filter)
        case or(Filter, Filter)
        case not(Filter)
    }

    /// A filter's regular expression, compared by its text.
    struct FilterRegex: Sendable, Hashable {
        let pattern: String
        let caseInsensitive: Bool
        /// The expression over the whole text, as Jayway matches it (`matches()`, not a search).
        let whole: NSRegularExpression

        static func == (lhs: FilterRegex, rhs: FilterRegex) -> Bool {
            lhs.pattern == rhs.pattern && lhs.caseInsensitive == rhs.caseInsensitive
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(pattern)
            hasher.combine(caseInsensitive)
        }
    }

    static let functions: Set<String> = ["length", "size", "min", "max", "avg", "sum", "stddev", "first", "last", "keys"]

    /// Whether a filter runs a regular expression (so a test using the path may be slow).
    package var usesRegex: Bool { source.contains("=~") }

    let source: String
    let steps: [Step]
    package var description: String { source }

    /// Whether the expression names at most one value (no wildcard, slice, filter or `..`).
    package var isDefinite: Bool {
        steps.enumerated().allSatisfy { offset, step in
            switch step {
            case .name, .index: true
            // Several names at the end make one object, as Jayway merges them.
            case .names: offset == steps.count - 1
            default: false
            }
        }
    }

    /// The function a definite path ends in (`$.items.length()`), which gives one value: `nil` for other paths.
    package var functionOfDefinite: String? {
        guard case .function(let name)? = steps.last,
              steps.dropLast().allSatisfy({ if case .name = $0 { true } else if case .index = $0 { true } else { false } }) else { return nil }
        return name
    }

    /// Whether a step names an element by a negative index (`[-1]`, `[0,-1]`) or a slice has a negative bound
    /// beside another (`[-3:-1]`, `[0:-1]`): Jayway reads those in place of an update as written, not from the end.
    package var hasNegativePositions: Bool {
        func negative(_ step: Step) -> Bool {
            switch step {
            case .index(let index): index < 0
            case .indices(let indices): indices.contains { $0 < 0 }
            case .slice(let from?, let to?): from < 0 || to < 0
            case .descendants(let inner): negative(inner)
            default: false
            }
        }
        return steps.contains(where: negative)
    }

    /// The path without the function it ends in (`$.items` of `$.items.length()`); the path itself if it ends in none.
    package var withoutFinalFunction: JSONPath {
        guard case .function? = steps.last else { return self }
        return JSONPath(source: source, steps: Array(steps.dropLast()))
    }

    private init(source: String, steps: [Step]) {
        self.source = source
        self.steps = steps
    }

    /// Compiles `source`; the error says what is wrong, for the caller to place.
    package init(_ source: String) throws(JSONPathError) {
        var parser = Parser(text: Array(source.unicodeScalars), source: source)
        parser.skipSpaces()
        guard parser.eat("$") else { throw JSONPathError("\"\(source)\" is not a JSONPath: it starts with \"$\"") }
        steps = try parser.steps(stopAt: [])
        parser.skipSpaces()
        guard parser.atEnd else { throw parser.failure("unexpected \"\(parser.rest)\"") }
        self.source = source
    }

    /// The values the expression selects in `root`.
    package func select(in root: JSONValue) -> [JSONValue] {
        Self.apply(steps, to: [root])
    }

    /// A place inside a value: a member of an object, an element of an array.
    package enum Member: Sendable, Hashable {
        case name(String)
        case index(Int)
    }

    /// What the expression selects in `root` as WireMock's templates select it (with Jayway's JSONPath and its
    /// `DEFAULT_PATH_LEAF_TO_NULL` option), each value with the caller's view of the same place: `inside` follows a
    /// view down to a member or element, and `keys` gives the order in which an object's members are walked (the
    /// document's, where the caller knows it; sorted where it gives none). An object that lacks the member the
    /// last step names selects null there (`$..name` gives null for each object without one).
    /// `merge` makes the view of the object several names at the end select, from its members (name, value, view).
    package func select<View>(in root: JSONValue, view: View?, inside: (View, Member) -> View?, keys: (View) -> [String]?,
                              merge: ([(String, JSONValue, View?)]) -> View? = { _ in nil },
                              leafToNull: Bool) -> [(value: JSONValue, view: View?)] {
        typealias Found = (value: JSONValue, view: View?)
        func child(_ view: View?, _ member: Member) -> View? { view.flatMap { inside($0, member) } }
        func names(_ object: [String: JSONValue], _ view: View?) -> [String] {
            if let view, let names = keys(view), names.count == object.count, names.allSatisfy({ object[$0] != nil }) { return names }
            return object.keys.sorted()
        }
        func apply(_ step: Step, to found: Found, leaf: Bool) -> [Found] {
            let (value, view) = found
            switch (step, value) {
            case (.name(let name), .object(let object)):
                if let member = object[name] { return [(member, child(view, .name(name)))] }
                return leaf && leafToNull ? [(.null, nil)] : []
            case (.names(let names), .object(let object)):
                guard leaf else { return names.compactMap { name in object[name].map { ($0, child(view, .name(name))) } } }
                var members: [String: JSONValue] = [:]
                var parts: [(String, JSONValue, View?)] = []
                for name in names {
                    if let member = object[name] {
                        members[name] = member
                        parts.append((name, member, child(view, .name(name))))
                    } else if leafToNull {
                        members[name] = .null
                        parts.append((name, .null, nil))
                    }
                }
                return [(.object(members), view == nil ? nil : merge(parts))]
            case (.index(let index), .array(let array)):
                let position = index < 0 ? array.count + index : index
                return array.indices.contains(position) ? [(array[position], child(view, .index(position)))] : []
            case (.indices(let indices), .array(let array)):
                return indices.compactMap { index in
                    let position = index < 0 ? array.count + index : index
                    return array.indices.contains(position) ? (array[position], child(view, .index(position))) : nil
                }
            case (.slice(let from, let to), .array(let array)):
                func clamp(_ bound: Int?, _ fallback: Int) -> Int {
                    guard let bound else { return fallback }
                    return min(array.count, max(0, bound < 0 ? array.count + bound : bound))
                }
                let lower = clamp(from, 0), upper = clamp(to, array.count)
                return lower < upper ? (lower..<upper).map { (array[$0], child(view, .index($0))) } : []
            case (.wildcard, .array(let array)): return array.indices.map { (array[$0], child(view, .index($0))) }
            case (.wildcard, .object(let object)): return names(object, view).map { (object[$0]!, child(view, .name($0))) }
            case (.filter(let filter), .array(let array)):
                return array.indices.filter { filter.holds(for: array[$0]) }.map { (array[$0], child(view, .index($0))) }
            case (.filter(let filter), .object):
                // As Jayway's: a filter on an object tests the object itself.
                return filter.holds(for: value) ? [found] : []
            case (.descendants(.filter(let filter)), _):
                // As Jayway's scan: an object the filter holds for, then what is below it; an array's elements only
                // where the filter holds for the array itself (each element object is tested on its own below).
                var result: [Found] = []
                switch value {
                case .object(let object):
                    if filter.holds(for: value) { result.append(found) }
                    for name in names(object, view) { result += apply(step, to: (object[name]!, child(view, .name(name))), leaf: leaf) }
                case .array(let array):
                    if filter.holds(for: value) {
                        result += array.indices.filter { !leaf || filter.holds(for: array[$0]) }.map { (array[$0], child(view, .index($0))) }
                    }
                    for index in array.indices { result += apply(step, to: (array[index], child(view, .index(index))), leaf: leaf) }
                default: break
                }
                return result
            case (.descendants(let inner), _):
                var result = apply(inner, to: found, leaf: leaf)
                switch value {
                case .array(let array):
                    for index in array.indices { result += apply(step, to: (array[index], child(view, .index(index))), leaf: leaf) }
                case .object(let object):
                    for name in names(object, view) { result += apply(step, to: (object[name]!, child(view, .name(name))), leaf: leaf) }
                default: break
                }
                return result
            default: return []
            }
        }
        var current: [Found] = [(root, view)]
        for (offset, step) in steps.enumerated() {
            if case .function(let name) = step {
                current = Self.function(name, of: current.map(\.value)).map { [($0, nil)] } ?? []
            } else {
                let leaf = offset == steps.count - 1
                current = current.flatMap { apply(step, to: $0, leaf: leaf) }
            }
        }
        return current
    }

    private static func apply(_ steps: [Step], to start: [JSONValue]) -> [JSONValue] {
        var current = start
        for (offset, step) in steps.enumerated() {
            if case .function(let name) = step {
                current = function(name, of: current).map { [$0] } ?? []
            } else {
                current = current.flatMap { apply(step, to: $0, leaf: offset == steps.count - 1) }
            }
        }
        return current
    }

    /// `name` applied to what was selected: the elements of one array (the values of one object for `keys()`),
    /// or the selected values themselves when there are several.
    private static func function(_ name: String, of selected: [JSONValue]) -> JSONValue? {
        var items = selected
        if selected.count == 1 {
            switch selected[0] {
            case .array(let array): items = array
            case .object(let object) where name == "keys": return .array(object.keys.sorted().map { .string($0) })
            case .object(let object) where name == "length" || name == "size": return .int(object.count)
            case .string(let text) where name == "length" || name == "size": return .int(text.count)
            default: break
            }
        }
        let numbers = items.compactMap(\.number)
        switch name {
        case "length", "size": return .int(items.count)
        case "first": return items.first
        case "last": return items.last
        case "keys": return nil
        default:
            guard !numbers.isEmpty else { return nil }
            let sum = numbers.reduce(0, +)
            let mean = sum / Double(numbers.count)
            switch name {
            case "min": return .double(numbers.min()!)
            case "max": return .double(numbers.max()!)
            case "sum": return .double(sum)
            case "avg": return .double(mean)
            default: return .double((numbers.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(numbers.count)).squareRoot())
            }
        }
    }

    /// `leaf`: the step is the path's last.
    private static func apply(_ step: Step, to value: JSONValue, leaf: Bool) -> [JSONValue] {
        switch (step, value) {
        case (.name(let name), .object(let object)): return object[name].map { [$0] } ?? []
        case (.names(let names), .object(let object)):
            guard leaf else { return names.compactMap { object[$0] } }
            var members: [String: JSONValue] = [:]
            for name in names { if let member = object[name] { members[name] = member } }
            return [.object(members)]
        case (.index(let index), .array(let array)):
            let position = index < 0 ? array.count + index : index
            return array.indices.contains(position) ? [array[position]] : []
        case (.indices(let indices), .array(let array)):
            return indices.compactMap { index in
                let position = index < 0 ? array.count + index : index
                return array.indices.contains(position) ? array[position] : nil
            }
        case (.slice(let from, let to), .array(let array)):
            func clamp(_ bound: Int?, _ fallback: Int) -> Int {
                guard let bound else { return fallback }
                return min(array.count, max(0, bound < 0 ? array.count + bound : bound))
            }
            let lower = clamp(from, 0), upper = clamp(to, array.count)
            return lower < upper ? Array(array[lower..<upper]) : []
        case (.wildcard, .array(let array)): return array
        case (.wildcard, .object(let object)): return object.keys.sorted().map { object[$0]! }
        case (.filter(let filter), .array(let array)): return array.filter { filter.holds(for: $0) }
        case (.filter(let filter), .object): return filter.holds(for: value) ? [value] : []
        case (.descendants(.filter(let filter)), _):
            var found: [JSONValue] = []
            switch value {
            case .object(let object):
                if filter.holds(for: value) { found.append(value) }
                for key in object.keys.sorted() { found += apply(step, to: object[key]!, leaf: leaf) }
            case .array(let array):
                if filter.holds(for: value) { found += array.filter { !leaf || filter.holds(for: $0) } }
                for element in array { found += apply(step, to: element, leaf: leaf) }
            default: break
            }
            return found
        case (.descendants(let inner), _):
            var found = apply(inner, to: value, leaf: leaf)
            switch value {
            case .array(let array): for element in array { found += apply(step, to: element, leaf: leaf) }
            case .object(let object): for key in object.keys.sorted() { found += apply(step, to: object[key]!, leaf: leaf) }
            default: break
            }
            return found
        default: return []
        }
    }

    fileprivate static func value(at steps: [Step], in value: JSONValue) -> JSONValue? {
        apply(steps, to: [value]).first
    }
}

extension JSONPath.Filter {
    func holds(for value: JSONValue) -> Bool {
        switch self {
        case .exists(let steps): return JSONPath.value(at: steps, in: value) != nil
        case .and(let a, let b): return a.holds(for: value) && b.holds(for: value)
        case .or(let a, let b): return a.holds(for: value) || b.holds(for: value)
        case .not(let inner): return !inner.holds(for: value)
        case .regex(let steps, let filter):
            // As Jayway's: the whole text must match; a number is read as its text, and anything else (a list, an
            // object, null, nothing there) as the empty text.
            let text: String = switch JSONPath.value(at: steps, in: value) {
            case .string(let text)?: text
            case .bool(let flag)?: flag ? "true" : "false"
            case let number? where number.number != nil: number.jaywayText
            default: ""
            }
            return filter.whole.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        case .compare(let steps, let op, let literal, let texts):
            // As Jayway's JSONPath (WireMock's): a path that is not there differs from every value (`!=` and `nin`
            // hold) and is in, below or above none.
            guard let found = JSONPath.value(at: steps, in: value) else { return op == "!=" || op == "nin" }
            let list: [JSONValue] = if case .array(let items) = literal { items } else { [] }
            // Whether `value` equals an item of the list, the item's Java text beside it.
            func listed(_ value: JSONValue) -> Bool {
                list.indices.contains { value.equalsInFilter(list[$0], javaText: $0 < texts.count ? texts[$0] : nil) }
            }
            switch op {
            case "==": return found.equalsInFilter(literal, javaText: texts.first ?? nil)
            case "!=": return !found.equalsInFilter(literal, javaText: texts.first ?? nil)
            case "in": return listed(found)
            case "nin": return !listed(found)
            // These compare a list with a list: a value that is no list holds none of them.
            case "anyof", "noneof", "subsetof":
                guard case .array(let elements) = found else { return false }
                switch op {
                case "anyof": return elements.contains(where: listed)
                case "noneof": return !elements.contains(where: listed)
                default: return elements.allSatisfy(listed)
                }
            case "size":
                // As Jayway's: a text counts its UTF-16 units, an object -1 (it has no length there), the size is
                // cut to a whole number.
                let count: Int? = switch found {
                case .array(let items): items.count
                case .string(let text): text.utf16.count
                case .object: -1
                default: nil
                }
                guard let count, let size = literal.number, size.magnitude < 1e18 else { return false }
                return Int(size.rounded(.towardZero)) == count
            case "empty":
                // A text or a list; anything else (an object too, as WireMock 2.35.1 answered) is neither.
                let isEmpty: Bool? = switch found {
                case .array(let items): items.isEmpty
                case .string(let text): text.isEmpty
                default: nil
                }
                return isEmpty != nil && literal == .bool(isEmpty!)
            default:
                let order: ComparisonResult
                switch (found.number, literal.number, found, literal) {
                case (let a?, let b?, .double, .double): order = a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
                // Exactly where a double would round (integers past 2⁵³, numbers of more than 17 digits), as
                // Jayway compares them as `BigDecimal`s.
                case (_?, _?, _, _):
                    guard let a = found.exactNumber, let b = literal.exactNumber else { return false }
                    order = a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
                // Texts by their UTF-16 units, as Java compares them; a text and a number are in no order.
                case (_, _, .string(let a), .string(let b)):
                    order = a.utf16.lexicographicallyPrecedes(b.utf16) ? .orderedAscending
                        : b.utf16.lexicographicallyPrecedes(a.utf16) ? .orderedDescending : .orderedSame
                default: return false
                }
                switch op {
                case "<": return order == .orderedAscending
                case "<=": return order != .orderedDescending
                case ">": return order == .orderedDescending
                default: return order != .orderedAscending
                }
            }
        }
    }
}

extension JSONValue {
    /// Whether a value of the document (`self`) equals a filter's literal as Jayway's filters compare them: a number
    /// equals a text that reads as the same number; a text equals a number it spells as Java writes that number
    /// (`'5'` equals `5`, `'5.0'` does not; `javaText`, the literal's own text, `'1.10'` equals `1.10`); a truth value
    /// equals only a truth value; the rest by value.
    func equalsInFilter(_ literal: JSONValue, javaText: String? = nil) -> Bool {
        switch (self, literal) {
        case (.int, .string(let text)), (.double, .string(let text)), (.decimal, .string(let text)):
            guard Self.javaDecimal(text) != nil, let other = JSONDecimal(text), let mine = exactNumber else { return false }
            return mine == other
        case (.string(let text), .int), (.string(let text), .double), (.string(let text), .decimal):
            return text == (javaText ?? literal.jaywayText)
        default:
            return literal.matches(self)
        }
    }

    /// `text` as a decimal number (Java's `BigDecimal` grammar: a sign, digits with an optional point, an optional
    /// exponent), `nil` otherwise.
    private static func javaDecimal(_ text: String) -> Double? {
        var rest = Substring(text)
        if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
        let mantissa = rest.prefix { $0 != "e" && $0 != "E" }
        var exponent = rest.dropFirst(mantissa.count + 1)
        if exponent.first == "+" || exponent.first == "-" { exponent = exponent.dropFirst() }
        let digits = mantissa.filter { $0 != "." }
        guard !digits.isEmpty, mantissa.count - digits.count <= 1, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              mantissa.count == rest.count || (!exponent.isEmpty && exponent.allSatisfy({ $0.isASCII && $0.isNumber })) else { return nil }
        return Double(text)
    }

    /// `literal`, a number as written (`1.10`, `1e2`, `-0.000001`), as Java's `BigDecimal` built from that text prints
    /// it (`1.10`, `1E+2`, `-0.000001`, `1E-7`); `nil` for text that is no such number.
    static func bigDecimalText(_ literal: String) -> String? {
        var rest = Substring(literal)
        var sign = ""
        if rest.first == "-" { sign = "-"; rest = rest.dropFirst() } else if rest.first == "+" { rest = rest.dropFirst() }
        let mantissa = rest.prefix { $0 != "e" && $0 != "E" }
        let exponentText = rest.dropFirst(mantissa.count + 1)
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, !(parts[0].isEmpty && (parts.count == 1 || parts[1].isEmpty)) else { return nil }
        let whole = parts[0], fraction = parts.count == 2 ? parts[1] : ""
        guard (whole + fraction).allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let exponent: Int
        if mantissa.count == rest.count {
            exponent = 0
        } else {
            guard exponentText.count <= 8, let value = Int(exponentText), value.magnitude < 100_000 else { return nil }
            exponent = value
        }
        var digits = String((whole + fraction).drop { $0 == "0" })
        if digits.isEmpty {
            // Zero has no sign in Java's `BigDecimal` (`-0.0` is `0.0`).
            digits = "0"
            sign = ""
        }
        let scale = fraction.count - exponent
        let adjusted = -scale + (digits.count - 1)
        if scale >= 0, adjusted >= -6 {
            if scale == 0 { return sign + digits }
            if digits.count > scale { return sign + digits.dropLast(scale) + "." + digits.suffix(scale) }
            return sign + "0." + String(repeating: "0", count: scale - digits.count) + digits
        }
        let tail = digits.count > 1 ? "." + digits.dropFirst() : ""
        return sign + digits.prefix(1) + tail + "E" + (adjusted >= 0 ? "+" : "") + String(adjusted)
    }

    /// A number as Jayway's filters read it as text: what Java's `BigDecimal` prints for the number json-smart read
    /// (`5`, `10.0`, `0.000010` for 0.00001, `1.0E+10`).
    var jaywayText: String {
        switch self {
        case .int(let whole): return String(whole)
        // What json-smart reads past a double's digits: a `BigInteger`, or a `BigDecimal` of the text.
        case .decimal(let text): return isIntegerLiteral ? text : Self.bigDecimalText(text) ?? text
        case .double(let number) where number.isFinite:
            if number == 0 { return "0.0" }
            // The shortest digits of the number and where its point goes: 0.d1d2… × 10^point.
            let text = "\(number.magnitude)"
            let mark = text.firstIndex { $0 == "e" || $0 == "E" }
            let mantissa = mark.map { text[..<$0] } ?? Substring(text)
            let exponent = mark.map { Int(text[text.index(after: $0)...]) ?? 0 } ?? 0
            let whole = mantissa.prefix { $0 != "." }
            var digits = String(whole + mantissa.dropFirst(whole.count + 1)), point = whole.count + exponent
            while digits.first == "0" { digits.removeFirst(); point -= 1 }
            while digits.count > 1, digits.last == "0" { digits.removeLast() }
            let sign = number < 0 ? "-" : ""
            // Java writes 10^-3 up to 10^7 plainly, which BigDecimal keeps.
            if number.magnitude >= 1e-3, number.magnitude < 1e7 {
                if point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + digits }
                if digits.count <= point { return sign + digits + String(repeating: "0", count: point - digits.count) + ".0" }
                return sign + digits.prefix(point) + "." + digits.dropFirst(point)
            }
            // Java writes d.dddE±n (at least one digit after the point); BigDecimal reads that as digits and a scale,
            // and writes it plainly when the scale is not negative (1.23456789E7 is 12345678.9), down to 10^-6, and
            // with "E+" above.
            let unscaled = digits.count == 1 ? digits + "0" : digits
            if point >= 1, unscaled.count >= point {
                return sign + unscaled.prefix(point) + (unscaled.count > point ? "." + unscaled.dropFirst(point) : "")
            }
            if point - 1 >= -6, point < 1 {
                return sign + "0." + String(repeating: "0", count: -point) + unscaled
            }
            let exponentText = point - 1 > 0 ? "+" + String(point - 1) : String(point - 1)
            return sign + unscaled.prefix(1) + "." + unscaled.dropFirst() + "E" + exponentText
        default: return description
        }
    }

    /// The value as a number, for ordered comparisons.
    package var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        case .decimal(let text): Double(text)
        default: nil
        }
    }
}

/// Why a JSONPath expression does not compile.
package struct JSONPathError: Error, Sendable {
    package let message: String
    init(_ message: String) { self.message = message }
}

private struct Parser {
    let text: [Unicode.Scalar]
    let source: String
    var position = 0

    var atEnd: Bool { position >= text.count }
    var rest: String { String(String.UnicodeScalarView(text[position...])) }

    func failure(_ what: String) -> JSONPathError {
        JSONPathError("\"\(source)\" is not a JSONPath this library reads: \(what) at character \(position + 1); use forms such as $.a.b, $.a[0], $.a[*], $..a or $.a[?(@.b == 'x')]")
    }

    func peek(_ offset: Int = 0) -> Unicode.Scalar? { position + offset < text.count ? text[position + offset] : nil }

    mutating func eat(_ scalar: Unicode.Scalar) -> Bool {
        guard peek() == scalar else { return false }
        position += 1
        return true
    }

    mutating func skipSpaces() { while let next = peek(), next == " " { position += 1 } }

    /// Steps until the end, or a character of `stop` (inside a filter).
    mutating func steps(stopAt stop: Set<Unicode.Scalar>) throws(JSONPathError) -> [JSONPath.Step] {
        var steps: [JSONPath.Step] = []
        while let next = peek(), !stop.contains(next), next != " " {
            if eat(".") {
                if eat(".") {
                    if peek() == "[" { position += 1; steps.append(.descendants(try bracket())) }
                    else { steps.append(.descendants(try dotted())) }
                } else if eat("[") {
                    // `$.[0]` is `$[0]`, as Jayway reads it (WireMock's documentation writes `$.[?(…)]`).
                    steps.append(try bracket())
                } else {
                    steps.append(try dotted())
                }
            } else if eat("[") {
                steps.append(try bracket())
            } else {
                throw failure("unexpected \"\(next)\"")
            }
        }
        return steps
    }

    private mutating func dotted() throws(JSONPathError) -> JSONPath.Step {
        if eat("*") { return .wildcard }
        let start = position
        while let next = peek(), next.properties.isAlphabetic || ("0"..."9").contains(next) || next == "_" || next == "-" || next == "$" || next == "@" {
            position += 1
        }
        guard position > start else { throw failure("a name is missing") }
        let name = String(String.UnicodeScalarView(text[start..<position]))
        if peek() == "(" {
            guard JSONPath.functions.contains(name), peek(1) == ")" else {
                throw failure("\(name)() is not a function this library reads; use one of \(JSONPath.functions.sorted().map { "\($0)()" }.joined(separator: ", "))")
            }
            position += 2
            return .function(name)
        }
        return .name(name)
    }

    /// What follows a `[`, up to and including its `]`.
    private mutating func bracket() throws(JSONPathError) -> JSONPath.Step {
        skipSpaces()
        let step: JSONPath.Step
        if eat("*") {
            step = .wildcard
        } else if peek() == "'" || peek() == "\"" {
            var names = [try quoted()]
            while true {
                skipSpaces()
                guard eat(",") else { break }
                skipSpaces()
                guard peek() == "'" || peek() == "\"" else { throw failure("expected a name in quotes after \",\"") }
                names.append(try quoted())
            }
            step = names.count == 1 ? .name(names[0]) : .names(names)
        } else if eat("?") {
            guard eat("(") else { throw failure("a filter is written [?(…)]") }
            step = .filter(try filter())
            skipSpaces()
            guard eat(")") else { throw failure("a filter is not closed with \")\"") }
        } else {
            let from = integer()
            skipSpaces()
            if eat(":") {
                skipSpaces()
                step = .slice(from, integer())
            } else if let from {
                var indices = [from]
                while eat(",") {
                    skipSpaces()
                    guard let next = integer() else { throw failure("expected an index after \",\"") }
                    indices.append(next)
                    skipSpaces()
                }
                step = indices.count == 1 ? .index(from) : .indices(indices)
            } else {
                throw failure("expected a name in quotes, an index, \"*\" or a filter")
            }
        }
        skipSpaces()
        guard eat("]") else { throw failure("expected \"]\"") }
        return step
    }

    private mutating func integer() -> Int? {
        let start = position
        if peek() == "-" { position += 1 }
        while let next = peek(), ("0"..."9").contains(next) { position += 1 }
        guard let value = Int(String(String.UnicodeScalarView(text[start..<position]))) else { position = start; return nil }
        return value
    }

    private mutating func quoted() throws(JSONPathError) -> String {
        let quote = text[position]
        position += 1
        var result = ""
        while let next = peek(), next != quote {
            if next == "\\", let escaped = peek(1) { result.unicodeScalars.append(escaped); position += 2; continue }
            result.unicodeScalars.append(next)
            position += 1
        }
        guard eat(quote) else { throw failure("a quoted name is not closed") }
        return result
    }

    /// Tests joined with `||`, each of tests joined with `&&` (which binds first, as in Jayway).
    private mutating func filter() throws(JSONPathError) -> JSONPath.Filter {
        var result = try conjunction()
        while true {
            skipSpaces()
            guard peek() == "|", peek(1) == "|" else { return result }
            position += 2
            result = .or(result, try conjunction())
        }
    }

    private mutating func conjunction() throws(JSONPathError) -> JSONPath.Filter {
        var result = try unary()
        while true {
            skipSpaces()
            guard peek() == "&", peek(1) == "&" else { return result }
            position += 2
            result = .and(result, try unary())
        }
    }

    /// A test, `!` and a test (its negation), or tests in parentheses.
    private mutating func unary() throws(JSONPathError) -> JSONPath.Filter {
        skipSpaces()
        if eat("!") { return .not(try unary()) }
        if eat("(") {
            let inner = try filter()
            skipSpaces()
            guard eat(")") else { throw failure("a group of tests is not closed with \")\"") }
            return inner
        }
        return try comparison()
    }

    private mutating func comparison() throws(JSONPathError) -> JSONPath.Filter {
        skipSpaces()
        guard eat("@") else { throw failure("a filter tests \"@\", the current element") }
        let steps = try self.steps(stopAt: [")", "=", "!", "<", ">", "&", "|"])
        skipSpaces()
        if peek() == "=", peek(1) == "~" {
            position += 2
            skipSpaces()
            return .regex(steps, try regex())
        }
        for word in ["nin", "in", "anyof", "noneof", "subsetof", "size", "empty"] {
            let scalars = Array(word.unicodeScalars)
            guard position + scalars.count < text.count, Array(text[position..<(position + scalars.count)]) == scalars,
                  text[position + scalars.count] == " " else { continue }
            position += scalars.count
            skipSpaces()
            let (value, texts) = try literal()
            switch word {
            case "size" where value.number == nil: throw failure("size compares with a number")
            case "empty" where value != .bool(true) && value != .bool(false): throw failure("empty compares with true or false")
            case "in", "nin", "anyof", "noneof", "subsetof":
                guard case .array = value else { throw failure("\(word) compares with a list such as ['a', 'b']") }
            default: break
            }
            return .compare(steps, word, value, texts)
        }
        for op in ["==", "!=", "<=", ">=", "<", ">"] {
            let scalars = Array(op.unicodeScalars)
            guard peek() == scalars[0], scalars.count == 1 || peek(1) == scalars[1] else { continue }
            position += scalars.count
            skipSpaces()
            let (value, texts) = try literal()
            return .compare(steps, op, value, texts)
        }
        if peek() == "=" { throw failure("this comparison is not supported") }
        return .exists(steps)
    }

    /// `/pattern/` with an optional `i`, compiled now.
    private mutating func regex() throws(JSONPathError) -> JSONPath.FilterRegex {
        guard eat("/") else { throw failure("=~ compares with a regular expression written /pattern/") }
        var pattern = ""
        while let next = peek(), next != "/" {
            if next == "\\", let escaped = peek(1), escaped == "/" { pattern.unicodeScalars.append("/"); position += 2; continue }
            pattern.unicodeScalars.append(next)
            position += 1
        }
        guard eat("/") else { throw failure("a regular expression is not closed with \"/\"") }
        let caseInsensitive = eat("i")
        do {
            // Read as Jayway's Java reads it (`i`: the case of ASCII letters ignored).
            let translated = JavaRegex.icu(caseInsensitive ? "(?i)" + pattern : pattern)
            // Checked alone first: wrapped, a pattern such as `a)(b` would read as another.
            _ = try NSRegularExpression(pattern: translated)
            let whole = try NSRegularExpression(pattern: "\\A(?:" + translated + ")\\z")
            return JSONPath.FilterRegex(pattern: pattern, caseInsensitive: caseInsensitive, whole: whole)
        } catch {
            throw failure("/\(pattern)/ is not a regular expression")
        }
    }

    /// A literal, and the Java text of each number it is or holds (``JSONPath/Filter/compare(_:_:_:_:)``).
    private mutating func literal() throws(JSONPathError) -> (JSONValue, [String?]) {
        if peek() == "'" || peek() == "\"" { return (.string(try quoted()), [nil]) }
        if eat("[") {
            var items: [JSONValue] = []
            var texts: [String?] = []
            skipSpaces()
            if eat("]") { return (.array(items), texts) }
            while true {
                skipSpaces()
                // A list's numbers are read as JSON is (the spelling Java gives the double, `0.000010` for
                // 0.00001), not as written, as WireMock 2.35.1 answered.
                let (item, _) = try literal()
                items.append(item)
                texts.append(nil)
                skipSpaces()
                if eat("]") { return (.array(items), texts) }
                guard eat(",") else { throw failure("expected \",\" or \"]\" in a list") }
            }
        }
        let start = position
        while let next = peek(), next != ")", next != " ", next != "&", next != "|", next != ",", next != "]" { position += 1 }
        let word = String(String.UnicodeScalarView(text[start..<position]))
        switch word {
        case "true": return (.bool(true), [nil])
        case "false": return (.bool(false), [nil])
        case "null": return (.null, [nil])
        default:
            // Exactly as written where a double would round it (Jayway reads literals as `BigDecimal`s).
            if JSONDecimal(word) != nil,
               let value = JSONValue.number(word, isWhole: !word.contains { $0 == "." || $0 == "e" || $0 == "E" }) {
                return (value, [JSONValue.bigDecimalText(word)])
            }
            if let value = Double(word), value.isFinite { return (.double(value), [JSONValue.bigDecimalText(word)]) }
            position = start
            throw failure("expected a value in quotes, a number, true, false or null")
        }
    }

}
