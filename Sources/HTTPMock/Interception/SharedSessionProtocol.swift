import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers `URLSession.shared` once a mock intercepts it: for the mock in scope (``HTTPMock/withMock(_:operation:)``
/// or a test trait), else for the mock that called ``HTTPMock/interceptSharedSession()``.
final class SharedSessionProtocol: InterceptingProtocol {
    override class func canInit(with request: URLRequest) -> Bool {
        guard SharedSessionRouting.isInstalled.current else { return false }
        let scheme = request.url?.scheme?.lowercased()
        return scheme == "http" || scheme == "https"
    }

    override class func lookupCore() -> MockCore? {
        SharedSessionRouting.scoped ?? SharedSessionRouting.owner.current
    }
}

/// Which mock answers `URLSession.shared`.
enum SharedSessionRouting {
    /// The mock of the current task (a test, or `withMock`). Seen when the protocol is created, which on Linux
    /// requires the session to have no URL cache: installing sets the shared session's cache to `nil`.
    @TaskLocal static var scoped: MockCore?
    /// The mock that called `interceptSharedSession()`, for requests made outside any scope.
    static let owner = Locked<MockCore?>(nil)
    static let isInstalled = Locked(false)

    /// Puts ``SharedSessionProtocol`` in front of `URLSession.shared`, once.
    static func install() {
        // Configure inside the lock: a caller that finds it installed must find it configured.
        isInstalled.withLock { installed in
            guard !installed else { return }
            installed = true
            #if canImport(FoundationNetworking)
            // On Linux the shared session's configuration is the live object: changing it changes the session.
            let configuration = URLSession.shared.configuration
            configuration.protocolClasses = [SharedSessionProtocol.self] + (configuration.protocolClasses ?? [])
            configuration.urlCache = nil
            #else
            URLProtocol.registerClass(SharedSessionProtocol.self)
            #endif
        }
    }
}
