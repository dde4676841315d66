import Foundation
import _HTTPMockRegex

/// The heart of a mock: stubs, the unmocked policy and the journal, behind one lock.
///
/// Pure Swift with no `URLSession` in it: it takes a ``CapturedRequest`` and says what to do. The interception
/// layer carries that out; tests can drive it directly.
///
/// Its state is private to this file (a new operation goes here): the faces (``HTTPMock``, ``StubHandle``,
/// ``LoadedMocks``, the format loaders) use only these named operations, each one step under the lock:
/// - answering: ``decide(_:)``, ``complete(_:with:)`` (the request path: one engine lock each, keep it so, when
///   no user code is involved), and ``decide(_:)`` in two halves, ``attempt(_:)`` and ``finish(_:)``, for
///   interception, which runs user code away from URLSession's work queue;
/// - registering: ``register(_:slot:)``, ``registerIgnoreRules(_:)``;
/// - settings: ``policy``, ``isEnabled``;
/// - removing: ``removeAllStubs()``, ``removeStubs(registeredForHost:)``, ``removeAllIgnoreRules()``,
///   ``removeLoad(_:slot:)``, ``removeLoad(inSlot:)``;
/// - handles: ``isEnabled(_:in:)``, ``setEnabled(_:_:in:)``, ``hits(_:in:)``, ``remove(_:from:)``;
/// - journal: ``journalEntries``, ``journalEntries(from:)``, ``journalEntry(_:)``, ``upcomingJournalID``,
///   ``journalCapacity``, ``journalBodyCapacity``, ``journalHosts``, ``clearJournal()``;
/// - refusals: ``recordRefusal(_:)``, ``refusals``;
/// - scenarios: ``scenarios``, ``scenarioState(_:)``, ``setScenarioState(_:of:)``, ``resetScenario(_:)``,
///   ``resetScenarios()``;
/// - reports: ``stubUsage``, ``stubContents``, ``stubListing(offset:limit:)``, ``scenarioStubs``,
///   ``loadedSources(of:)``, ``scenarioGraphs``, ``candidateCount(for:)`` (for the benchmarks).
final class Engine: Sendable {
    private struct State {
        let router = Router()
        /// Ignore rules: requests they match go to the passthrough session before any stub is asked.
        let ignored = Router()
        /// `false`: no stub answers; every request meets the ignore rules, then the unmocked policy.
        var isEnabled = true
        var policy: UnmockedPolicy = .notFound
        var journal = Journal()
        /// Registrations refused by the non-throwing API, newest last.
        var refusals: [HTTPMockError] = []
        /// Stubs loaded from files, by the slot that replaces them on the next load (`Formats/`).
        var loadedSlots: [String: Set<StubID>] = [:]
        /// The state of every scenario the stubs name.
        var scenarios = ScenarioStates()
        /// The mock's ``HTTPMock/defaultDomain``, which a near-miss report names when a request got it.
        var defaultDomain = "example.com"
        /// Webhooks of answered requests, sent when their entries complete (at most ``pendingWebhookLimit``: the
        /// oldest go first, for entries that never complete).
        var pendingWebhooks: [Int: PendingWebhooks] = [:]
        /// Hosts beyond this machine that proxies and webhooks may reach (``HTTPMock/allowedProxyHosts``).
        var allowedHosts: Set<String> = []
        /// Whether some message stub fires on HTTP requests: then a completed entry is handed to ``messaging``.
        var messageHTTPTriggers = false

        /// Forgets the state of scenarios no stub names any more (after stubs are removed).
        mutating func forgetUnnamedScenarios() {
            let router = router
            scenarios.keep { router.scenarioNames }
        }

        func table(_ registry: Registry) -> Router {
            switch registry {
            case .stubs: router
            case .ignoreRules: ignored
            }
        }
    }

    private let state: Locked<State>
    /// Channels, message stubs and the message journal (``Messaging``), behind a lock of their own.
    let messaging: Messaging
    /// Who is told when an entry is appended or completed (waiting assertions, journal writers).
    let journalEvents = JournalEvents()
    /// Sends the webhooks of a completed entry: set by the interception layer, which owns the sessions.
    private let webhookSender = Locked<(@Sendable (PendingWebhooks) -> Void)?>(nil)
    static let pendingWebhookLimit = 1_000

    init() {
        let state = Locked(State())
        self.state = state
        messaging = Messaging { triggers in state.withLock { $0.messageHTTPTriggers = triggers } }
    }

    /// One stub to register: a route, conditions and responses.
    struct Definition {
        var host: HostGlob?
        var path: PathGlob?
        var conditions: [Condition]
        var responses: [MockResponse]

        init(host: HostGlob?, path: PathGlob?, conditions: [Condition], responses: [MockResponse]) {
            self.host = host
            self.path = path
            // Kept at its size, when it is made (a folder's mapping as it is read, before the next file): a list
            // built by appending has room to spare, 96 bytes a condition, that every stub would hold.
            self.conditions = conditions.capacity > conditions.count ? conditions.withUnsafeBufferPointer { Array($0) } : conditions
            self.responses = responses
        }
    }

    /// Registers every definition, or none: the first problem is thrown and nothing is added.
    /// With a `slot` (`Formats/`), the stubs registered before in that slot are removed in the same step, so no
    /// request sees both or neither, and the new ones take their place.
    @discardableResult
    func register(_ definitions: [Definition], slot: String? = nil) throws(HTTPMockError) -> [StubID] {
        try Self.check(definitions)
        return state.withLock { state in
            if let slot, let previous = state.loadedSlots[slot] { state.router.removeAll { previous.contains($0.id) } }
            let ids = definitions.map {
                state.router.add(host: $0.host, path: $0.path, conditions: $0.conditions, responses: $0.responses)
            }
            if let slot { state.loadedSlots[slot] = Set(ids) }
            state.forgetUnnamedScenarios()
            return ids
        }
    }

    /// Definitions registered ahead, in a router of their own and off the engine's lock, while more of them are still
    /// being read (a large folder, read on every core: each part as soon as the parts before it are in). They reach
    /// requests only through ``register(_:staged:slot:)``.
    final class Staging: @unchecked Sendable {  // reason: one thread at a time adds to it (its reader hands it on under a lock)
        fileprivate let router = Router()
        fileprivate private(set) var ids: [StubID] = []
        /// The first problem met: nothing after it is staged, and registering does it again the usual way.
        fileprivate private(set) var problem: HTTPMockError?
        /// Whether a mock was offered its router: once only, and nothing is staged after it (the mock's router and
        /// this one then share their index).
        fileprivate let offered = Locked(false)
        /// Whether a mock took its router whole (``register(_:staged:slot:)``), rather than its definitions.
        fileprivate(set) var adopted = false

        init() {}

        /// Stages `definitions` after those staged before, as ``register(_:slot:)`` would add them.
        func add(_ definitions: [Definition]) {
            guard problem == nil, !offered.current else { return }
            do {
                try Engine.check(definitions)
            } catch {
                problem = error
                return
            }
            ids.reserveCapacity(ids.count + definitions.count)
            for index in definitions.indices {
                let definition = definitions[index]
                ids.append(router.add(host: definition.host, path: definition.path, conditions: definition.conditions,
                                      responses: definition.responses))
            }
        }
    }

    /// As ``register(_:slot:)``, with `staged` holding these same `definitions` staged ahead: when this engine has never
    /// held a stub (a server's first load), its router is taken whole, in one step; otherwise the definitions are
    /// registered as ``register(_:slot:)`` registers them.
    func register(_ definitions: [Definition], staged: Staging, slot: String? = nil) throws(HTTPMockError) -> [StubID] {
        let first = staged.offered.withLock { offered in
            defer { offered = true }
            return !offered
        }
        if first, staged.problem == nil, staged.ids.count == definitions.count, let ids = state.withLock({ state -> [StubID]? in
            guard state.router.adopt(staged.router) else { return nil }
            staged.adopted = true
            if let slot { state.loadedSlots[slot] = Set(staged.ids) }
            state.forgetUnnamedScenarios()
            return staged.ids
        }) {
            return ids
        }
        return try register(definitions, slot: slot)
    }

    /// Replaces some stubs of a slot (those of one changed file) with `definitions`, in one step: the rest of the
    /// slot stays as it is. All or nothing, as ``register(_:slot:)``.
    func replace(_ old: Set<StubID>, with definitions: [Definition], inSlot slot: String) throws(HTTPMockError) -> [StubID] {
        try Self.check(definitions)
        return state.withLock { state in
            let gone = old.intersection(state.loadedSlots[slot] ?? [])
            if !gone.isEmpty { state.router.removeAll { gone.contains($0.id) } }
            let ids = definitions.map {
                state.router.add(host: $0.host, path: $0.path, conditions: $0.conditions, responses: $0.responses)
            }
            state.loadedSlots[slot, default: []].subtract(gone)
            state.loadedSlots[slot, default: []].formUnion(ids)
            state.forgetUnnamedScenarios()
            return ids
        }
    }

    /// The first problem of `definitions` that keeps them from being registered.
    fileprivate static func check(_ definitions: [Definition]) throws(HTTPMockError) {
        // By position: 10,000 definitions (a WireMock folder) are checked without copying each one and its responses.
        for index in definitions.indices {
            if let conflict = definitions[index].conditions.scenarioConflict { throw conflict }
            let responses = definitions[index].responses
            for position in responses.indices {
                if let problem = responses[position].problem { throw problem }
                if let problem = responses[position].delivery.problem {
                    throw HTTPMockError.invalidResponse("\(problem), for \(describe(definitions[index]))")
                }
                if case .multiple(let count) = responses[position].lifetime, count < 1 {
                    throw HTTPMockError.invalidResponse("lifetime .multiple(\(count)) for \(describe(definitions[index])) must serve at least once; use .multiple(1) or more")
                }
            }
        }
    }

    /// Adds ignore rules (their responses are not used), all or nothing.
    @discardableResult
    func registerIgnoreRules(_ definitions: [Definition]) -> [StubID] {
        state.withLock { state in
            definitions.map { state.ignored.add(host: $0.host, path: $0.path, conditions: $0.conditions, responses: []) }
        }
    }

    private static func describe(_ definition: Definition) -> String {
        "\(definition.host?.source ?? "any host")\(definition.path?.normalized ?? "/**")"
    }

    /// What to do with a request.
    enum Decision: Sendable {
        case respond(MockResponse)
        case passthrough
        case fail(any Error & Sendable)
        case crash(String)
    }

    /// The mock's default domain, named by near-miss reports of requests that got it.
    var defaultDomain: String {
        get { state.withLock { $0.defaultDomain } }
        set { state.withLock { $0.defaultDomain = newValue } }
    }

    /// Decides how to answer `request`, consumes a queued response if a stub answers, and journals it.
    ///
    /// User code (custom matchers, regular expressions, dynamic responses) runs on the caller's thread, never
    /// under the engine's lock, so it may read the journal or register stubs. ``attempt(_:)`` and
    /// ``finish(_:)`` split this in two for callers that must not run user code where they are.
    func decide(_ request: CapturedRequest) -> (decision: Decision, entry: Int) {
        switch attempt(request) {
        case .decided(let decision, let entry): (decision, entry)
        case .deferred(let deferred): finish(deferred)
        }
    }

    /// What ``attempt(_:)`` got to.
    enum Attempt: Sendable {
        /// Decided without user code.
        case decided(Decision, entry: Int)
        /// Deciding needs user code: ``finish(_:)`` does the rest, wherever the caller may run it.
        case deferred(Deferred)
    }

    /// A decision that waits for user code.
    struct Deferred: Sendable {
        fileprivate let request: CapturedRequest
        fileprivate let step: Step

        fileprivate enum Step: Sendable {
            /// Candidate rules and stubs, most specific first, whose conditions are to be tested.
            case match(ignoreRules: [Candidate], stubs: [Candidate])
            /// A dynamic response, already consumed and journaled, to build.
            case build(MockResponse, captures: [String: String], entry: Int)
            /// A response with a body template (mapping files), already consumed and journaled, to render.
            case render(MockResponse, entry: Int)
        }
    }

    /// A stub as the lock-free part of a decision sees it: conditions never change once registered, and an
    /// identifier is never reused, so the consuming step finds the same stub or none.
    fileprivate struct Candidate: Sendable {
        let id: StubID
        let conditions: [Condition]
    }

    /// One step under the lock: decides `request` unless user code must run, in which case nothing is consumed
    /// or journaled (but a dynamic response or a body template, which is consumed and journaled, and only built or
    /// rendered later). A request whose candidates run no user code costs one lock, as it always has; so does one
    /// answered by a stub that ranks above every candidate that runs user code.
    func attempt(_ request: CapturedRequest) -> Attempt {
        let outcome = state.withLock { state -> FirstPass in
            let rules = state.ignored.stubs.count > 0 ? state.ignored.candidates(for: request) : []
            let stubs = state.isEnabled ? state.router.candidates(for: request) : []
            // Most mocks have no stub that runs user code: then no candidate needs looking up to know it.
            let ruleUserCode = state.ignored.userCodeStubs > 0 && rules.contains { state.ignored.stubs.hasUserCode($0) }
            let firstUserCode = state.router.userCodeStubs > 0 ? stubs.firstIndex { state.router.stubs.hasUserCode($0) } : nil
            func snapshot(_ ids: some Sequence<StubID>, in table: Router) -> [Candidate] {
                ids.compactMap { id in table.stubs[id].flatMap { $0.isEnabled ? Candidate(id: id, conditions: $0.conditions) : nil } }
            }
            if ruleUserCode {
                return .deferred(.match(ignoreRules: snapshot(rules, in: state.ignored), stubs: snapshot(stubs, in: state.router)))
            }
            if let first = firstUserCode {
                // The stubs ranked above every one that runs user code answer here when they match (a plain
                // `/health` beside a slow regular expression), as if no stub ran user code; the rest is deferred.
                if let decided = answer(request, rules: rules, candidates: stubs[..<first], in: &state) { return decided }
                return .deferred(.match(ignoreRules: [], stubs: snapshot(stubs[first...], in: state.router)))
            }
            return resolve(request, rules: rules, candidates: stubs, in: &state)
        }
        switch outcome {
        case .deferred(let step):
            return .deferred(Deferred(request: request, step: step))
        case .decided(let decision, let entry, let captures):
            journalEvents.notify(.appended, entry: entry, engine: self)
            guard case .respond(let response) = decision else { return .decided(decision, entry: entry) }
            if case .dynamic = response.content {
                // The package's own builders run here, outside the lock; the user's on a queue of their own.
                if response.isBuiltInPlace { return .decided(.respond(response.resolved(for: request, captures: captures)), entry: entry) }
                return .deferred(Deferred(request: request, step: .build(response, captures: captures, entry: entry)))
            }
            if response.render != nil {
                // A body template is rendered where the caller runs user code.
                return .deferred(Deferred(request: request, step: .render(response, entry: entry)))
            }
            return .decided(.respond(response), entry: entry)
        }
    }

    /// Finishes a deferred decision: tests user conditions and builds dynamic responses outside the lock, then
    /// takes the lock to consume from the first stub that passes (if it is gone or spent by then, the next one).
    func finish(_ deferred: Deferred) -> (decision: Decision, entry: Int) {
        let request = deferred.request
        switch deferred.step {
        case .build(let response, let captures, let entry):
            return (.respond(response.resolved(for: request, captures: captures)), entry)
        case .render(let response, let entry):
            return (.respond(reachable(response.rendered(for: request))), entry)
        case .match(let rules, let stubs):
            let overrun = RegexBudget.Overrun()
            return RegexBudget.$overrun.withValue(overrun) { match(request, rules: rules, stubs: stubs, overrun: overrun) }
        }
    }

    /// Tries to finish a deferred decision where the caller is (a server's event loop) when the only user code it
    /// needs is this package's own and bounded: regular expressions (``Condition/runsInBudget``) and body templates
    /// (``MockResponse/rendersInPlace``), each within a budget far smaller than the one it has where user code runs
    /// (``RegexBudget/Overrun/inPlace``). Gives back what is left to do: `.decided`, or `.deferred` for
    /// ``finish(_:)`` (the same step when nothing was consumed or journaled yet, or the rendering of a response
    /// taken meanwhile). A custom matcher, a dynamic response of the user's, a request no stub answers (its
    /// near-miss report tests every stub) and work past the small budget are always left to ``finish(_:)``.
    func attemptInPlace(_ deferred: Deferred) -> Attempt {
        let request = deferred.request
        switch deferred.step {
        case .build:
            return .deferred(deferred)
        case .render(let response, let entry):
            guard let rendered = renderedInPlace(response, for: request) else { return .deferred(deferred) }
            return .decided(.respond(rendered), entry: entry)
        case .match(let rules, let stubs):
            func bounded(_ candidate: Candidate) -> Bool { candidate.conditions.allSatisfy { !$0.isUserCode || $0.runsInBudget } }
            guard rules.allSatisfy(bounded), stubs.allSatisfy(bounded) else { return .deferred(deferred) }
            let overrun = RegexBudget.Overrun(inPlace: true)
            let outcome = RegexBudget.$overrun.withValue(overrun) {
                tryMatch(request, rules: rules, stubs: stubs, overrun: overrun)
            }
            return outcome ?? .deferred(deferred)
        }
    }

    /// Tells the journal's observers of `entry` as a decision's own code runs no more: the budget of a decision tried
    /// in place is not theirs.
    private func notifyOutsideBudget(_ entry: Int) {
        RegexBudget.$overrun.withValue(nil) { journalEvents.notify(.appended, entry: entry, engine: self) }
    }

    /// `response` rendered for `request` within the in-place budget, or `nil` when it is not rendered in place
    /// (its template reads a file, or runs past that budget: it is rendered again where user code runs).
    private func renderedInPlace(_ response: MockResponse, for request: CapturedRequest) -> MockResponse? {
        guard response.render == nil || response.rendersInPlace else { return nil }
        let overrun = RegexBudget.Overrun(inPlace: true)
        let rendered = RegexBudget.$overrun.withValue(overrun) { response.rendered(for: request) }
        return overrun.pattern == nil ? reachable(rendered) : nil
    }

    /// The matching half of ``finish(_:)``: user conditions tested here, outside the lock. A regular expression
    /// that runs past ``RegexBudget`` while a rule or stub is tested ends the decision with `500` naming it.
    private func match(_ request: CapturedRequest, rules: [Candidate], stubs: [Candidate],
                       overrun: RegexBudget.Overrun) -> (decision: Decision, entry: Int) {
        switch tryMatch(request, rules: rules, stubs: stubs, overrun: overrun) {
        case .decided(let decision, let entry)?: return (decision, entry)
        case .deferred(let deferred)?: return finish(deferred)
        case nil: preconditionFailure("only a decision tried in place is given up")
        }
    }

    /// The matching half of ``finish(_:)``, or, for a decision tried in place (``RegexBudget/Overrun/inPlace``):
    /// `nil` when a condition runs past the small budget or no stub answers (nothing consumed or journaled then),
    /// and the consumed response's rendering or building deferred when it is not done in place.
    private func tryMatch(_ request: CapturedRequest, rules: [Candidate], stubs: [Candidate],
                          overrun: RegexBudget.Overrun) -> Attempt? {
        for rule in rules where rule.conditions.allSatisfy({ $0.test(request) }) || overrun.pattern != nil {
            if let pattern = overrun.take() {
                if overrun.inPlace { return nil }
                let (decision, entry) = exceeded(request, candidate: rule, in: .ignoreRules, pattern: pattern)
                return .decided(decision, entry: entry)
            }
            let entry = state.withLock { state -> Int? in
                guard state.ignored.stubs.isEnabled(rule.id) else { return nil }
                return state.journal.append(request, resolution: .passedThrough)
            }
            if let entry {
                notifyOutsideBudget(entry)
                return .decided(.passthrough, entry: entry)
            }
        }
        for stub in stubs where stub.conditions.allSatisfy({ $0.test(request) }) || overrun.pattern != nil {
            if let pattern = overrun.take() {
                if overrun.inPlace { return nil }
                let (decision, entry) = exceeded(request, candidate: stub, in: .stubs, pattern: pattern)
                return .decided(decision, entry: entry)
            }
            guard let (response, entry) = state.withLock({ consume(stub.id, for: request, in: &$0) }) else { continue }
            notifyOutsideBudget(entry)
            guard case .dynamic = response.content else {
                guard overrun.inPlace else { return .decided(.respond(reachable(response.rendered(for: request))), entry: entry) }
                if let rendered = renderedInPlace(response, for: request) { return .decided(.respond(rendered), entry: entry) }
                return .deferred(Deferred(request: request, step: .render(response, entry: entry)))
            }
            var captures: [String: String] = [:]
            for capture in stub.conditions.compactMap(\.captures) { captures.merge(capture(request)) { $1 } }
            if overrun.inPlace, !response.isBuiltInPlace {
                return .deferred(Deferred(request: request, step: .build(response, captures: captures, entry: entry)))
            }
            return .decided(.respond(response.resolved(for: request, captures: captures)), entry: entry)
        }
        // In place, a request no stub answers is left where user code runs: its report tests every stub.
        if overrun.inPlace { return nil }
        // No stub answered. The report tests every stub's conditions: copy them under the lock, compare outside.
        let compared = state.withLock { state -> (stubs: [Stub], total: Int, refusals: [HTTPMockError], scenarios: ScenarioStates, defaultDomain: String)? in
            guard state.policy.needsReport else { return nil }
            let total = state.router.stubs.count
            let stubs = total > NearMissFinder.comparisonLimit
                ? state.router.stubs(onHostOf: request, limit: NearMissFinder.comparisonLimit).compactMap { state.router.stubs[$0] }
                : Array(state.router.stubs.values)
            return (stubs, total, state.refusals, state.scenarios, state.defaultDomain)
        }
        var report: UnmatchedReport?
        if let compared {
            report = NearMissFinder.report(for: request, stubs: compared.stubs, refusals: compared.refusals,
                                           scenarios: compared.scenarios)
            if compared.total > compared.stubs.count {
                report!.notes.append("compared with the \(compared.stubs.count) stub(s) registered for this host, of \(compared.total) in all")
            }
            NearMissFinder.noteDefaultDomain(in: &report!, request: request, defaultDomain: compared.defaultDomain)
        }
        let (decision, entry) = state.withLock { missed(request, report: report, in: &$0) }
        journalEvents.notify(.appended, entry: entry, engine: self)
        return .decided(decision, entry: entry)
    }

    /// Journals `request` as not answered because `candidate`'s regular expression `pattern` ran past its budget,
    /// and answers `500` saying so.
    private func exceeded(_ request: CapturedRequest, candidate: Candidate, in registry: Registry,
                          pattern: String) -> (decision: Decision, entry: Int) {
        let (decision, entry) = state.withLock { state -> (Decision, Int) in
            let stub = state.table(registry).stubs[candidate.id].map { "\(candidate.id) \($0.summary)" } ?? "\(candidate.id)"
            let message = RegexBudget.message(stub: stub, pattern: pattern)
            let entry = state.journal.append(request, resolution: .unmatched(reason: message))
            return (.respond(.plaintext(message, status: .internalServerError, headers: ["X-HTTPMock": "regex-budget"])), entry)
        }
        journalEvents.notify(.appended, entry: entry, engine: self)
        return (decision, entry)
    }

    private enum FirstPass {
        case decided(Decision, Int, [String: String])
        case deferred(Deferred.Step)
    }

    /// Takes the next response of stub `id` and journals the request, if the stub is still there, enabled, in its
    /// scenarios' required states and has one; moves the scenario the response moves.
    ///
    /// Both halves of a decision take responses only here, under the lock: a scenario may have moved while user
    /// code ran, so its required state is checked now, and the move is part of the same step.
    private func consume(_ id: StubID, for request: CapturedRequest, in state: inout State) -> (MockResponse, Int)? {
        guard state.router.stubs.isEnabled(id) else { return nil }
        // A mock without scenario conditions (most) looks nothing up.
        if state.router.scenarioStubs > 0, let conditions = state.router.stubs.enabledConditions(id),
           !state.scenarios.allow(conditions) { return nil }
        var response: MockResponse?
        var summary = ""
        state.router.update(id) {
            response = $0.queue.next()
            guard response != nil else { return }
            $0.hits += 1
            if $0.answeredSummary == nil { $0.answeredSummary = $0.summary }
            summary = $0.answeredSummary!
        }
        guard let response else { return nil }
        if let move = response.scenarioMove { state.scenarios.set(move.name, to: move.state) }
        let entry = state.journal.append(request, resolution: .stub(id, summary: summary))
        if !response.webhooks.isEmpty {
            if state.pendingWebhooks.count >= Self.pendingWebhookLimit, let oldest = state.pendingWebhooks.keys.min() {
                state.pendingWebhooks[oldest] = nil
            }
            state.pendingWebhooks[entry] = PendingWebhooks(entry: entry, request: request, webhooks: response.webhooks)
        }
        return (response, entry)
    }

    /// The whole decision under the lock, for candidates that run no user code.
    private func resolve(_ request: CapturedRequest, rules: [StubID], candidates: [StubID], in state: inout State) -> FirstPass {
        if let decided = answer(request, rules: rules, candidates: candidates[...], in: &state) { return decided }
        // No stub answered: the rare path, where the report may scan every stub. If one runs user code, the
        // report is made outside the lock (nothing was consumed or journaled: the finish starts from the miss).
        if state.router.userCodeStubs > 0, state.policy.needsReport { return .deferred(.match(ignoreRules: [], stubs: [])) }
        var report = state.policy.needsReport ? NearMissFinder.report(for: request, in: state.router, refusals: state.refusals,
                                                                                scenarios: state.scenarios) : nil
        if report != nil { NearMissFinder.noteDefaultDomain(in: &report!, request: request, defaultDomain: state.defaultDomain) }
        let (decision, entry) = missed(request, report: report, in: &state)
        return .decided(decision, entry, [:])
    }

    /// An ignore rule or a stub that answers `request`, all of them running no user code; `nil` when none does
    /// (nothing consumed or journaled).
    private func answer(_ request: CapturedRequest, rules: [StubID], candidates: ArraySlice<StubID>,
                        in state: inout State) -> FirstPass? {
        if rules.contains(where: { id in
            guard let conditions = state.ignored.stubs.enabledConditions(id) else { return false }
            return conditions.allSatisfy { $0.test(request) }
        }) {
            return .decided(.passthrough, state.journal.append(request, resolution: .passedThrough), [:])
        }
        for id in candidates {
            guard let conditions = state.router.stubs.enabledConditions(id) else { continue }
            if conditions.contains(where: { !$0.test(request) }) { continue }
            if let (response, entry) = consume(id, for: request, in: &state) {
                var captures: [String: String] = [:]
                if case .dynamic = response.content {
                    for capture in conditions.compactMap(\.captures) { captures.merge(capture(request)) { $1 } }
                }
                return .decided(.respond(response), entry, captures)
            }
        }
        return nil
    }

    /// Journals a request no stub answered and applies the unmocked policy.
    private func missed(_ request: CapturedRequest, report: UnmatchedReport?, in state: inout State) -> (Decision, Int) {
        guard let report, state.policy.needsReport else {
            return (.passthrough, state.journal.append(request, resolution: .passedThrough))
        }
        var reason = report.description
        if !state.isEnabled { reason += "\n- the mock is disabled (isEnabled = false)" }
        let entry = state.journal.append(request, resolution: .unmatched(reason: reason), report: report)
        switch state.policy {
        case .passthrough:
            return (.passthrough, entry)
        case .notFound:
            return (.respond(.plaintext(reason, status: .notFound, headers: ["X-HTTPMock": "unmatched"])), entry)
        case .mock(let response):
            if let problem = response.problem {
                // Never an empty body standing in for a response that could not be built.
                return (.fail(URLError(.fileDoesNotExist, userInfo: [NSLocalizedDescriptionKey: "HTTPMock: the unmocked policy's response is invalid: \(problem.message)"])), entry)
            }
            return (.respond(response), entry)
        case .optOut:
            return (.fail(HTTPMockError(.unmockedRequest, reason)), entry)
        case .fail(let error):
            return (.fail(error), entry)
        case .fatalError:
            return (.crash(reason), entry)
        }
    }

    func complete(_ entry: Int, with outcome: JournalEntry.Outcome) {
        let (webhooks, triggers) = state.withLock { state -> (PendingWebhooks?, Bool) in
            state.journal.complete(entry, with: outcome)
            return (state.pendingWebhooks.isEmpty ? nil : state.pendingWebhooks.removeValue(forKey: entry), state.messageHTTPTriggers)
        }
        journalEvents.notify(.completed, entry: entry, engine: self)
        if let webhooks { send(webhooks) }
        // Only with a message stub that HTTP requests trigger: the entry is read again (no copy otherwise).
        if triggers, let served = journalEntry(entry) {
            var stub: (id: StubID, summary: String)?
            if case .stub(let id, let summary) = served.resolution { stub = (id, summary) }
            messaging.httpServed(served.request, stub: stub)
        }
    }

    /// Hands the webhooks of a completed entry to the sender, outside the lock.
    private func send(_ webhooks: PendingWebhooks) {
        webhookSender.withLock { $0 }?(webhooks)
    }
}

// MARK: - Settings

extension Engine {
    /// Hosts beyond this machine that proxies and webhooks may reach.
    var allowedHosts: Set<String> {
        get { state.withLock { $0.allowedHosts } }
        set { state.withLock { $0.allowedHosts = Set(newValue.map { $0.lowercased() }) } }
    }

    /// Whether a proxy or a webhook may send to `host`: loopback, or a host the user allowed.
    func mayReach(_ host: String) -> Bool {
        Loopback.allows(host, among: state.withLock { $0.allowedHosts })
    }

    /// A rendered `response` as it is, unless it forwards to a target rendered from a template (a WireMock
    /// `proxyBaseUrl` with `{{…}}`) whose host this mock may not reach now: then `500` naming the template, the host
    /// and how to allow it, and nothing is sent. A fixed target was checked when it loaded.
    func reachable(_ response: MockResponse) -> MockResponse {
        guard let forwarding = response.forwarding, let place = forwarding.renderedFrom else { return response }
        let host = forwarding.base.host ?? ""
        if mayReach(host) { return response }
        let target = forwarding.base.absoluteString
        let quoted = target.count > 200 ? String(target.prefix(200)) + "…" : target
        return .plaintext("HTTPMock: \(place): \"proxyBaseUrl\" rendered to \(quoted) for this request, which sends it to \(host), beyond this machine; not sent: \(Loopback.howToAllow(host))\n",
                          status: .internalServerError, lifetime: .eternal)
    }

    /// Who sends webhooks (the interception layer, with the mock's passthrough session).
    func setWebhookSender(_ sender: @escaping @Sendable (PendingWebhooks) -> Void) {
        webhookSender.withLock { $0 = sender }
    }

    /// A webhook that entry `id`'s stub sent, kept with the entry; waits on the journal are told.
    func recordWebhook(_ id: Int, _ record: WebhookRecord) {
        state.withLock { $0.journal.addWebhook(id, record) }
        journalEvents.notify(.webhook, entry: id, engine: self)
    }
    /// What happens to a request no stub answers.
    var policy: UnmockedPolicy {
        get { state.withLock { $0.policy } }
        set { state.withLock { $0.policy = newValue } }
    }

    /// Whether stubs answer; when `false`, only ignore rules and the policy do.
    var isEnabled: Bool {
        get { state.withLock { $0.isEnabled } }
        set { state.withLock { $0.isEnabled = newValue } }
    }
}

// MARK: - Removing

extension Engine {
    /// Removes every stub with its queue, and forgets which loads held slots. Ignore rules, the journal and the
    /// policy stay.
    func removeAllStubs() {
        state.withLock { state in
            state.router.removeAll()
            state.loadedSlots = [:]
            state.scenarios.resetAll()
        }
    }

    /// Removes every stub whose host pattern is `host` as written (compared case-insensitively).
    func removeStubs(registeredForHost host: String) {
        let host = host.lowercased()
        state.withLock { state in
            state.router.removeAll { $0.host?.source.lowercased() == host }
            state.forgetUnnamedScenarios()
        }
    }

    /// Removes the stubs loaded from `source` (a file and a place in it, as ``Condition/loaded(from:)`` names it),
    /// alone or followed by `, mapping` and the mapping's name or id, as a named WireMock mapping's stub is loaded;
    /// whether there were any.
    func removeStubs(loadedFrom source: String) -> Bool {
        let mark = Condition.loaded(from: source).summary
        let named = mark + ", mapping "
        return state.withLock { state in
            var found = false
            state.router.removeAll { stub in
                let loaded = stub.conditions.contains {
                    $0.key == nil && $0.weight == 0 && ($0.summary == mark || Self.namesMapping($0.summary, after: named))
                }
                found = found || loaded
                return loaded
            }
            state.forgetUnnamedScenarios()
            return found
        }
    }

    /// Whether `summary` is `prefix` followed by a mapping's quoted name or its id only: not the mark of another
    /// file whose name goes on past `prefix` (`a.json, mapping b.json`).
    private static func namesMapping(_ summary: String, after prefix: String) -> Bool {
        guard summary.hasPrefix(prefix) else { return false }
        let rest = summary.dropFirst(prefix.count)
        return (rest.count >= 2 && rest.first == "\"" && rest.last == "\"") || UUID(uuidString: String(rest)) != nil
    }

    /// Removes every ignore rule.
    func removeAllIgnoreRules() {
        state.withLock { $0.ignored.removeAll() }
    }

    /// Removes the stubs of one load, and frees its slot if that load still occupies it.
    func removeLoad(_ ids: Set<StubID>, slot: String?) {
        state.withLock { state in
            state.router.removeAll { ids.contains($0.id) }
            if let slot, state.loadedSlots[slot] == ids { state.loadedSlots[slot] = nil }
            state.forgetUnnamedScenarios()
        }
    }

    /// Removes the stubs of many loads in one step: one pass over the router, however many loads (removing them
    /// one by one would pass over it once each).
    func removeLoads(_ loads: [(ids: Set<StubID>, slot: String?)]) {
        guard !loads.isEmpty else { return }
        let all = loads.reduce(into: Set<StubID>()) { $0.formUnion($1.ids) }
        state.withLock { state in
            state.router.removeAll { all.contains($0.id) }
            for load in loads {
                if let slot = load.slot, state.loadedSlots[slot] == load.ids { state.loadedSlots[slot] = nil }
            }
            state.forgetUnnamedScenarios()
        }
    }

    /// Removes the stubs of whatever load occupies `slot`, and frees it.
    func removeLoad(inSlot slot: String) {
        state.withLock { state in
            guard let ids = state.loadedSlots.removeValue(forKey: slot) else { return }
            state.router.removeAll { ids.contains($0.id) }
            state.forgetUnnamedScenarios()
        }
    }
}

// MARK: - Handles

extension Engine {
    /// The two registries a ``StubHandle`` can point into.
    enum Registry: Sendable {
        /// Stubs that answer requests.
        case stubs
        /// Ignore rules, which send requests to the passthrough session.
        case ignoreRules
    }

    /// Whether any of `ids` is present and enabled.
    func isEnabled(_ ids: [StubID], in registry: Registry) -> Bool {
        state.withLock { state in
            let table = state.table(registry)
            return ids.contains { table.stubs[$0]?.isEnabled == true }
        }
    }

    /// Switches every one of `ids` on or off.
    func setEnabled(_ enabled: Bool, _ ids: [StubID], in registry: Registry) {
        state.withLock { state in
            let table = state.table(registry)
            for id in ids { table.update(id) { $0.isEnabled = enabled } }
        }
    }

    /// How many requests `ids` answered together.
    func hits(_ ids: [StubID], in registry: Registry) -> Int {
        state.withLock { state in
            let table = state.table(registry)
            return ids.reduce(0) { $0 + (table.stubs[$1]?.hits ?? 0) }
        }
    }

    /// Removes `ids` with their queues.
    func remove(_ ids: [StubID], from registry: Registry) {
        let doomed = Set(ids)
        state.withLock { state in
            state.table(registry).removeAll { doomed.contains($0.id) }
            state.forgetUnnamedScenarios()
        }
    }
}

// MARK: - Journal

extension Engine {
    /// Every kept entry, oldest first.
    var journalEntries: [JournalEntry] { state.withLock { $0.journal.entries } }

    /// Kept entries whose identifier is `id` or later, oldest first.
    func journalEntries(from id: Int) -> [JournalEntry] { state.withLock { $0.journal.entries(from: id) } }

    /// A page of the journal, newest first: of the entries received after `date`, `offset` skipped and at most
    /// `limit` kept; and how many entries the journal keeps in all. Only the page is copied under the lock.
    func journalPage(receivedAfter date: Date, offset: Int, limit: Int) -> (entries: [JournalEntry], total: Int) {
        state.withLock { state in
            (state.journal.newestFirst(offset: offset, limit: limit) { $0.receivedAt > date }, state.journal.count)
        }
    }

    /// The entry `id`, if it is still kept.
    func journalEntry(_ id: Int) -> JournalEntry? { state.withLock { $0.journal.entry(id) } }

    /// The identifier the next request's entry will get.
    var upcomingJournalID: Int { state.withLock { $0.journal.upcomingID } }

    /// How many entries are kept.
    var journalCapacity: Int {
        get { state.withLock { $0.journal.capacity } }
        set { state.withLock { $0.journal.capacity = newValue } }
    }

    /// How many bytes of request bodies are kept whole, over every entry.
    var journalBodyCapacity: Int {
        get { state.withLock { $0.journal.bodyCapacity } }
        set { state.withLock { $0.journal.bodyCapacity = newValue } }
    }

    /// Forgets every entry; identifiers keep counting up.
    func clearJournal() { state.withLock { $0.journal.removeAll() } }

    /// Forgets the entries `shouldRemove` picks (called under the engine's lock: keep it to reading the entry) and
    /// returns them, oldest first; the others keep their identifiers.
    func removeJournalEntries(where shouldRemove: (JournalEntry) -> Bool) -> [JournalEntry] {
        state.withLock { $0.journal.remove(where: shouldRemove) }
    }

    /// The hosts whose requests are journaled; `nil`: every request.
    var journalHosts: [HostGlob]? {
        get { state.withLock { $0.journal.hosts } }
        set { state.withLock { $0.journal.hosts = newValue } }
    }
}

// MARK: - Refusals and reports

extension Engine {
    /// Registrations the non-throwing API refused, oldest first.
    var refusals: [HTTPMockError] { state.withLock { $0.refusals } }

    /// Keeps a refused registration, so reports about unanswered requests can name it.
    func recordRefusal(_ error: HTTPMockError) { state.withLock { $0.refusals.append(error) } }

    /// Every stub with its use, in registration order.
    var stubUsage: [StubUsage] {
        state.withLock { state in
            state.router.stubs.values.sorted { $0.id < $1.id }.map {
                StubUsage(id: $0.id, summary: $0.summary, hits: $0.hits, remainingResponses: $0.queue.count,
                          servesForever: $0.queue.servesForever)
            }
        }
    }

    /// What every stub would answer, in registration order: its route, its conditions and its queued responses
    /// (HTTPMockOpenAPI checks them against a document's contract).
    var stubContents: [StubContents] {
        state.withLock { state in
            state.router.stubs.values.sorted { $0.id < $1.id }.map { stub in
                StubContents(id: stub.id, summary: stub.summary, host: stub.host?.source, path: stub.path?.normalized,
                             methods: Condition.methods(in: stub.conditions), conditions: stub.conditions.map(\.summary),
                             responses: stub.queue.responses)
            }
        }
    }

    /// One page of the stubs, in registration order: each with its hits, whether it is enabled, where it was loaded
    /// from and the scenario states it requires and moves to; with how many there are in all. Under the lock it
    /// reads the page's stubs only (those before are skipped by their slots).
    func stubListing(offset: Int, limit: Int) -> StubListing {
        state.withLock { state in
            let uses = state.router.scenarioUses
            let page = state.router.stubs.values(from: max(0, offset)).prefix(max(0, limit)).map { stub in
                Self.listed(stub, use: uses[stub.id])
            }
            return StubListing(total: state.router.stubs.count, mockIsEnabled: state.isEnabled, stubs: Array(page))
        }
    }

    /// The stubs that name a scenario, in registration order, listed as ``stubListing(offset:limit:)`` lists them.
    var scenarioStubs: [ListedStub] {
        state.withLock { state in
            let uses = state.router.scenarioUses
            return uses.keys.sorted().compactMap { id in
                guard let stub = state.router.stubs[id], let use = uses[id] else { return nil }
                return Self.listed(stub, use: use)
            }
        }
    }

    /// Where each of `stubs` was loaded from (`mappings/users.json, mapping "Get user"`), by stub: those registered
    /// in code and those removed since are left out.
    func loadedSources(of stubs: Set<StubID>) -> [StubID: String] {
        guard !stubs.isEmpty else { return [:] }
        return state.withLock { state in
            var sources: [StubID: String] = [:]
            for id in stubs {
                if let source = state.router.stubs[id]?.conditions.lazy.compactMap(\.loadedSource).first { sources[id] = source }
            }
            return sources
        }
    }

    private static func listed(_ stub: Stub, use: ScenarioUse?) -> ListedStub {
        ListedStub(id: stub.id, summary: stub.summary, route: Condition.route(of: stub),
                   hits: stub.hits, isEnabled: stub.isEnabled, remainingResponses: stub.queue.count,
                   servesForever: stub.queue.servesForever,
                   loadedFrom: stub.conditions.lazy.compactMap(\.loadedSource).first,
                   requiredStates: (use?.required ?? []).map { ListedStub.ScenarioState(scenario: $0.name, state: $0.state) },
                   movesTo: (use?.moves ?? []).map { ListedStub.ScenarioState(scenario: $0.name, state: $0.state) })
    }

    /// The near-miss report of `request` against the stubs, without deciding or journaling it: the stubs are copied
    /// under the lock and compared outside it (their conditions may run user code).
    func report(for request: CapturedRequest) -> UnmatchedReport {
        let (stubs, total, refusals, scenarios, defaultDomain) = state.withLock { state in
            let total = state.router.stubs.count
            let stubs = total > NearMissFinder.comparisonLimit
                ? state.router.stubs(onHostOf: request, limit: NearMissFinder.comparisonLimit).compactMap { state.router.stubs[$0] }
                : Array(state.router.stubs.values)
            return (stubs, total, state.refusals, state.scenarios, state.defaultDomain)
        }
        var report = NearMissFinder.report(for: request, stubs: stubs, refusals: refusals, scenarios: scenarios)
        if total > stubs.count {
            report.notes.append("compared with the \(stubs.count) stub(s) registered for this host, of \(total) in all")
        }
        NearMissFinder.noteDefaultDomain(in: &report, request: request, defaultDomain: defaultDomain)
        return report
    }

    /// How many stubs the router's index finds for `request` by host and path alone.
    func candidateCount(for request: CapturedRequest) -> Int {
        state.withLock { $0.router.candidates(for: request).count }
    }
}

// MARK: - Scenarios

extension Engine {
    /// Every scenario a stub names, in the order they were first named.
    var scenarios: [Scenario] {
        state.withLock { state in
            state.router.namedScenarios.map {
                Scenario(name: $0.name, state: state.scenarios.state(of: $0.name), possibleStates: $0.possibleStates)
            }
        }
    }

    /// Every scenario a stub names, in the order they were first named, with its state, its possible states and
    /// the moves its stubs make: for each stub that moves it, from the state the stub requires of it (`nil`: any)
    /// to the state a response of the stub moves it to, once for each distinct pair.
    var scenarioGraphs: [ScenarioGraph] {
        // Under the lock, what is needed is copied (the stubs that move a scenario share their storage); the
        // summaries are written and the moves paired outside it.
        let (named, current, moving) = state.withLock { state in
            let named = state.router.namedScenarios
            var current: [String: String] = [:]
            for scenario in named { current[scenario.name] = state.scenarios.state(of: scenario.name) }
            let uses = state.router.scenarioUses
            let moving = uses.keys.sorted().compactMap { id -> (stub: Stub, use: ScenarioUse)? in
                guard let use = uses[id], !use.moves.isEmpty, let stub = state.router.stubs[id] else { return nil }
                return (stub, use)
            }
            return (named, current, moving)
        }
        var transitions: [String: [ScenarioGraph.Transition]] = [:]
        var seen: [String: Set<ScenarioGraph.Transition>] = [:]
        for (stub, use) in moving {
            let summary = stub.summary, route = Condition.route(of: stub)
            for move in use.moves {
                let from = use.required.first { $0.name == move.name }?.state
                let transition = ScenarioGraph.Transition(stub: stub.id, summary: summary, route: route, from: from, to: move.state)
                if seen[move.name, default: []].insert(transition).inserted { transitions[move.name, default: []].append(transition) }
            }
        }
        return named.map {
            ScenarioGraph(name: $0.name, state: current[$0.name] ?? ScenarioStates.started, possibleStates: $0.possibleStates,
                          transitions: transitions[$0.name] ?? [])
        }
    }

    /// The state of scenario `name`; `nil` when no stub names it.
    func scenarioState(_ name: String) -> String? {
        state.withLock { state in
            state.router.scenarioNames.contains(name) ? state.scenarios.state(of: name) : nil
        }
    }

    /// Puts scenario `name` in `newState`; `false` (and nothing changes) when no stub names it.
    func setScenarioState(_ newState: String, of name: String) -> Bool {
        state.withLock { state in
            guard state.router.scenarioNames.contains(name) else { return false }
            state.scenarios.set(name, to: newState)
            return true
        }
    }

    /// Puts scenario `name` back in its first state; `false` when no stub names it.
    func resetScenario(_ name: String) -> Bool {
        setScenarioState(ScenarioStates.started, of: name)
    }

    /// Puts every scenario back in its first state.
    func resetScenarios() {
        state.withLock { $0.scenarios.resetAll() }
    }
}

extension UnmockedPolicy {
    /// Whether a request this policy answers gets a near-miss report (all but plain passthrough).
    var needsReport: Bool {
        if case .passthrough = self { return false }
        return true
    }
}

extension MockResponse {
    /// The response with its body template rendered for `request` (mapping files), outside the engine's lock.
    func rendered(for request: CapturedRequest) -> MockResponse {
        render.map { $0(request) } ?? self
    }
}

// MARK: - Streams


// What the faces tell the journal while a streamed response goes out.
extension Engine {
    /// The headers of a streamed response went out for `entry`.
    /// `date`: when they went out (for a relayed stream, when they came from the real server). A relayed stream is kept
    /// whole up to ``StreamRecord/keptRelayedBytes``, for recordings.
    func beginStream(_ entry: Int, status: Int, headers: [String: String], at date: Date = Date(), relayed: Bool = false) {
        state.withLock {
            $0.journal.updateStream(entry) { $0 = StreamRecord(status: status, headers: headers, startedAt: date, relayed: relayed) }
        }
        journalEvents.notify(.streamed, entry: entry, engine: self)
    }

    /// Parts of `entry`'s streamed response reached the client, in this order; `dates`, when given, says when each
    /// came from the real server that a relayed stream passes on (the record keeps that server's timing).
    func streamed(_ entry: Int, parts: [Data], at dates: [Date]? = nil) {
        let now = Date()
        state.withLock { state in
            state.journal.updateStream(entry) { record in
                for (index, part) in parts.enumerated() { record?.append(part, at: dates?[index] ?? now) }
            }
        }
        journalEvents.notify(.streamed, entry: entry, engine: self)
    }

    /// `entry`'s stream ended: its record says how, and the entry is completed (a response with the kept parts
    /// as its body when it finished; the error the client got otherwise).
    func endStream(_ entry: Int, _ ending: StreamRecord.Ending) {
        let done = state.withLock { state -> Bool in
            var outcome: JournalEntry.Outcome?
            state.journal.updateStream(entry) { record in
                guard var current = record, current.ending == nil else { return }
                current.ending = ending
                record = current
                switch ending {
                case .finished: outcome = .response(status: current.status, headers: current.headers, body: current.body)
                case .failed(let error): outcome = .failure(error)
                case .clientWentAway: outcome = .failure(URLError(.cancelled))
                }
            }
            guard let outcome else { return false }
            state.journal.complete(entry, with: outcome)
            return true
        }
        guard done else { return }
        let webhooks = state.withLock { $0.pendingWebhooks.isEmpty ? nil : $0.pendingWebhooks.removeValue(forKey: entry) }
        journalEvents.notify(.completed, entry: entry, engine: self)
        if let webhooks { send(webhooks) }
    }
}

// MARK: - WebSockets

extension Engine {
    /// `entry`'s WebSocket conversation opened.
    func beginWebSocket(_ entry: Int) {
        state.withLock { $0.journal.updateWebSocket(entry) { $0 = WebSocketRecord() } }
        journalEvents.notify(.streamed, entry: entry, engine: self)
    }

    /// A message of `entry`'s conversation went one way or the other.
    func webSocketMessage(_ entry: Int, _ message: WebSocketMessage, fromClient: Bool) {
        let now = Date()
        state.withLock { $0.journal.updateWebSocket(entry) { $0?.append(message, fromClient: fromClient, at: now) } }
        journalEvents.notify(.streamed, entry: entry, engine: self)
    }

    /// `entry`'s conversation closed, with the close code if one was sent.
    func endWebSocket(_ entry: Int, code: Int?) {
        state.withLock { $0.journal.updateWebSocket(entry) { $0?.close(code: code) } }
        journalEvents.notify(.streamed, entry: entry, engine: self)
    }
}

extension RegexBudget {
    /// What a request whose stub's expression ran past the budget is told, with the stub it was testing.
    static func message(stub: String, pattern: String) -> String {
        "HTTPMock: the request was not answered: the regular expression /\(pattern)/ of stub \(stub) ran past its matching budget (about 20 million steps of ICU's matcher, more for a long input) on it and was stopped. It backtracks exponentially on input like this one: write it without nested quantifiers (such as a+ for (a+)+), or anchor and narrow it.\n"
    }
}
