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

// MARK: - Patterns

/// The first release's compiled host pattern. No API takes one: patterns are written as strings, in
/// ``Match/host(_:)``, ``Host`` and `addResponses(forPath:host:)`, and checked when registered.
@available(*, deprecated, message: "write host patterns as strings, such as Match.host(\"*.example.com\")")
public struct HostPattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public let source: String
    /// The pattern as written.
    public var description: String { source }

    /// Checks a host pattern.
    public init(_ source: String) throws(PatternError) {
        do { _ = try HostGlob(source) } catch { throw PatternError(error) }
        self.source = source
    }
}

/// The first release's compiled path pattern. No API takes one: patterns are written as strings, in
/// ``Match/path(_:)``, ``Path`` and `addResponses(forPath:)`, and checked when registered.
@available(*, deprecated, message: "write path patterns as strings, such as Match.path(\"/users/*\")")
public struct PathPattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public let source: String
    /// The pattern as written.
    public var description: String { source }

    /// Checks a path pattern.
    public init(_ source: String) throws(PatternError) {
        do { _ = try PathGlob(source) } catch { throw PatternError(error) }
        self.source = source
    }
}

/// The first release's pattern error. A refused pattern is now an ``HTTPMockError`` whose code is
/// ``HTTPMockError/Code-swift.enum/invalidPattern``.
@available(*, deprecated, message: "a refused pattern is an HTTPMockError with code .invalidPattern")
public struct PatternError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which part of a route the pattern was for.
    public enum Kind: String, Sendable {
        /// A host pattern.
        case host
        /// A path pattern.
        case path
    }

    /// Whether it was a host or a path pattern.
    public let kind: Kind
    /// The pattern as written.
    public let pattern: String
    /// What is wrong with it, and how to fix it.
    public let reason: String
    /// The whole explanation.
    public var description: String { "invalid \(kind.rawValue) pattern \"\(pattern)\": \(reason)" }

    init(_ error: GlobError) {
        kind = error.kind == .host ? .host : .path
        pattern = error.pattern
        reason = error.reason
    }
}
