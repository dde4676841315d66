// Names of the first release that were renamed or dropped. Each keeps building for one more release, with a
// fix-it where the compiler can apply one. Nothing here is part of the API: new code never uses these names.

import Foundation

// MARK: - Responses

extension MockResponse {
    /// The first release's second name for ``plaintext(_:contentType:status:lifetime:delivery:headers:)``.
    @available(*, deprecated, renamed: "plaintext(_:contentType:status:lifetime:delivery:headers:)")
    public static func text(
        _ text: String,
        contentType: String = "text/plain; charset=utf-8",
        status: Status = .ok,
        lifetime: Lifetime = .single,
        delivery: Delivery = .instant,
        headers: [String: String] = [:]
    ) -> MockResponse {
        plaintext(text, contentType: contentType, status: status, lifetime: lifetime, delivery: delivery, headers: headers)
    }

    /// The first release's JSON body from any JSON value, a second name beside ``dictionary(_:status:lifetime:delivery:headers:)``
    /// and ``encodable(_:status:lifetime:delivery:headers:encoder:)``.
    @available(*, deprecated, message: "use dictionary(_:) for a JSON object, or encodable(_:) for an array or any other value")
    public static func json(
        _ object: Any,
        status: Status = .ok,
        lifetime: Lifetime = .single,
        delivery: Delivery = .instant,
        headers: [String: String] = [:]
    ) -> MockResponse {
        guard JSONSerialization.isValidJSONObject([object]),
              let wrapped = try? JSONSerialization.data(withJSONObject: [object], options: [.sortedKeys]) else {
            var response = MockResponse(status: status, headers: headers, lifetime: lifetime, delivery: delivery)
            response.problem = .invalidResponse("\(object) is not a JSON value (use strings, numbers, booleans, NSNull, arrays and dictionaries)")
            return response
        }
        // Serialised inside an array so that top-level scalars work; the brackets are dropped.
        return MockResponse(status: status, headers: headers, content: .data(Data(wrapped.dropFirst().dropLast())),
                            contentType: "application/json", lifetime: lifetime, delivery: delivery)
    }
}

// MARK: - Errors

/// The first release's error for a failure read back from another process's journal, now an ``HTTPMockError``
/// whose code is ``HTTPMockError/Code-swift.enum/recordedFailure``.
@available(*, deprecated, renamed: "HTTPMockError")
public typealias RecordedError = HTTPMockError

extension HTTPMockError {
    /// The first release's ``RecordedError`` initializer.
    @available(*, deprecated, message: "use HTTPMockError(.recordedFailure, description)")
    public init(description: String) {
        self.init(.recordedFailure, description)
    }
}

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
