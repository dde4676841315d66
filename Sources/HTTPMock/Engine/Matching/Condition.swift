/// One condition a stub puts on a request, beyond its host and path (method, query, headers, body, custom…).
///
/// The router finds candidate stubs by host and path through its index, then checks their conditions.
/// Every matcher the library offers is compiled to one of these, so new kinds of matcher never touch the router.
struct Condition: Sendable {
    /// Two registrations whose routes and condition keys are equal share one response queue.
    /// `nil` (a closure) makes the stub unique.
    let key: String?
    /// What the condition adds to a stub's specificity: a stub with more conditions wins over an otherwise
    /// equally specific one.
    let weight: Int
    /// A short human description, used in reports (`method POST`, `query q=swift (exact)`).
    let summary: String
    let test: @Sendable (CapturedRequest) -> Bool
    /// Named values the condition reads from a matching request (URI template variables), handed to dynamic
    /// responses. `nil` for conditions that capture nothing.
    let captures: (@Sendable (CapturedRequest) -> [String: String])?
    /// The scenario state a stub requires (``Match/scenario(_:state:)``): not a test of the request, which `test`
    /// passes, but of the engine's state, which the engine checks under its lock when it takes a response.
    let scenario: ScenarioPoint?
    /// Ranks a stub before its specificity: a stub whose conditions add up to a higher precedence wins over every
    /// stub with a lower one, however specific. 0 for everything but WireMock's `priority`.
    let precedence: Int
    // The two flags last: between the larger fields each would pad to eight bytes (96 bytes a condition, not 104).
    /// Among stubs of equal precedence, this stub ranks by registration alone (the later wins), not by its
    /// specificity: WireMock's rule, for folders served as WireMock serves them (``Condition/wireMockOrder``).
    private(set) var ranksByRegistration = false
    /// Whether `test` runs the user's code (a closure, a ``RequestMatcher``, a regular expression), which may be
    /// slow or call back into the mock: the engine then tests it outside its lock, and interception away from
    /// URLSession's work queue.
    let isUserCode: Bool
    /// Whether `test`, though it counts as user code, is this package's own regular expression work, bounded by
    /// ``RegexBudget``: a decision may try it in place within a small budget first (``Engine/attemptInPlace(_:)``).
    private(set) var runsInBudget = false

    init(key: String?, weight: Int = 1, summary: String, isUserCode: Bool = false, precedence: Int = 0,
         captures: (@Sendable (CapturedRequest) -> [String: String])? = nil, scenario: ScenarioPoint? = nil,
         test: @escaping @Sendable (CapturedRequest) -> Bool) {
        self.key = key
        self.weight = weight
        self.precedence = precedence
        self.summary = summary
        self.isUserCode = isUserCode
        self.captures = captures
        self.scenario = scenario
        self.test = test
    }
}

extension Condition {
    /// The same condition with another weight in a stub's specificity.
    func weighing(_ weight: Int) -> Condition {
        var weighed = Condition(key: key, weight: weight, summary: summary, isUserCode: isUserCode, precedence: precedence,
                                captures: captures, scenario: scenario,
                                test: test)
        weighed.runsInBudget = runsInBudget
        return weighed
    }

    /// The same condition marked as this package's own regular expression work (``runsInBudget``).
    func inBudget() -> Condition {
        var marked = self
        marked.runsInBudget = true
        return marked
    }

    /// A condition made of `inner` (`not`, `all`, `any`) runs in budget when each of them that runs user code does.
    func inBudget(as inner: [Condition]) -> Condition {
        inner.allSatisfy { !$0.isUserCode || $0.runsInBudget } ? inBudget() : self
    }

    /// Marks a stub to rank as WireMock ranks its mappings: among equal priorities, the most recently added wins,
    /// however specific the others are. It tests nothing and weighs nothing.
    static let wireMockOrder: Condition = {
        var condition = Condition(key: "order:wiremock", weight: 0, summary: "ranked as WireMock ranks") { _ in true }
        condition.ranksByRegistration = true
        return condition
    }()

    /// The request's method equals one of `methods` (upper-cased).
    static func method(_ methods: Set<String>) -> Condition {
        // One shared condition per common method: most stubs name one, and each would otherwise hold its own copy.
        if methods.count == 1, let shared = standardMethods[methods.first!] { return shared }
        return makeMethod(methods)
    }

    private static let standardMethods: [String: Condition] = Dictionary(uniqueKeysWithValues:
        ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].map { ($0, makeMethod([$0])) })

    private static func makeMethod(_ methods: Set<String>) -> Condition {
        let sorted = methods.sorted()
        return Condition(key: "method:" + sorted.joined(separator: ","), summary: "method " + sorted.joined(separator: " or ")) {
            methods.contains($0.method)
        }
    }
}
