import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Entry points for the benchmark harness in `Benchmarks/`, which measures the engine without URLSession.
/// Not part of the API: visible only to `@_spi(Benchmarking) import HTTPMock`, and may change at any time.
extension HTTPMock {
    /// How many stubs the router's index finds for `request` by host and path (no conditions, queues or journal).
    @_spi(Benchmarking) public func _candidateCount(for request: CapturedRequest) -> Int {
        core.engine.candidateCount(for: request)
    }

    /// The engine's whole decision for `request`, as a request through the session gets it (matching,
    /// conditions, the queue, the journal). Returns the journal entry's identifier.
    @discardableResult
    @_spi(Benchmarking) public func _decide(_ request: CapturedRequest) -> Int {
        core.engine.decide(request).entry
    }

    /// What the interception layer turns a `URLRequest` into before deciding.
    @_spi(Benchmarking) public static func _capture(_ request: URLRequest) -> CapturedRequest {
        RequestCapture.capture(request, task: nil)
    }
}
