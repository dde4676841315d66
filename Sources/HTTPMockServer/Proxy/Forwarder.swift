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
        /// A streamed answer (server-sent events, a body without `Content-Length`): its parts arrive here as the
        /// upstream sends them, and `body` is empty.
        var parts: MockStream?
    }

    let upstream: URL
    private let session: URLSession
    private let relay = ProxyRelay()
    private let closed = Locked(false)

    /// Headers that describe one connection (RFC 9110 §7.6.1), not the message, and those URLSession sets itself:
    /// never copied from one hop to the next.
    private static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer",
        "transfer-encoding", "upgrade", "host", "content-length", "expect",
        // URLSession asks for and decodes compressed bodies itself; the body it hands back is decoded.
        "accept-encoding", "content-encoding",
    ]

    /// The `Via` value this server adds to what it forwards, by which it knows a request that looped back.
    let via: String

    init(upstream: URL, via: String) {
        self.upstream = upstream
        self.via = via
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 60
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        session = URLSession(configuration: configuration, delegate: relay, delegateQueue: nil)
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

    /// Sends `request` upstream (to `url` exactly, when given); `completion` gets the reply or the error, on a
    /// URLSession thread.
    func forward(_ request: CapturedRequest, to exactURL: URL? = nil,
                 completion: @escaping @Sendable (Result<Reply, any Error>) -> Void) {
        guard let url = exactURL ?? target(for: request) else {
            completion(.failure(URLError(.badURL, userInfo: [
                NSLocalizedDescriptionKey: "HTTPMock: \(request.url.absoluteString) cannot be sent to the proxy \(upstream.absoluteString)",
            ])))
            return
        }
        var outgoing = URLRequest(url: url)
        outgoing.httpMethod = request.method
        // A request's Content-Encoding describes its body, which goes on as the client sent it: not hop-by-hop.
        for field in request.headers where !Self.hopByHop.contains(field.name.lowercased()) || field.name.lowercased() == "content-encoding" {
            outgoing.addValue(field.value, forHTTPHeaderField: field.name)
        }
        outgoing.addValue(via, forHTTPHeaderField: "Via")
        #if canImport(FoundationNetworking)
        // Headers FoundationNetworking (libcurl) adds by itself; a blank value keeps libcurl from sending one. The
        // body of an answer not asked to be compressed then comes as the upstream sent it, encoding and all.
        let unencoded = request.headers["Accept-Encoding"] == nil
        // `Connection` describes the client's own connection: never relayed, and none added either.
        for name in Self.addedByURLSession where name == "Connection" || request.headers[name] == nil {
            outgoing.setValue(" ", forHTTPHeaderField: name)
        }
        #else
        let unencoded = false
        #endif
        outgoing.httpBody = request.bodyAsSent
        let task = session.dataTask(with: outgoing)
        relay.register(task) { event in
            switch event {
            case .failure(let error):
                completion(.failure(error))
            case .head(let http, let parts):
                completion(.success(Reply(status: http.statusCode, headers: Self.relayedHeaders(of: http, unencoded), body: Data(),
                                          parts: parts)))
            case .whole(let http, let data):
                completion(.success(Reply(status: http.statusCode, headers: Self.relayedHeaders(of: http, unencoded), body: data)))
            }
        }
        task.resume()
    }

    /// Headers URLSession sends of its own accord on Linux, which the client did not.
    private static let addedByURLSession = ["Accept", "Accept-Encoding", "Accept-Language", "Connection", "Content-Type", "User-Agent"]

    /// `unencoded`: the body was not decoded by URLSession, so its `Content-Encoding` still describes it.
    private static func relayedHeaders(of http: HTTPURLResponse, _ unencoded: Bool) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        for (name, value) in http.allHeaderFields {
            guard let name = name as? String, let value = value as? String else { continue }
            let lowered = name.lowercased()
            guard !hopByHop.contains(lowered) || (unencoded && lowered == "content-encoding") else { continue }
            headers.append((name, value))
        }
        return headers
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

/// The delegate of the proxy's session: hands a redirect back to the client instead of following it (a proxy relays
/// each hop), and relays a streamed answer part by part as the upstream sends it.
private final class ProxyRelay: NSObject, URLSessionDataDelegate, Sendable {
    enum Event {
        /// A streamed answer's head; its parts follow on the stream.
        case head(HTTPURLResponse, MockStream)
        /// A whole answer.
        case whole(HTTPURLResponse, Data)
        case failure(any Error)
    }

    private struct Relay {
        let deliver: @Sendable (Event) -> Void
        var response: HTTPURLResponse?
        var parts: MockStream?
        var body = Data()
    }

    private let tasks = Locked([Int: Relay]())

    func register(_ task: URLSessionTask, _ deliver: @escaping @Sendable (Event) -> Void) {
        tasks.withLock { $0[task.taskIdentifier] = Relay(deliver: deliver) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let id = dataTask.taskIdentifier
        if let http = response as? HTTPURLResponse {
            let parts = http.isStreamedBody ? MockStream(relayedAt: Date()) : nil
            let deliver = tasks.withLock { tasks -> (@Sendable (Event) -> Void)? in
                tasks[id]?.response = http
                tasks[id]?.parts = parts
                return tasks[id]?.deliver
            }
            if let parts { deliver?(.head(http, parts)) }
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let parts = tasks.withLock { tasks -> MockStream? in
            guard let task = tasks[dataTask.taskIdentifier] else { return nil }
            if task.parts == nil { tasks[dataTask.taskIdentifier]?.body.append(data) }
            return task.parts
        }
        parts?.enqueue(.part(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let done = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let parts = done.parts {
            parts.enqueue(error.map { .failure(URLError(.networkConnectionLost, userInfo: [NSUnderlyingErrorKey: $0])) } ?? .end)
            return
        }
        if let error {
            done.deliver(.failure(error))
        } else if let response = done.response {
            done.deliver(.whole(response, done.body))
        } else {
            done.deliver(.failure(URLError(.badServerResponse)))
        }
    }
}
#endif
