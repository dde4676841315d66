import Foundation

/// A network failure to simulate: each reaches the caller as the `URLError` a real session would give.
///
/// ```swift
/// mock.addResponses(forPath: "/feed", host: "api.example.com") {
///     MockResponse.fault(.connectionLost)
///     MockResponse.fault(.truncatedBody(MockResponse.plaintext(longText), after: 100))
///     MockResponse.plaintext("finally")
/// }
/// ```
public enum NetworkFault: Sendable {
    /// The server never answered: `URLError(.timedOut)`.
    case timeout
    /// The connection dropped before a response: `URLError(.networkConnectionLost)`.
    case connectionLost
    /// The host name did not resolve: `URLError(.cannotFindHost)`.
    case dnsFailure
    /// The server could not be reached: `URLError(.cannotConnectToHost)`.
    case connectionRefused
    /// The device is offline: `URLError(.notConnectedToInternet)`.
    case offline
    /// The TLS handshake failed: `URLError(.secureConnectionFailed)`.
    case tlsFailure
    /// The server's certificate is not trusted: `URLError(.serverCertificateUntrusted)`.
    case untrustedCertificate
    /// The response's status and headers arrive, then the connection drops after `bytes` bytes of its body:
    /// the caller gets `URLError(.networkConnectionLost)`.
    case truncatedBody(MockResponse, after: Int)

    var error: URLError {
        switch self {
        case .timeout: URLError(.timedOut)
        case .connectionLost, .truncatedBody: URLError(.networkConnectionLost)
        case .dnsFailure: URLError(.cannotFindHost)
        case .connectionRefused: URLError(.cannotConnectToHost)
        case .offline: URLError(.notConnectedToInternet)
        case .tlsFailure: URLError(.secureConnectionFailed)
        case .untrustedCertificate: URLError(.serverCertificateUntrusted)
        }
    }
}

extension MockResponse {
    /// The request fails as the network would on `fault`.
    public static func fault(_ fault: NetworkFault, lifetime: Lifetime = .single, delivery: Delivery = .instant) -> MockResponse {
        if case .truncatedBody(var response, let bytes) = fault {
            response.lifetime = lifetime
            response.delivery = delivery
            response.truncation = max(0, bytes)
            return response
        }
        return .failure(fault.error, lifetime: lifetime, delivery: delivery)
    }
}
