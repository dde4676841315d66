import Foundation

extension JournalEntry {
    /// The `X-HTTPMock` header value of a response that refused a request for breaking an API's contract (a mock
    /// made from an OpenAPI document: a path or method it does not list, a missing parameter, a body that does not
    /// match): HTTPMockTesting reports such a request as it reports one no stub answered.
    package static let contractViolationMarker = "contract-violation"

    /// The header that carries the violations, one line, when the refusal's body is the API's own documented error
    /// response rather than HTTPMock's report.
    package static let contractViolationsHeader = "X-HTTPMock-Violations"

    /// The refusal's explanation (the violations' header, else the response body) when a mock made from an API
    /// description refused this request for breaking its contract; `nil` otherwise.
    package var contractViolation: String? {
        guard case .response(_, let headers, let body) = outcome,
              headers.first(where: { $0.key.caseInsensitiveCompare("X-HTTPMock") == .orderedSame })?.value
              == Self.contractViolationMarker else { return nil }
        if let summary = headers.first(where: { $0.key.caseInsensitiveCompare(Self.contractViolationsHeader) == .orderedSame })?.value {
            return summary
        }
        return String(decoding: body, as: UTF8.self)
    }
}
