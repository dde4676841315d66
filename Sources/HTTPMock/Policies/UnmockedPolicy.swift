/// What happens to a request that no stub answers (none matches, or every matching queue is used up).
///
/// ```swift
/// mock.unmockedPolicy = .notFound                                  // the default: 404
/// mock.unmockedPolicy = .mock(.plaintext("maintenance", status: .other(503)))
/// mock.unmockedPolicy = .fail(URLError(.notConnectedToInternet))   // behave as offline
/// mock.unmockedPolicy = .passthrough                               // the real network (opt in)
/// mock.unmockedPolicy = .optOut                                    // fail, saying why no stub answered
/// mock.unmockedPolicy = .fatalError                                // stop the process, naming the request
/// ```
public enum UnmockedPolicy: Sendable {
    /// Answer `404 Not Found` with a short text body that names the request and the closest stubs. The default.
    case notFound
    /// Send the request to the real network through the mock's passthrough session.
    /// Nothing reaches the network unless you choose this (or an ignore rule).
    case passthrough
    /// Answer with this response every time; its ``MockResponse/lifetime`` is not used.
    case mock(MockResponse)
    /// Opt-out mocking: every request must be answered by a stub (or sent on by an ignore rule); any other request
    /// fails with an ``HTTPMockError`` of code ``HTTPMockError/Code/unmockedRequest`` whose message names the
    /// request and says why no stub answered (no route, a condition not met, a used-up queue).
    case optOut
    /// Stop the process with `fatalError`, naming the request: the strictest mode, for finding missing mocks.
    case fatalError
    /// Fail the request with exactly this error (for example `URLError(.notConnectedToInternet)`).
    case fail(any Error & Sendable)
}
