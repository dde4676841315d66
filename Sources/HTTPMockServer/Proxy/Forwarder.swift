#if Server
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock

/// Carries a request no stub answered to ``HTTPMockServer/Configuration/proxy`` and brings back what the upstream
/// said, as it said it: redirects are returned to the client, not followed.
final class Forwarder: Sendable {
    /// What came back from the upstream.
    struct Reply: Sendable {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: Data
    }

    let upstream: URL
    private let session: URLSession
    private let closed = Locked(false)

    /// Headers that describe one connection (RFC 9110 §7.6.1), not the message, and those URLSession sets itself:
    /// never copied from one hop to the next.
    private static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer",
        "transfer-encoding", "upgrade", "host", "content-length", "expect",
        // URLSession asks for and decodes compressed bodies itself; the body it hands back is decoded.
        "accept-encoding", "content-encoding",
    ]

    init(upstream: URL) {
        self.upstream = upstream
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 60
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        session = URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
    }

    /// The upstream URL for `request`: the upstream's scheme and authority, its path followed by the request's
    /// path, and the request's query.
    func target(for request: CapturedRequest) -> URL? {
        guard var components = URLComponents(url: upstream, resolvingAgainstBaseURL: true),
              let requested = URLComponents(url: request.url, resolvingAgainstBaseURL: true) else { return nil }
        var prefix = components.percentEncodedPath
        while prefix.hasSuffix("/") { prefix.removeLast() }
        let path = requested.percentEncodedPath.isEmpty ? "/" : requested.percentEncodedPath
        components.percentEncodedPath = prefix + path
        components.percentEncodedQuery = requested.percentEncodedQuery
        return components.url
    }

    /// Sends `request` upstream; `completion` gets the reply or the error, on a URLSession thread.
    func forward(_ request: CapturedRequest, completion: @escaping @Sendable (Result<Reply, any Error>) -> Void) {
        guard let url = target(for: request) else {
            completion(.failure(URLError(.badURL, userInfo: [
                NSLocalizedDescriptionKey: "HTTPMock: \(request.url.absoluteString) cannot be sent to the proxy \(upstream.absoluteString)",
            ])))
            return
        }
        var outgoing = URLRequest(url: url)
        outgoing.httpMethod = request.method
        for field in request.headers where !Self.hopByHop.contains(field.name.lowercased()) {
            outgoing.addValue(field.value, forHTTPHeaderField: field.name)
        }
        outgoing.httpBody = request.body
        session.dataTask(with: outgoing) { data, response, error in
            if let error {
                completion(.failure(error))
                return
            }
            guard let http = response as? HTTPURLResponse else {
                completion(.failure(URLError(.badServerResponse)))
                return
            }
            var headers: [(name: String, value: String)] = []
            for (name, value) in http.allHeaderFields {
                guard let name = name as? String, let value = value as? String,
                      !Self.hopByHop.contains(name.lowercased()) else { continue }
                headers.append((name, value))
            }
            completion(.success(Reply(status: http.statusCode, headers: headers, body: data ?? Data())))
        }.resume()
    }

    /// Lets the requests in flight finish, then releases the session.
    func close() {
        let first = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        if first { session.finishTasksAndInvalidate() }
    }
}

/// Hands a redirect back to the client instead of following it: a proxy relays each hop.
private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}
#endif
