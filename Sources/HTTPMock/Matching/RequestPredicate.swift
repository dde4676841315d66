/// Matchers compiled once into a test of a whole request, for the faces that check requests after the fact:
/// HTTPMockTesting's assertions and waits, and ``Match/not(_:)``.
///
/// The router reaches the same answer by another road (host and path through its index, the rest as conditions);
/// the matching-table tests require the two to agree on every case.
package struct RequestPredicate: Sendable {
    /// One test per matcher part: host and path patterns as conditions, then each matcher's condition.
    let conditions: [Condition]

    /// Compiles `matches`. An invalid matcher throws the same ``HTTPMockError`` a stub registration would.
    package init(_ matches: [Match]) throws(HTTPMockError) {
        var conditions: [Condition] = []
        for match in matches {
            let compiled = try match.make()
            if compiled.routeIsTest {
                if let host = compiled.host { conditions.append(.host(host)) }
                if let path = compiled.path { conditions.append(.path(path)) }
            }
            if let condition = compiled.condition {
                if let point = condition.scenario { throw Self.scenarioRefusal(point) }
                conditions.append(condition)
            }
        }
        self.conditions = conditions
    }

    init(conditions: [Condition]) {
        self.conditions = conditions
    }

    /// Why a scenario condition cannot check a request on its own: the state it reads is the mock's.
    static func scenarioRefusal(_ point: ScenarioPoint) -> HTTPMockError {
        HTTPMockError(.invalidPattern, "Match.scenario(\"\(point.name)\", state: \"\(point.state)\") is a condition on a stub, which answers only while the mock's scenario is in that state; a request carries no scenario state, so it cannot be used in .not(…), an assertion, a wait or an ignore rule. Read the state with mock.scenarioState(\"\(point.name)\")")
    }

    /// Whether `request` meets every matcher.
    package func matches(_ request: CapturedRequest) -> Bool {
        conditions.allSatisfy { $0.test(request) }
    }

    /// How `request` differs, one line per unmet matcher, in the words of the near-miss report
    /// (`method: expected POST, got GET`); empty when it matches.
    /// How many conditions the predicate tests.
    package var conditionCount: Int { conditions.count }

    package func differences(from request: CapturedRequest) -> [FieldDifference] {
        conditions.filter { !$0.test(request) }.map { condition in
            FieldDifference(field: condition.field, expected: condition.expectation,
                            actual: NearMissFinder.describe(condition.field, of: request))
        }
    }

    /// A key when every part has one: two predicates with equal keys accept the same requests.
    var key: String? {
        var keys: [String] = []
        for condition in conditions {
            guard let key = condition.key else { return nil }
            keys.append(key)
        }
        return keys.joined(separator: "&")
    }
}
