import Foundation

extension Match {
    /// The request meets every one of `matches` (what a stub's own list of matchers already means; this groups
    /// them where one matcher is expected, inside ``not(_:)`` or ``any(of:)``).
    static func all(of matches: [Match]) -> Match {
        if matches.count == 1 { return matches[0] }
        let description = "(" + matches.map(\.description).joined(separator: " and ") + ")"
        return Match(description) { () throws(HTTPMockError) -> Compiled in
            let inner = try RequestPredicate(matches)
            return Compiled(condition: Condition(key: inner.key.map { "all:(" + $0 + ")" }, weight: max(1, inner.conditions.count),
                                                 summary: description, isUserCode: inner.conditions.contains(where: \.isUserCode)) {
                inner.matches($0)
            }.inBudget(as: inner.conditions))
        }
    }

    /// The request meets at least one of `matches`.
    static func any(of matches: [Match]) -> Match {
        if matches.count == 1 { return matches[0] }
        let description = "(" + matches.map(\.description).joined(separator: " or ") + ")"
        return Match(description) { () throws(HTTPMockError) -> Compiled in
            var alternatives: [RequestPredicate] = []
            for match in matches { alternatives.append(try RequestPredicate([match])) }
            let all = alternatives
            let keys = all.compactMap(\.key)
            let conditions = all.flatMap(\.conditions)
            return Compiled(condition: Condition(key: keys.count == all.count ? "any:(" + keys.joined(separator: "|") + ")" : nil,
                                                 summary: description, isUserCode: conditions.contains(where: \.isUserCode)) { request in
                all.contains { $0.matches(request) }
            }.inBudget(as: conditions))
        }
    }
}
