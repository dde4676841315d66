
/// JSON equality with the leniencies WireMock's `equalToJson` offers.
package struct JSONComparison: Sendable, Hashable {
    /// Arrays hold the same elements in any order.
    package var ignoresArrayOrder = false
    /// Objects may have more keys, and arrays more elements, than the expected value.
    package var ignoresExtraElements = false

    package init() {}

    /// Expected strings that match a kind of value rather than themselves (JsonUnit's placeholders, which
    /// WireMock's `equalToJson` understands).
    static let placeholders = ["${json-unit.ignore}", "${json-unit.any-string}", "${json-unit.any-number}",
                               "${json-unit.any-boolean}"]

    /// Whether `actual` equals `expected` by meaning, as these options allow.
    package func matches(_ expected: JSONValue, _ actual: JSONValue) -> Bool {
        switch (expected, actual) {
        case (.string("${json-unit.ignore}"), _): return true
        case (.string("${json-unit.any-string}"), .string): return true
        case (.string("${json-unit.any-number}"), .int), (.string("${json-unit.any-number}"), .double): return true
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
            // In order; with extra elements allowed, the expected ones appear in order among them.
            var next = theirs.startIndex
            for value in mine {
                guard let found = theirs[next...].firstIndex(where: { matches(value, $0) }) else { return false }
                if !ignoresExtraElements, found != next { return false }
                next = found + 1
            }
            return true
        default:
            return expected.matches(actual)
        }
    }
}
