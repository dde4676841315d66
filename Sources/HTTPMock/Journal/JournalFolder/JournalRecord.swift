import Foundation

/// One journal entry as written to a ``JournalFolder``: the on-disk format (JSON), version 1.
///
/// Secret header values (`Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie` by default) are replaced
/// by `<redacted>` before writing.
package struct JournalRecord: Codable, Sendable {
    package var format = 1
    /// Identifies the writing process run (`<pid>-<random>`) and the mock in it.
    package var process: String
    package var mock: Int
    package var id: Int
    package var method: String
    package var url: String
    /// Name and value pairs, in order.
    package var headers: [[String]]
    package var body: Data?
    package var receivedAt: Date
    /// `stub`, `unmatched` or `passthrough`.
    package var resolution: String
    package var stub: Int?
    package var stubSummary: String?
    package var reason: String?
    package var status: Int?
    package var responseHeaders: [String: String]?
    package var responseBody: Data?
    package var error: String?
    package var completedAt: Date?

    init(_ entry: JournalEntry, process: String, mock: Int, redacting secrets: Set<String>) {
        self.process = process
        self.mock = mock
        id = entry.id
        method = entry.request.method
        url = entry.request.url.absoluteString
        headers = entry.request.headers.map { [$0.name, HeaderRedaction.redact(name: $0.name, value: $0.value, names: secrets)] }
        body = entry.request.body
        receivedAt = entry.receivedAt
        switch entry.resolution {
        case .stub(let id, let summary):
            resolution = "stub"
            stub = id.rawValue
            stubSummary = summary
        case .unmatched(let reason):
            resolution = "unmatched"
            self.reason = reason
        case .passedThrough:
            resolution = "passthrough"
        }
        switch entry.outcome {
        case .response(let status, let headers, let body):
            self.status = status
            var redacted: [String: String] = [:]
            for (name, value) in headers { redacted[name] = HeaderRedaction.redact(name: name, value: value, names: secrets) }
            responseHeaders = redacted
            responseBody = body
        case .failure(let error):
            self.error = String(describing: error)
        case nil:
            break
        }
        completedAt = entry.completedAt
    }

    /// The entry this record describes; `nil` if the record is not a valid entry.
    package func entry() -> JournalEntry? {
        guard let url = URL(string: url) else { return nil }
        var fields = HeaderFields()
        for pair in headers where pair.count == 2 { fields.add(pair[0], pair[1]) }
        let request = CapturedRequest(method: method, url: url, headers: fields, body: body)
        let resolution: JournalEntry.Resolution
        switch self.resolution {
        case "stub": resolution = .stub(StubID(rawValue: stub ?? -1), summary: stubSummary ?? "")
        case "unmatched": resolution = .unmatched(reason: reason ?? "")
        case "passthrough": resolution = .passedThrough
        default: return nil
        }
        var outcome: JournalEntry.Outcome?
        if let status {
            outcome = .response(status: status, headers: responseHeaders ?? [:], body: responseBody ?? Data())
        } else if let error {
            outcome = .failure(HTTPMockError(.recordedFailure, error))
        }
        return JournalEntry(id: id, request: request, receivedAt: receivedAt, resolution: resolution,
                            outcome: outcome, completedAt: completedAt)
    }
}
