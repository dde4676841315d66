// Names of the first release that were renamed or dropped. Each keeps building for one more release, with a
// fix-it where the compiler can apply one. Nothing here is part of the API: new code never uses these names.

import Foundation

// MARK: - Engine, policies and removal

extension UnmockedPolicy {
    /// Opt-in mocking: the same as ``passthrough``.
    @available(*, deprecated, renamed: "passthrough")
    public static var optIn: UnmockedPolicy { .passthrough }

    /// Answer `501 Not Implemented`, as a Mockingbird bundle does with `handleAllRequests = true`.
    @available(*, deprecated, message: "use .mock(.empty(status: .notImplemented)), or .mock(.plaintext(\"...\", status: .notImplemented)) for a body")
    public static var notImplemented: UnmockedPolicy {
        .mock(MockResponse.plaintext("HTTPMock: no entry of the mock bundle matches this request", status: .notImplemented,
                                     headers: ["X-HTTPMock": "unmatched"]))
    }
}

/// The error a request no stub answers fails with under ``UnmockedPolicy/optOut``: now an ``HTTPMockError`` of
/// code ``HTTPMockError/Code/unmockedRequest``.
@available(*, deprecated, renamed: "HTTPMockError")
public typealias UnmockedRequestError = HTTPMockError

extension HTTPMockError {
    /// An unmocked-request error carrying this explanation.
    @available(*, deprecated, message: "use HTTPMockError(.unmockedRequest, message); UnmockedPolicy.optOut builds it for you")
    public init(reason: String) { self.init(.unmockedRequest, reason) }

    /// The explanation.
    @available(*, deprecated, renamed: "message")
    public var reason: String { message }
}

extension LoadedMocks {
    /// Removes the stubs of this load.
    @available(*, deprecated, renamed: "remove()")
    public func unload() { remove() }
}

extension HTTPMock {
    /// Removes the stubs of the Mockingbird bundle loaded last.
    @available(*, deprecated, message: "call remove() on the LoadedMocks that loadMockingbirdBundle(at:) returned")
    public func unloadMockingbirdBundle() { core.engine.removeLoad(inSlot: Self.mockingbirdSlot) }
}

extension JournalObservation {
    /// Stops the observation.
    @available(*, deprecated, renamed: "remove()")
    public func cancel() { remove() }
}
