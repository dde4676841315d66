#if canImport(XCTest)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import HTTPMockTesting

/// The XCTest sample of the Verifying Requests article.
final class VerifyingXCTestSamples: XCTestCase {
    func testProfile() async throws {
        try await withHTTPMock { mock in
            mock.addResponses(forPath: "/me", host: "api.example.com") { MockResponse.plaintext("Alice") }
            let (data, _) = try await URLSession.shared.data(from: URL(string: "https://api.example.com/me")!)
            XCTAssertEqual(String(decoding: data, as: UTF8.self), "Alice")
        }
    }
}
#endif
