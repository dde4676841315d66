import Foundation

/// A request as the mock saw it: what matchers test, what dynamic responses read and what the journal keeps.
///
/// Unlike `URLRequest` inside a `URLProtocol`, the body is always here, however the caller gave it
/// (`httpBody`, `httpBodyStream` or an upload task).
public struct CapturedRequest: Sendable, Hashable {
    /// Upper-cased method (`GET`, `POST`, …).
    public let method: String
    public let url: URL
    public let headers: HeaderFields
    public let body: Data?

    /// Lower-cased host, without port; `""` when the URL has none.
    public let host: String
    public let port: Int?
    public let scheme: String
    /// The decoded path split on `/`, empty segments dropped: `/a//b/` gives `["a", "b"]`.
    public let pathSegments: [String]
    /// The query items in order, with repeats and value-less items kept.
    public let queryItems: [QueryItem]

    public init(method: String = "GET", url: URL, headers: HeaderFields = [:], body: Data? = nil) {
        self.method = ASCIICase.uppercased(method)
        self.url = url
        self.headers = headers
        self.body = body
        if let plain = PlainURL(url) {
            host = ASCIICase.lowercased(plain.host)
            port = plain.port
            scheme = ASCIICase.lowercased(plain.scheme)
            pathSegments = PathNormalization.segments(of: plain.path)
            queryItems = QueryItem.parse(rawQuery: plain.rawQuery)
            return
        }
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        host = (components?.host ?? "").lowercased()
        port = components?.port
        scheme = (components?.scheme ?? "").lowercased()
        pathSegments = PathNormalization.segments(of: components?.path ?? url.path)
        queryItems = QueryItem.parse(rawQuery: components?.percentEncodedQuery)
    }

    /// `/`-joined normalised path, starting with `/`.
    public var path: String { "/" + pathSegments.joined(separator: "/") }

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

    static func join(_ parent: String, _ child: String) -> String {
        "/" + (segments(of: parent) + segments(of: child)).joined(separator: "/")
    }
}
