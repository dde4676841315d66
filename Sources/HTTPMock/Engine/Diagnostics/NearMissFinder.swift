/// Builds an ``UnmatchedReport``: compares a request with every stub, field by field, and keeps the closest.
///
/// Only runs for a request no stub answered; the matched path never comes here. A mock with more than
/// ``comparisonLimit`` stubs compares only that many, those registered for the request's host first, so a miss
/// stays cheap with 100,000 stubs.
enum NearMissFinder {
    /// The most stubs one report compares.
    static let comparisonLimit = 1_000

    /// The report for `request`, comparing it with every stub of `router`, or with the stubs on its host when
    /// there are too many.
    static func report(for request: CapturedRequest, in router: Router, refusals: [HTTPMockError],
                       scenarios: ScenarioStates) -> UnmatchedReport {
        let total = router.stubs.count
        guard total > comparisonLimit else {
            return report(for: request, stubs: router.stubs.values, refusals: refusals, scenarios: scenarios)
        }
        let onHost = router.stubs(onHostOf: request, limit: comparisonLimit)
        var report = report(for: request, stubs: onHost.lazy.compactMap { router.stubs[$0] }, refusals: refusals,
                            scenarios: scenarios)
        report.notes.append("compared with the \(onHost.count) stub(s) registered for this host, of \(total) in all")
        return report
    }

    /// `scenarios`: the states the mock's scenarios were in when no stub answered.
    static func report(for request: CapturedRequest, stubs: some Sequence<Stub>, refusals: [HTTPMockError],
                       scenarios: ScenarioStates) -> UnmatchedReport {
        // Closest first: more agreeing fields, then host and path agreeing, then the more specific stub.
        typealias Scored = (score: Score, stub: Stub)
        func closer(_ a: Scored, _ b: Scored) -> Bool {
            if a.score.agreeing != b.score.agreeing { return a.score.agreeing > b.score.agreeing }
            if a.score.routeAgrees != b.score.routeAgrees { return a.score.routeAgrees > b.score.routeAgrees }
            return a.stub.specificity > b.stub.specificity
        }
        // Scores every stub without building text, keeping only the best few: linear in the number of stubs.
        var best: [Scored] = []
        var total = 0
        let labels = request.host.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for stub in stubs where stub.isEnabled {
            total += 1
            let scored = (score(request, hostLabels: labels, stub: stub), stub)
            if best.count == UnmatchedReport.limit, let last = best.last, !closer(scored, last) { continue }
            best.insert(scored, at: best.firstIndex { closer(scored, $0) } ?? best.endIndex)
            if best.count > UnmatchedReport.limit { best.removeLast() }
        }
        let closest = best.map { compare(request, hostLabels: labels, with: $0.stub, agreeing: $0.score.agreeing, scenarios: scenarios) }

        var notes: [String] = []
        if total == 0 { notes.append("this mock has no stub") }
        if total > closest.count { notes.append("\(total - closest.count) other stub(s) differ more") }
        if let last = refusals.last {
            notes.append("\(refusals.count) registration(s) of this mock were refused; the last: \(last.message)")
        }
        return UnmatchedReport(method: request.method, url: request.url.absoluteString, closest: closest, notes: notes)
    }

    /// How many of the six fields agree, and how many of host and path.
    struct Score {
        var agreeing: Int
        var routeAgrees: Int
    }

    static func score(_ request: CapturedRequest, hostLabels labels: [String], stub: Stub) -> Score {
        // One bit per counted field that differs; no allocation, as this runs for every stub.
        var failed = 0
        if let host = stub.host, !host.matches(host: labels, port: request.port) { failed |= bit(.host) }
        if let path = stub.path, !path.matches(request.pathSegments) { failed |= bit(.path) }
        for condition in stub.conditions where !condition.test(request) { failed |= bit(condition.field) }
        return Score(agreeing: NearMiss.fieldCount - failed.nonzeroBitCount,
                     routeAgrees: (failed & bit(.host) == 0 ? 1 : 0) + (failed & bit(.path) == 0 ? 1 : 0))
    }

    private static func bit(_ field: FieldDifference.Field) -> Int {
        switch field {
        case .method: 1
        case .host: 2
        case .path: 4
        case .query: 8
        case .headers: 16
        case .body: 32
        case .url, .condition, .scenario, .responses: 0
        }
    }

    /// How `stub` differs from `request`, field by field.
    static func compare(_ request: CapturedRequest, hostLabels labels: [String], with stub: Stub, agreeing: Int,
                        scenarios: ScenarioStates) -> NearMiss {
        var differences: [FieldDifference] = []
        if let host = stub.host, !host.matches(host: labels, port: request.port) {
            let actual = request.host.isEmpty ? "(no host)" : request.host + (request.port.map { ":\($0)" } ?? "")
            differences.append(FieldDifference(field: .host, expected: host.source, actual: actual))
        }
        if let path = stub.path, !path.matches(request.pathSegments) {
            differences.append(FieldDifference(field: .path, expected: path.normalized, actual: request.path))
        }
        for condition in stub.conditions where !condition.test(request) {
            let field = condition.field
            differences.append(FieldDifference(field: field, expected: condition.expectation, actual: describe(field, of: request)))
        }
        for required in stub.conditions.lazy.compactMap(\.scenario) where scenarios.state(of: required.name) != required.state {
            differences.append(FieldDifference(field: .scenario, expected: required.description,
                                               actual: ScenarioPoint(required.name, scenarios.state(of: required.name)).description))
        }
        if differences.isEmpty, stub.queue.isEmpty {
            differences.append(FieldDifference(field: .responses, expected: "a queued response",
                                               actual: "all \(stub.hits) response(s) already served"))
        }
        return NearMiss(stub: stub.id, summary: stub.summary, agreeing: agreeing, differences: differences)
    }

    /// The request's side of a difference, short enough for one line.
    static func describe(_ field: FieldDifference.Field, of request: CapturedRequest) -> String {
        switch field {
        case .method: return request.method
        case .host: return request.host
        case .path: return request.path
        case .url: return request.url.absoluteString
        case .query: return request.queryItems.isEmpty ? "(no query)" : request.queryItems.map(\.description).joined(separator: "&")
        case .headers:
            if request.headers.isEmpty { return "(no headers)" }
            return request.headers.map { "\($0.name): \(HeaderRedaction.redact(name: $0.name, value: $0.value))" }
                .joined(separator: ", ").clipped(to: 160)
        case .body:
            guard let body = request.body, !body.isEmpty else { return "(no body)" }
            if let text = request.bodyText { return "\"" + text.clipped(to: 120) + "\"" }
            return "\(body.count) bytes"
        case .condition, .scenario, .responses: return "not met"
        }
    }
}

extension Condition {
    /// The part of the request this condition tests, told by its key or summary (`method:…`, `query:…`,
    /// `header:…`, `body:…`); a closure without a key is a ``FieldDifference/Field/condition``.
    var field: FieldDifference.Field {
        let tag = (key ?? summary).prefix { $0.isLetter }.lowercased()
        switch tag {
        case "method": return .method
        case "query": return .query
        case "header", "headers": return .headers
        case "body", "json", "form": return .body
        case "host": return .host
        case "path": return .path
        case "url", "template": return .url
        case "scenario": return .scenario
        default: return .condition
        }
    }
}

extension Condition {
    /// The summary without its leading field word, for a difference line (`method GET` gives `GET`).
    var expectation: String {
        guard field != .condition, let space = summary.firstIndex(of: " ") else { return summary }
        return String(summary[summary.index(after: space)...])
    }
}

extension String {
    /// At most `limit` characters, with `…` when cut.
    func clipped(to limit: Int) -> String {
        count <= limit ? self : String(prefix(limit)) + "…"
    }
}
