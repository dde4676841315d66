import Foundation
import _HTTPMockRegex

/// JSON equality with the leniencies WireMock's `equalToJson` offers.
package struct JSONComparison: Sendable, Hashable {
    /// Arrays hold the same elements in any order.
    package var ignoresArrayOrder = false
    /// Objects may have more keys, and arrays more elements after the expected ones (in any place where the order is
    /// ignored), than the expected value.
    package var ignoresExtraElements = false

    /// The regular expressions of the expected value's `${json-unit.regex}` placeholders, compiled once
    /// (``prepared(for:)``), by pattern.
    private var expressions: [String: NSRegularExpression] = [:]

    package init() {}

    /// These options with the regular expressions of `expected`'s `${json-unit.regex}` placeholders compiled, in
    /// Java's dialect, to match a whole text; one that does not compile matches nothing (WireMock loads it).
    package func prepared(for expected: JSONValue) -> JSONComparison {
        var prepared = self
        func visit(_ value: JSONValue) {
            switch value {
            case .string(let text):
                guard let placeholder = Self.placeholder(text), placeholder.hasPrefix(Self.regexMark) else { return }
                let pattern = String(placeholder.dropFirst(Self.regexMark.count))
                if prepared.expressions[pattern] == nil,
                   let expression = try? NSRegularExpression(pattern: "\\A(?:" + JavaRegex.icu(pattern) + ")\\z") {
                    prepared.expressions[pattern] = expression
                }
            case .array(let items): items.forEach(visit)
            case .object(let members): members.values.forEach(visit)
            default: break
            }
        }
        visit(expected)
        return prepared
    }

    private static let regexMark = "{json-unit.regex}"

    /// Expected strings that match a kind of value rather than themselves (JsonUnit's placeholders, which
    /// WireMock's `equalToJson` understands), each also written `#{…}`; `${json-unit.regex}` takes a Java regular
    /// expression after it, which the whole text must match. Any other `${json-unit.…}` is compared as text, as
    /// WireMock 2.35.1 compares it.
    package static let placeholders = ["${json-unit.ignore}", "${json-unit.ignore-element}", "${json-unit.any-string}",
                                       "${json-unit.any-number}", "${json-unit.any-boolean}", "${json-unit.regex}…"]

    /// The placeholder `text` is, with `#{` read as `${`; `nil` for other text.
    private static func placeholder(_ text: String) -> Substring? {
        guard text.utf8.count >= 12, text.utf8.first == UInt8(ascii: "$") || text.utf8.first == UInt8(ascii: "#") else { return nil }
        let rest = text.dropFirst()
        return rest.hasPrefix("{json-unit.") ? rest : nil
    }

    /// Whether `actual` equals `expected` by meaning, as these options allow.
    package func matches(_ expected: JSONValue, _ actual: JSONValue) -> Bool {
        if case .string(let text) = expected, let placeholder = Self.placeholder(text) {
            switch placeholder {
            case "{json-unit.ignore}", "{json-unit.ignore-element}": return true
            case "{json-unit.any-string}": if case .string = actual { return true } else { return false }
            case "{json-unit.any-number}":
                switch actual { case .int, .double, .decimal: return true; default: return false }
            case "{json-unit.any-boolean}": if case .bool = actual { return true } else { return false }
            default:
                if placeholder.hasPrefix(Self.regexMark) {
                    // Within the budget of every regular expression a request runs (RegexBudget).
                    guard case .string(let value) = actual,
                          let expression = expressions[String(placeholder.dropFirst(Self.regexMark.count))] else { return false }
                    return expression.containsMatch(in: value)
                }
            }
        }
        switch (expected, actual) {
        // Texts and keys code unit by code unit, as Java compares them (`é` is not `e` and a combining accent).
        case (.string(let mine), .string(let theirs)):
            return mine.utf8.elementsEqual(theirs.utf8)
        case (.object(let mine), .object(let theirs)):
            for (key, value) in mine {
                guard let index = theirs.index(forKey: key), theirs[index].key.utf8.elementsEqual(key.utf8) else {
                    // Only `ignore-element` stands for a member that is not there.
                    if case .string(let text) = value, Self.placeholder(text) == "{json-unit.ignore-element}" { continue }
                    return false
                }
                if !matches(value, theirs[index].value) { return false }
            }
            if ignoresExtraElements { return true }
            // No member of theirs beyond the expected ones.
            return theirs.keys.allSatisfy { key in
                mine.index(forKey: key).map { mine[$0].key.utf8.elementsEqual(key.utf8) } ?? false
            }
        case (.array(let mine), .array(let theirs)):
            if ignoresExtraElements ? mine.count > theirs.count : mine.count != theirs.count { return false }
            if ignoresArrayOrder {
                // Each expected element takes the first unused one it matches: most lists are settled so.
                var unused = Array(theirs.indices)
                var settled = true
                for value in mine {
                    guard let found = unused.firstIndex(where: { matches(value, theirs[$0]) }) else {
                        settled = false
                        break
                    }
                    unused.remove(at: found)
                }
                if settled { return true }
                // A first choice can take the element another needs (`[{}, {"c": null}]` against
                // `[{"c": null, "a": 1}, {}]` with extra members ignored): look for an element of theirs for each of
                // mine, as JsonUnit does, within a bound of comparisons.
                guard mine.count * theirs.count <= Self.assignmentBound else { return false }
                let candidates = mine.map { value in theirs.indices.filter { matches(value, theirs[$0]) } }
                return Self.assignsEach(candidates, among: theirs.count)
            }
            // In order, element by element; extra elements allowed only after the expected ones, as JsonUnit (which
            // WireMock compares with) allows them: `[1, 3]` is not in `[1, 2, 3]`.
            return zip(mine, theirs).allSatisfy { matches($0, $1) }
        case (.int, _), (.double, _), (.decimal, _):
            return JSONValue.wireMockNumbersEqual(expected, actual)
        default:
            return expected.matches(actual)
        }
    }

    /// The most element comparisons a list compared in any order may take to look past first choices.
    static let assignmentBound = 250_000

    /// Whether each of `candidates.count` elements can have one of its candidates (indexes below `count`) to itself:
    /// a matching found by augmenting paths (Kuhn's algorithm), at most `candidates.count` deep.
    static func assignsEach(_ candidates: [[Int]], among count: Int) -> Bool {
        var owner = [Int](repeating: -1, count: count)
        func augment(_ element: Int, _ seen: inout [Bool]) -> Bool {
            for candidate in candidates[element] where !seen[candidate] {
                seen[candidate] = true
                if owner[candidate] < 0 || augment(owner[candidate], &seen) {
                    owner[candidate] = element
                    return true
                }
            }
            return false
        }
        for element in candidates.indices {
            var seen = [Bool](repeating: false, count: count)
            guard augment(element, &seen) else { return false }
        }
        return true
    }
}
