import Foundation

extension MockResponse {
    /// When a response reaches the caller.
    public enum Delivery: Sendable, Hashable {
        /// At once. The default.
        case instant
        /// After this many seconds, without blocking any thread. A delay longer than the request's
        /// `timeoutInterval` fails with `URLError(.timedOut)` when the timeout passes, as a slow server would.
        case delayed(TimeInterval)

        var seconds: TimeInterval {
            switch self {
            case .instant: 0
            case .delayed(let seconds): max(0, seconds)
            }
        }
    }
}
