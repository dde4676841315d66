import Foundation

/// A request as the mock saw it: what matchers test, what dynamic responses read and what the journal keeps.
///
/// Unlike `URLRequest` inside a `URLProtocol`, the body is always here, however the caller gave it
/// (`httpBody`, `httpBodyStream` or an upload task).
public struct CapturedRequest: Sendable, Hashable {
    /// The method as the request sent it (`GET`, `POST`, …). A method is case-sensitive (RFC 9110, 9.1): `get` is
    /// not `GET`, and matches no stub for `GET`.
    public let method: String
    /// The full URL, as the request had it.
    public let url: URL
    /// The request headers the mock could see (URLSession adds some, such as `User-Agent`, only later).
    public let headers: HeaderFields
    /// The body, however it was given (`httpBody`, a stream or an upload task); `nil` without one. A body sent with
    /// `Content-Encoding: gzip` (or `x-gzip`) is here inflated, as a server reads it.
    public let body: Data?

    /// Lower-cased host, without port; `""` when the URL has none.
    public let host: String
    /// The port written in the URL, or `nil` for the scheme's default.
    public let port: Int?
    /// The lower-cased scheme (`https`, `http`, `mock`…).
    public let scheme: String
    /// The path split on `/`, empty segments dropped, each segment then percent-decoded: `/a//b/` gives
    /// `["a", "b"]`, and `/files/a%2Fb` gives `["files", "a/b"]` (an encoded slash stays inside its segment).
    public let pathSegments: [String]
    /// The query items in order, with repeats and value-less items kept.
    public let queryItems: [QueryItem]
    /// The address the request came from, when a server received it (HTTPMockServer sets it); `nil` for a request
    /// made in process, which comes from this machine.
    package var clientAddress: String?
    /// The path and query as the client wrote them on its request line (`/search?f[x]=a%20b`), when a server received
    /// the request (HTTPMockServer sets it): what WireMock's `url`, `urlPattern` and `urlPathPattern` compare. `nil`
    /// for a request made in process, whose URL is that text.
    package var target: String?

    /// The body as the client sent it, when it came compressed (`Content-Encoding: gzip`) and ``body`` holds it
    /// inflated; `nil` otherwise. What forwards the request (a proxy, the real network) sends these bytes, with the
    /// headers as they came.
    package var sentBody: Data?

    /// The body to send on with the request's headers: as the client sent it.
    package var bodyAsSent: Data? { sentBody ?? body }

    /// The client's address as WireMock's `clientIp` reads it: the server's peer, or `127.0.0.1` in process.
    package var clientIP: String { clientAddress ?? "127.0.0.1" }

    /// A request as the mock would see it; for driving matchers and dynamic responses in tests.
    public init(method: String = "GET", url: URL, headers: HeaderFields = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        if let plain = PlainURL(url) {
            host = plain.host
            port = plain.port
            scheme = plain.scheme
            pathSegments = plain.pathSegments
            queryItems = QueryItem.parse(rawQuery: plain.rawQuery)
            return
        }
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        host = (components?.host ?? "").lowercased()
        port = components?.port
        scheme = (components?.scheme ?? "").lowercased()
        pathSegments = PathNormalization.segments(ofEncodedPath: components?.percentEncodedPath ?? url.path)
        queryItems = QueryItem.parse(rawQuery: components?.percentEncodedQuery)
    }

    /// `/`-joined normalised path, starting with `/`. Segments are decoded, except that a segment holding a `/`
    /// keeps it (and any `%`) encoded, so `/files/a%2Fb` stays one segment: `"/files/a%2Fb"`.
    public var path: String { PathNormalization.path(of: pathSegments) }

    /// The values of the query item `name`, in order (`nil` for a value-less item).
    public func queryValues(for name: String) -> [String?] {
        queryItems.filter { $0.name == name }.map(\.value)
    }

    /// The body decoded as UTF-8, if it is text.
    public var bodyText: String? { body.flatMap { String(data: $0, encoding: .utf8) } }
}

/// The one path normalisation every API uses: split on `/`, drop empty segments.
/// So `/user`, `user`, `/user/` and `//user` are the same path; `/` is the root.
enum PathNormalization {
    static func segments(of path: String) -> [String] {
        SeparatorSplit.split(path, on: "/", omittingEmptySubsequences: true)
    }

    /// The segments of a path as written in a URL (percent-encoded), each decoded after splitting: `%2F` stays
    /// inside its segment (`/files/a%2Fb` is `["files", "a/b"]`), as RFC 3986 and URI template matchers read it.
    static func segments(ofEncodedPath path: String) -> [String] {
        segments(of: path).map { segment in
            guard segment.utf8.contains(UInt8(ascii: "%")) else { return segment }
            return segment.removingPercentEncoding ?? segment
        }
    }

    /// The path of decoded `segments`, re-encoding `%` and `/` only in a segment that holds a `/`.
    static func path(of segments: [String]) -> String {
        "/" + segments.map(encoded(segment:)).joined(separator: "/")
    }

    /// One decoded segment as a path writes it: unchanged, unless it holds a `/`; then `%` and `/` are encoded.
    static func encoded(segment: String) -> String {
        guard segment.utf8.contains(UInt8(ascii: "/")) else { return segment }
        return segment.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
    }

    static func join(_ parent: String, _ child: String) -> String {
        "/" + (segments(of: parent) + segments(of: child)).joined(separator: "/")
    }
}
