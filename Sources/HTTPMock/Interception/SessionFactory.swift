import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Builds and configures the sessions a mock answers.
enum SessionFactory {
    /// Puts `protocolClass` first in `configuration`, and turns off the URL cache (a mocked response must never be
    /// served from a cache; and without one, each request costs about half as much on Linux).
    static func install(_ protocolClass: AnyClass, into configuration: URLSessionConfiguration) {
        let others = (configuration.protocolClasses ?? []).filter { $0 != protocolClass }
        configuration.protocolClasses = [protocolClass] + others
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    }

    static func makeSession(answeredBy protocolClass: AnyClass) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        install(protocolClass, into: configuration)
        return URLSession(configuration: configuration)
    }

    /// A plain session for passthrough: it lists no mock, so its requests reach the network.
    static func makePassthroughSession() -> URLSession {
        URLSession(configuration: .ephemeral)
    }
}
