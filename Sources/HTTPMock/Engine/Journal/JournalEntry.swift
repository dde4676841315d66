import Foundation

/// One request a mock saw, what answered it, and what was delivered.
///
/// ```swift
/// for entry in mock.journal {
///     print(entry.request.method, entry.request.url, entry.statusCode ?? 0, entry.resolution)
/// }
/// ```
public struct JournalEntry: Sendable, Identifiable {
    /// Position in the mock's journal, from 0, in the order requests arrived.
    public let id: Int
    /// The request as the mock saw it, body included; a body the journal kept only in part (past
    /// ``HTTPMock/journalBodyCapacity``) holds its first bytes here, and ``bodyTruncation`` says so.
    public let request: CapturedRequest
    /// Set when the journal kept only the first 1,024 bytes of the request's body (in ``request``), because
    /// the bodies of the kept entries reached ``HTTPMock/journalBodyCapacity``: the full size and a digest.
    /// `nil`: the body is whole.
    public internal(set) var bodyTruncation: BodyTruncation?
    /// When the request reached the mock.
    public let receivedAt: Date
    /// How the mock decided.
    public internal(set) var resolution: Resolution
    /// Why no stub answered, with the closest stubs and how each differs; `nil` when a stub answered.
    public internal(set) var report: UnmatchedReport?
    /// What reached the caller; `nil` while the request is in flight (a delay, a passthrough).
    public internal(set) var outcome: Outcome?
    /// When the outcome was delivered.
    public internal(set) var completedAt: Date?
    /// For a streamed response: the parts that reached the client so far, and how the stream ended. `nil` for a
    /// response that is not streamed.
    public internal(set) var stream: StreamRecord?
    /// For a WebSocket conversation HTTPMockServer ran: every message both ways, and how it closed. `nil` otherwise.
    public internal(set) var webSocket: WebSocketRecord?
    /// The webhooks the stub sent once it had answered (a WireMock mapping's `serveEventListeners`), in the order
    /// they completed. Empty for most requests.
    public internal(set) var webhooks: [WebhookRecord] = []

    /// An entry as the journal makes it, with its body truncation.
    init(id: Int, request: CapturedRequest, bodyTruncation: BodyTruncation?, receivedAt: Date, resolution: Resolution,
         report: UnmatchedReport?) {
        self.id = id
        self.request = request
        self.bodyTruncation = bodyTruncation
        self.receivedAt = receivedAt
        self.resolution = resolution
        self.report = report
    }

    /// Makes an entry, for journals read back from disk and for tests.
    public init(id: Int, request: CapturedRequest, receivedAt: Date, resolution: Resolution,
                report: UnmatchedReport? = nil, outcome: Outcome? = nil, completedAt: Date? = nil) {
        self.id = id
        self.request = request
        self.receivedAt = receivedAt
        self.resolution = resolution
        self.report = report
        self.outcome = outcome
        self.completedAt = completedAt
    }

    /// What the journal kept of a request body it shortened.
    public struct BodyTruncation: Sendable, Hashable, CustomStringConvertible {
        /// The body's size in bytes as the mock received it.
        public let fullSize: Int
        /// A digest of the whole body, to tell bodies apart: FNV-1a over 64 bits, written `fnv1a64:` and 16
        /// hexadecimal digits (fast, not cryptographic).
        public let digest: String

        /// `body truncated in the journal: 524288 bytes, digest fnv1a64:…`
        public var description: String { "body truncated in the journal: \(fullSize) bytes, digest \(digest)" }
    }

    /// How a request was resolved.
    public enum Resolution: Sendable, Equatable, CustomStringConvertible {
        /// A stub answered. `summary` describes it (`api.example.com/user [method GET]`).
        case stub(StubID, summary: String)
        /// No stub answered; the unmocked policy did. `reason` says why no stub answered.
        case unmatched(reason: String)
        /// Sent to the real network (the passthrough policy or an ignore rule).
        case passedThrough

        public var description: String {
            switch self {
            case .stub(let id, let summary): "stub \(id) \(summary)"
            case .unmatched: "no stub answered"
            case .passedThrough: "passed through to the network"
            }
        }

        /// Whether a stub answered.
        public var isMatched: Bool {
            if case .stub = self { return true }
            return false
        }
    }

    /// What was delivered.
    public enum Outcome: Sendable {
        /// A response with this status, headers and body reached the caller.
        case response(status: Int, headers: [String: String], body: Data)
        /// The request failed with this error.
        case failure(any Error & Sendable)

        /// The status code, if a response was delivered.
        public var statusCode: Int? {
            if case .response(let status, _, _) = self { return status }
            return nil
        }
    }

    /// The status code delivered, if a response was.
    public var statusCode: Int? { outcome?.statusCode }

    /// Whether the request has been answered (a response or an error reached the caller).
    public var isComplete: Bool { outcome != nil }

    /// The response body delivered, if a response was.
    public var responseBody: Data? {
        if case .response(_, _, let body) = outcome { return body }
        return nil
    }

    /// The response headers delivered, if a response was.
    public var responseHeaders: [String: String]? {
        if case .response(_, let headers, _) = outcome { return headers }
        return nil
    }

    /// The error delivered, if the request failed.
    public var error: (any Error & Sendable)? {
        if case .failure(let error) = outcome { return error }
        return nil
    }
}
