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
