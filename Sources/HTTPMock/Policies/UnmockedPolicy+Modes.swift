import Foundation

extension UnmockedPolicy {
    /// Opt-in mocking: only requests a stub answers are mocked; every other request goes to the real network
    /// (the mock's passthrough session). The same as ``passthrough``.
    public static var optIn: UnmockedPolicy { .passthrough }

    /// Opt-out mocking: every request must be answered by a stub (or sent on by an ignore rule); any other
    /// request fails with an ``UnmockedRequestError`` that says why no stub answered.
    public static var optOut: UnmockedPolicy { .fail(UnmockedRequestError(reason: "")) }
}

/// The error an unanswered request fails with under ``UnmockedPolicy/optOut``.
///
/// `reason` names the request and why no stub answered (no route, a condition not met, a used-up queue).
public struct UnmockedRequestError: Error, Sendable, LocalizedError, CustomStringConvertible {
    /// Why no stub answered: the near-miss report.
    public let reason: String

    /// An error carrying this explanation.
    public init(reason: String) { self.reason = reason }

    public var description: String { reason }
    /// The explanation, as `localizedDescription` shows it.
    public var errorDescription: String? { reason }
}
