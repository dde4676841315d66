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

    /// The configuration of a mock's own session: ephemeral, with `protocolClass` first.
    static func configuration(answeredBy protocolClass: AnyClass) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        install(protocolClass, into: configuration)
        return configuration
    }

    /// The passthrough session of every mock that was not given one, made on first use (a `static let` is
    /// initialised once, thread-safely). It lists no mock, so its requests reach the network.
    ///
    /// Shared, so it keeps nothing a mock could see of another's traffic: no cookie storage (each mock's own
    /// jar adds `Cookie` to forwarded requests and stores `Set-Cookie` of their answers), no credentials, no cache.
    static let sharedPassthroughSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCredentialStorage = nil
        configuration.urlCache = nil
        return URLSession(configuration: configuration, delegate: passthroughRelay, delegateQueue: nil)
    }()

    /// The delegate of ``sharedPassthroughSession``: streamed answers reach the caller as they arrive.
    static let passthroughRelay = PassthroughRelay()
}
