import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPMock {
    /// Makes sessions built from `configuration` answered by this mock, for code that builds its own session.
    ///
    /// ```swift
    /// let configuration = URLSessionConfiguration.default
    /// mock.install(into: configuration)
    /// let client = APIClient(session: URLSession(configuration: configuration))
    /// ```
    ///
    /// Call it before creating the session: a session copies its configuration when created. The URL cache of
    /// the configuration is turned off, so a mocked response is never served from a cache.
    public func install(into configuration: URLSessionConfiguration) {
        SessionFactory.install(protocolClass, into: configuration)
    }

    /// A new session answered by this mock, built from `configuration` (which is not changed).
    public func makeSession(configuration: URLSessionConfiguration = .ephemeral) -> URLSession {
        let copy = configuration.copy() as! URLSessionConfiguration
        install(into: copy)
        return URLSession(configuration: copy)
    }

    /// Makes this mock answer `URLSession.shared`, for code that cannot be handed a session.
    ///
    /// Inside ``withMock(operation:)-97ivy`` (and the `HTTPMockTesting` test trait) the mock in scope answers
    /// instead, so parallel tests each see their own. Requests made outside any scope go to the last mock that
    /// called this. On Linux, call it before the code under test first touches `URLSession.shared`'s
    /// configuration; it turns off the shared session's URL cache.
    ///
    /// - Important: Sessions created with `URLSession(configuration: .default)` are not affected: use
    ///   ``install(into:)`` for those.
    public func interceptSharedSession() {
        SharedSessionRouting.owner.withLock { $0 = core }
        SharedSessionRouting.install()
    }

    /// Stops this mock answering `URLSession.shared` outside a scope. Requests then go to the network again
    /// (unless another mock intercepts it).
    public func stopInterceptingSharedSession() {
        SharedSessionRouting.owner.withLock { owner in
            if owner === core { owner = nil }
        }
    }

    /// Runs `operation` with this mock answering `URLSession.shared` for the tasks it creates (child tasks
    /// included), without touching what other tasks see.
    ///
    /// ```swift
    /// try await mock.withMock {
    ///     try await LegacyClient().fetch()   // uses URLSession.shared
    /// }
    /// ```
    public func withMock<R>(operation: () async throws -> R) async rethrows -> R {
        SharedSessionRouting.install()
        return try await SharedSessionRouting.$scoped.withValue(core, operation: operation)
    }

    /// ``withMock(operation:)`` for synchronous code.
    public func withMock<R>(operation: () throws -> R) rethrows -> R {
        SharedSessionRouting.install()
        return try SharedSessionRouting.$scoped.withValue(core, operation: operation)
    }
}
