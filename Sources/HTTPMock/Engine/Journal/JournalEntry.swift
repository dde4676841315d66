import Foundation

/// One request a mock saw, what answered it, and what was delivered.
public struct JournalEntry: Sendable, Identifiable {
    /// Position in the mock's journal, from 0, in the order requests arrived.
    public let id: Int
    public let request: CapturedRequest
    public let receivedAt: Date
    /// How the mock decided.
    public internal(set) var resolution: Resolution
    /// What reached the caller; `nil` while the request is in flight (a delay, a passthrough).
    public internal(set) var outcome: Outcome?
    public internal(set) var completedAt: Date?

    /// How a request was resolved.
    public enum Resolution: Sendable, Equatable {
        /// A stub answered. `summary` describes it (`api.example.com/user [method GET]`).
        case stub(StubID, summary: String)
        /// No stub answered; the unmocked policy did. `reason` says why no stub answered.
        case unmatched(reason: String)
        /// Sent to the real network (the passthrough policy or an ignore rule).
        case passedThrough
    }

    /// What was delivered.
    public enum Outcome: Sendable {
        case response(status: Int, headers: [String: String], body: Data)
        case failure(any Error & Sendable)

        public var statusCode: Int? {
            if case .response(let status, _, _) = self { return status }
            return nil
        }
    }

    /// The status code delivered, if a response was.
    public var statusCode: Int? { outcome?.statusCode }
}
