import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The floor: the least a `URLProtocol` can do to answer, a fixed 1 KiB response with no lookup at all.
final class FloorProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [
            "Content-Type": "application/octet-stream", "Content-Length": "1024",
        ])!
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: body1K)
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}

/// A session configured as HTTPMock configures its own: ephemeral, no URL cache.
func plainSession(protocolClasses: [AnyClass]? = nil) -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    if let protocolClasses { configuration.protocolClasses = protocolClasses + (configuration.protocolClasses ?? []) }
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    return URLSession(configuration: configuration)
}

/// Sends `count` GET requests to `url`, at most `concurrency` at a time; returns seconds per request.
func fetch(_ session: URLSession, _ url: URL, count: Int, concurrency: Int) async throws -> Double {
    let total = try await seconds {
        if concurrency <= 1 {
            for _ in 0..<count { try await check(session.data(from: url)) }
            return
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            var started = 0
            while started < min(concurrency, count) {
                group.addTask { try await check(session.data(from: url)) }
                started += 1
            }
            while try await group.next() != nil, started < count {
                group.addTask { try await check(session.data(from: url)) }
                started += 1
            }
            try await group.waitForAll()
        }
    }
    return total / Double(count)
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
}

private func check(_ result: (Data, URLResponse)) throws {
    guard (result.1 as? HTTPURLResponse)?.statusCode == 200, result.0.count == 1024 else {
        throw BenchmarkFailure(description: "unexpected answer: \(result.1) with \(result.0.count) bytes")
    }
}
