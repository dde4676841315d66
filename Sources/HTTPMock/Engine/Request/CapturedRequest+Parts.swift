import Foundation

// A captured request from a URL read once: a face that sees the same URL again and again (HTTPMockServer, for a
// keep-alive client polling one endpoint) keeps the read parts and builds each request from them, instead of
// parsing the URL anew for every request. Visible to the package's modules only.

extension CapturedRequest {
    /// A URL with the parts a ``CapturedRequest`` reads from it: scheme and host lower-cased, the port, the path
    /// split into decoded segments, the query items. Read exactly as ``init(method:url:headers:body:)`` reads them.
    /// A class, so that keeping and handing it on copies one reference.
    package final class URLParts: Sendable {
        /// The URL the parts were read from.
        package let url: URL
        let scheme: String
        let host: String
        let port: Int?
        let pathSegments: [String]
        let queryItems: [QueryItem]

        /// Reads `url` as a capture does.
        package init(_ url: URL) {
            let read = CapturedRequest(url: url)
            self.url = url
            scheme = read.scheme
            host = read.host
            port = read.port
            pathSegments = read.pathSegments
            queryItems = read.queryItems
        }
    }

    /// A request to the URL of `parts`: the same value ``init(method:url:headers:body:)`` gives for `parts.url`,
    /// without reading the URL again.
    package init(method: String, parts: URLParts, headers: HeaderFields, body: Data?) {
        self.method = method
        url = parts.url
        self.headers = headers
        self.body = body
        host = parts.host
        port = parts.port
        scheme = parts.scheme
        pathSegments = parts.pathSegments
        queryItems = parts.queryItems
    }
}
