import _HTTPMockJSON

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
        // Closest first: the closer fields (a path one letter off is closer than another path), then host and path
        // agreeing, then the more specific stub.
        typealias Scored = (score: Score, stub: Stub)
        func closer(_ a: Scored, _ b: Scored) -> Bool {
            if a.score.closeness != b.score.closeness { return a.score.closeness > b.score.closeness }
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
        let closest = best.map {
            compare(request, hostLabels: labels, with: $0.stub, agreeing: $0.score.agreeing, closeness: $0.score.closeness,
                    scenarios: scenarios)
        }

        var notes: [String] = []
        if total == 0 { notes.append("this mock has no stub") }
        if total > closest.count { notes.append("\(total - closest.count) other stub(s) differ more") }
        if let last = refusals.last {
            notes.append("\(refusals.count) registration(s) of this mock were refused; the last: \(last.message)")
        }
        return UnmatchedReport(method: request.method, url: request.url.absoluteString, closest: closest, notes: notes)
    }

    /// When the request's host is the mock's default domain (HTTPMockServer gives it to a request for its own
    /// address when it has no origin) and the closest stub differs only by host, says how to match that host.
    static func noteDefaultDomain(in report: inout UnmatchedReport, request: CapturedRequest, defaultDomain: String) {
        guard request.host.caseInsensitiveCompare(defaultDomain) == .orderedSame, let closest = report.closest.first,
              !closest.differences.isEmpty, closest.differences.allSatisfy({ $0.field == .host }),
              let wanted = closest.differences.first?.expected else { return }
        report.notes.append("the request's host is \(defaultDomain), the mock's default domain, which HTTPMockServer gives a request for its own address when it has no origin: to match the stubs on \(wanted), start the server with origin: \"https://\(wanted)\" (httpmock serve --origin https://\(wanted)), or set the mock's defaultDomain to \(wanted)")
    }

    /// How many of the six fields agree, how close the stub comes (see ``NearMiss/closeness``), and how many of host
    /// and path agree.
    struct Score {
        var agreeing: Int
        var closeness: Double
        var routeAgrees: Int
    }

    static func score(_ request: CapturedRequest, hostLabels labels: [String], stub: Stub) -> Score {
        // One bit per counted field that differs; no allocation until a host or path differs.
        var failed = 0
        var hostAlike = 0.0, pathAlike = 0.0
        if let host = stub.host, !host.matches(host: labels, port: request.port) {
            failed |= bit(.host)
            hostAlike = similarity(request.host, host.source)
        }
        if let path = stub.path, !path.matches(request.pathSegments) {
            failed |= bit(.path)
            pathAlike = similarity(request.path, path.normalized)
        }
        for condition in stub.conditions where !condition.test(request) {
            let field = condition.field
            // A URL pattern or template stands for the path: how alike it is counts once.
            if field == .url, failed & bit(.path) == 0 { pathAlike = similarity(request.path, condition.expectation) }
            failed |= bit(field)
        }
        // The path weighs most, then the host: a stub on the request's path with another method is closer than one
        // on another path. A differing host or path adds how alike it is, less than half its weight, so it never
        // ranks above the same field agreeing.
        var weighed = 0.0
        for (field, weight) in weights {
            if failed & bit(field) == 0 {
                weighed += weight
            } else if field == .path {
                weighed += weight * 0.49 * pathAlike
            } else if field == .host {
                weighed += weight * 0.49 * hostAlike
            }
        }
        return Score(agreeing: NearMiss.fieldCount - failed.nonzeroBitCount,
                     closeness: weighed / totalWeight * Double(NearMiss.fieldCount),
                     routeAgrees: (failed & bit(.host) == 0 ? 1 : 0) + (failed & bit(.path) == 0 ? 1 : 0))
    }

    /// How much each of the six fields weighs in how close a stub comes.
    private static let weights: [(FieldDifference.Field, Double)] = [
        (.path, 2), (.host, 1.5), (.method, 1), (.query, 1), (.headers, 1), (.body, 1),
    ]
    private static let totalWeight = weights.reduce(0) { $0 + $1.1 }

    /// The one bit of each of the six fields; a whole-URL pattern is the path's.
    private static func bit(_ field: FieldDifference.Field) -> Int {
        switch field {
        case .method: 1
        case .host: 2
        case .path, .url: 4
        case .query: 8
        case .headers: 16
        case .body: 32
        case .condition, .scenario, .responses: 0
        }
    }

    /// How alike two strings are, from 0 (nothing in common) to 1 (equal): one minus their edit distance over the
    /// longer length. Only the first ``comparedCharacters`` count, so a miss stays cheap.
    static func similarity(_ a: String, _ b: String) -> Double {
        let x = Array(a.utf8.prefix(comparedCharacters)), y = Array(b.utf8.prefix(comparedCharacters))
        let longest = max(x.count, y.count)
        guard longest > 0 else { return 1 }
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...max(x.count, 1) where !x.isEmpty {
            current[0] = i
            for j in stride(from: 1, through: y.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        let distance = x.isEmpty ? y.count : previous[y.count]
        return 1 - Double(distance) / Double(longest)
    }

    /// The characters of a host or path that ``similarity(_:_:)`` compares.
    static let comparedCharacters = 64

    /// How `stub` differs from `request`, field by field.
    static func compare(_ request: CapturedRequest, hostLabels labels: [String], with stub: Stub, agreeing: Int,
                        closeness: Double, scenarios: ScenarioStates) -> NearMiss {
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
        return NearMiss(stub: stub.id, summary: stub.summary, agreeing: agreeing, differences: differences, closeness: closeness)
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
