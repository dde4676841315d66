import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The floor: the least a `URLProtocol` can do to answer, a fixed 1 KiB response with no lookup at all.
package final class FloorProtocol: URLProtocol {
    package override class func canInit(with request: URLRequest) -> Bool { true }
    package override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    package override func startLoading() {
        let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [
            "Content-Type": "application/octet-stream", "Content-Length": "1024",
        ])!
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: body1K)
        client?.urlProtocolDidFinishLoading(self)
    }

    package override func stopLoading() {}
}

/// A session configured as HTTPMock configures its own: ephemeral, no URL cache.
package func plainSession(protocolClasses: [AnyClass]? = nil) -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    if let protocolClasses { configuration.protocolClasses = protocolClasses + (configuration.protocolClasses ?? []) }
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    return URLSession(configuration: configuration)
}

/// A floor that, like HTTPMock, builds its response once per URL and hands the same (immutable) object out again:
/// what answering costs once the `HTTPURLResponse` is no longer built per request.
package final class ReusingFloorProtocol: URLProtocol {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var made: (url: URL, response: HTTPURLResponse)?  // reason: only read and written under `lock`

    package override class func canInit(with request: URLRequest) -> Bool { true }
    package override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    package override func startLoading() {
        let url = request.url!
        let response: HTTPURLResponse
        if let made = Self.lock.withLock({ Self.made }), made.url == url {
            response = made.response
        } else {
            response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [
                "Content-Type": "application/octet-stream", "Content-Length": "1024",
            ])!
            Self.lock.withLock { Self.made = (url, response) }
        }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: body1K)
        client?.urlProtocolDidFinishLoading(self)
    }

    package override func stopLoading() {}
}
