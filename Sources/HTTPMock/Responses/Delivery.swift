import Foundation

extension MockResponse {
    /// When a response reaches the caller.
    ///
    /// Timeouts apply as URLSession applies them: the smaller of the request's `timeoutInterval` and the session
    /// configuration's `timeoutIntervalForRequest` bounds the wait for the headers, and the configuration's
    /// `timeoutIntervalForResource` bounds the whole response. A response that would arrive later fails with
    /// `URLError(.timedOut)` when that timeout passes, as a slow server would. (The configuration is read on Linux;
    /// on Apple platforms a `URLProtocol` cannot reach its session, and the mock applies the request's timeout.)
    public enum Delivery: Sendable, Hashable {
        /// At once. The default.
        case instant
        /// After this many seconds, without blocking any thread.
        case delayed(TimeInterval)
        /// Over a link of `bytesPerSecond`, as HTTPStubber's speed simulation: the headers after `headersAfter`
        /// seconds, the body in the time its size takes at that speed. Without blocking any thread.
        ///
        /// ```swift
        /// // 64 KiB over a 16 KiB/s link, headers after 0.2 s: the whole response takes 4.2 s.
        /// MockResponse(body: Data(count: 65_536), delivery: .throttled(bytesPerSecond: 16_384, headersAfter: 0.2))
        /// ```
        ///
        /// The caller gets the response in one piece when its last byte would have arrived: corelibs Foundation
        /// keeps only the last chunk a `URLProtocol` delivers for completion-handler and `async` callers, so the
        /// mock never sends partial chunks. Only the resource timeout can cut the body short; the request timeout
        /// applies to the wait for the headers.
        case throttled(bytesPerSecond: Int, headersAfter: TimeInterval = 0)

        /// Seconds until the headers arrive.
        var headerSeconds: TimeInterval {
            switch self {
            case .instant: 0
            case .delayed(let seconds): max(0, seconds)
            case .throttled(_, let headersAfter): max(0, headersAfter)
            }
        }

        /// Seconds until the last byte of a body of `bytes` arrives.
        func totalSeconds(bodyBytes bytes: Int) -> TimeInterval {
            switch self {
            case .instant, .delayed: headerSeconds
            case .throttled(let speed, _): headerSeconds + (speed > 0 ? Double(bytes) / Double(speed) : .infinity)
            }
        }

        /// A problem with the values, said when the response is registered.
        var problem: String? {
            if case .throttled(let speed, _) = self, speed <= 0 {
                return "delivery .throttled(bytesPerSecond: \(speed)) needs a speed of at least 1 byte per second"
            }
            return nil
        }
    }
}
