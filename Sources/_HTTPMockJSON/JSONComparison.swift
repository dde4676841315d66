
/// JSON equality with the leniencies WireMock's `equalToJson` offers.
package struct JSONComparison: Sendable, Hashable {
    /// Arrays hold the same elements in any order.
    package var ignoresArrayOrder = false
    /// Objects may have more keys, and arrays more elements after the expected ones (in any place where the order is
    /// ignored), than the expected value.
    package var ignoresExtraElements = false

    package init() {}

    /// Expected strings that match a kind of value rather than themselves (JsonUnit's placeholders, which
    /// WireMock's `equalToJson` understands).
    package static let placeholders = ["${json-unit.ignore}", "${json-unit.any-string}", "${json-unit.any-number}",
                               "${json-unit.any-boolean}"]

    /// A string of `expected` that looks like one of JsonUnit's placeholders but is none of ``placeholders``
    /// (`${json-unit.regex}…`, `#{json-unit.ignore}`): compared as text, it would silently match nothing.
    package static func unknownPlaceholder(in expected: JSONValue) -> String? {
        switch expected {
        case .string(let text):
            let looksLikeOne = text.hasPrefix("${json-unit.") || text.hasPrefix("#{json-unit.")
            return looksLikeOne && !placeholders.contains(text) ? text : nil
        case .array(let items):
            for item in items { if let found = unknownPlaceholder(in: item) { return found } }
            return nil
        case .object(let members):
            for key in members.keys.sorted() { if let found = unknownPlaceholder(in: members[key]!) { return found } }
            return nil
        default:
            return nil
        }
    }

    /// Whether `actual` equals `expected` by meaning, as these options allow.
    package func matches(_ expected: JSONValue, _ actual: JSONValue) -> Bool {
        switch (expected, actual) {
        case (.string("${json-unit.ignore}"), _): return true
        case (.string("${json-unit.any-string}"), .string): return true
        case (.string("${json-unit.any-number}"), .int), (.string("${json-unit.any-number}"), .double),
             (.string("${json-unit.any-number}"), .decimal): return true
        case (.string("${json-unit.any-boolean}"), .bool): return true
        case (.object(let mine), .object(let theirs)):
            if !ignoresExtraElements, mine.count != theirs.count { return false }
            return mine.allSatisfy { key, value in theirs[key].map { matches(value, $0) } ?? false }
        case (.array(let mine), .array(let theirs)):
            if ignoresExtraElements ? mine.count > theirs.count : mine.count != theirs.count { return false }
            if ignoresArrayOrder {
                var unused = Array(theirs.indices)
                for value in mine {
                    guard let found = unused.firstIndex(where: { matches(value, theirs[$0]) }) else { return false }
                    unused.remove(at: found)
                }
                return true
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
}
