/// Builds an ``UnmatchedReport``: compares a request with every stub, field by field, and keeps the closest.
///
/// Only runs for a request no stub answered, so it may scan every stub; the matched path never comes here.
enum NearMissFinder {
    static func report(for request: CapturedRequest, stubs: some Sequence<Stub>, refusals: [HTTPMockError]) -> UnmatchedReport {
        var scored: [(miss: NearMiss, routeAgrees: Int, specificity: Specificity)] = []
        var total = 0
        for stub in stubs where stub.isEnabled {
            total += 1
            let (miss, routeAgrees) = compare(request, with: stub)
            scored.append((miss, routeAgrees, stub.specificity))
        }
        // Closest first: more agreeing fields, then host and path agreeing, then the more specific stub.
        let closest = scored.sorted {
            if $0.miss.agreeing != $1.miss.agreeing { return $0.miss.agreeing > $1.miss.agreeing }
            if $0.routeAgrees != $1.routeAgrees { return $0.routeAgrees > $1.routeAgrees }
            return $0.specificity > $1.specificity
        }.prefix(UnmatchedReport.limit).map(\.miss)

        var notes: [String] = []
        if total == 0 { notes.append("this mock has no stub") }
        if total > closest.count { notes.append("\(total - closest.count) other stub(s) differ more") }
        if let last = refusals.last {
            notes.append("\(refusals.count) registration(s) of this mock were refused; the last: \(last.message)")
        }
        return UnmatchedReport(method: request.method, url: request.url.absoluteString, closest: Array(closest), notes: notes)
    }

    /// How `stub` differs from `request`, and how many of host and path agree.
    static func compare(_ request: CapturedRequest, with stub: Stub) -> (NearMiss, routeAgrees: Int) {
        var differences: [FieldDifference] = []
        var failedFields = Set<FieldDifference.Field>()
        if let host = stub.host {
            let labels = request.host.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            if !host.matches(host: labels, port: request.port) {
                let actual = request.host.isEmpty ? "(no host)" : request.host + (request.port.map { ":\($0)" } ?? "")
                differences.append(FieldDifference(field: .host, expected: host.source, actual: actual))
                failedFields.insert(.host)
            }
        }
        if let path = stub.path, !path.matches(request.pathSegments) {
            differences.append(FieldDifference(field: .path, expected: path.normalized, actual: request.path))
            failedFields.insert(.path)
        }
        for condition in stub.conditions where !condition.test(request) {
            let field = condition.field
            differences.append(FieldDifference(field: field, expected: condition.summary, actual: describe(field, of: request)))
            failedFields.insert(field)
        }
        if differences.isEmpty, stub.queue.isEmpty {
            differences.append(FieldDifference(field: .responses, expected: "a queued response",
                                               actual: "all \(stub.hits) response(s) already served"))
        }
        let counted: Set<FieldDifference.Field> = [.method, .host, .path, .query, .headers, .body]
        let agreeing = NearMiss.fieldCount - failedFields.intersection(counted).count
        let routeAgrees = (failedFields.contains(.host) ? 0 : 1) + (failedFields.contains(.path) ? 0 : 1)
        return (NearMiss(stub: stub.id, summary: stub.summary, agreeing: agreeing, differences: differences), routeAgrees)
    }

    /// The request's side of a difference, short enough for one line.
    static func describe(_ field: FieldDifference.Field, of request: CapturedRequest) -> String {
        switch field {
        case .method: return request.method
        case .host: return request.host
        case .path: return request.path
        case .query: return request.queryItems.isEmpty ? "(no query)" : request.queryItems.map(\.description).joined(separator: "&")
        case .headers:
            if request.headers.isEmpty { return "(no headers)" }
            return request.headers.map { "\($0.name): \(HeaderRedaction.redact(name: $0.name, value: $0.value))" }
                .joined(separator: ", ").clipped(to: 160)
        case .body:
            guard let body = request.body, !body.isEmpty else { return "(no body)" }
            if let text = request.bodyText { return "\"" + text.clipped(to: 120) + "\"" }
            return "\(body.count) bytes"
        case .condition, .responses: return "not met"
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
        default: return .condition
        }
    }
}

extension String {
    /// At most `limit` characters, with `…` when cut.
    func clipped(to limit: Int) -> String {
        count <= limit ? self : String(prefix(limit)) + "…"
    }
}
