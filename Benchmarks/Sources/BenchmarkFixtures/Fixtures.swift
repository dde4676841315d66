@_spi(Benchmarking) import HTTPMock
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The response every variant serves: 1 KiB.
package let body1K = Data((0..<1024).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })

package let mockResponse = MockResponse(body: body1K, contentType: "application/octet-stream", lifetime: .eternal)

/// A deterministic set of `count` stubs over many hosts, mixing exact and wildcard patterns:
/// 70 % exact host and path, 20 % a `*` path segment, 5 % a `*.` host, 5 % a `/v1/**` fallback (which makes
/// several stubs match one request, so their specificity is compared).
package struct StubSet {
    package let count: Int
    package init(count: Int) { self.count = count }
    package var hostCount: Int { max(2, count / 10) }

    package func host(_ index: Int) -> String { "api\(index % hostCount).svc\(index % 7).example.com" }

    /// Host pattern and path pattern of stub `index`.
    package func route(_ index: Int) -> (host: String, path: String) {
        let host = host(index)
        switch index % 20 {
        case 0..<14: return (host, "/v1/items/\(index)")
        case 14..<18: return (host, "/v1/users/*/orders/\(index)")
        case 18: return ("*." + host, "/assets/\(index)")
        default: return (host, "/v1/**")
        }
    }

    /// A request answered by an exact stub (and by its host's `/v1/**` fallback, which loses on specificity).
    package var hitURL: URL {
        let index = (count / 2 / 20) * 20 + 1   // an exact stub in the middle of the set
        return URL(string: "https://\(host(index))/v1/items/\(index)")!
    }

    /// A request answered by a `*` path-segment stub (`/v1/users/*/orders/N`), and by its host's `/v1/**` fallback.
    package var wildcardHitURL: URL {
        let index = (count / 2 / 20) * 20 + 14
        return URL(string: "https://\(host(index))/v1/users/42/orders/\(index)")!
    }

    /// A request no stub answers: a known host family, an unknown path.
    package var missURL: URL { URL(string: "https://api1.svc1.example.org/v2/none/\(count)")! }

    /// Registers every stub through the public API, one call per stub.
    package func register(into mock: HTTPMock) {
        for index in 0..<count {
            let (host, path) = route(index)
            mock.addResponses(forPath: path, host: host, method: index % 4 == 0 ? .get : nil, responses: [mockResponse])
        }
        precondition(mock.registrationErrors.isEmpty, "stub registration failed: \(mock.registrationErrors)")
    }

    /// Registers every stub in one all-or-nothing batch through the DSL.
    package func registerBatch(into mock: HTTPMock) throws {
        let routes = (0..<count).map(route)
        try mock.register {
            for (host, path) in routes {
                Host(host) { Path(path) { mockResponse } }
            }
        }
    }
}

/// A mock answering `stubs` stubs, whose unmatched requests get the same 1 KiB response.
package func makeMock(_ stubs: StubSet) -> HTTPMock {
    let mock = HTTPMock()
    stubs.register(into: mock)
    mock.unmockedPolicy = .mock(mockResponse)
    return mock
}

/// A variant that got an answer other than the 1 KiB body it must get.
package struct BenchmarkFailure: Error, CustomStringConvertible {
    package let description: String
    package init(description: String) { self.description = description }
}
