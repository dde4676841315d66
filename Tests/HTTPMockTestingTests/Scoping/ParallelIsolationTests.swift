import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMockTesting

/// 50 tests run in parallel, each stubbing the same URL with its own answer: each must only ever see its own,
/// through `URLSession.shared`, its mock's session and child tasks.
@Suite struct ParallelIsolationTests {
    @Test(.httpMock, arguments: 0..<50)
    func eachTestSeesOnlyItsOwnStub(index: Int) async throws {
        let mock = try #require(HTTPMock.current)
        mock.addResponses(forPath: "/whoami", host: "isolation.test") {
            MockResponse.plaintext("\(index)", lifetime: .eternal)
        }
        for _ in 0..<3 {
            #expect(try await URLSession.shared.fetch("https://isolation.test/whoami").text == "\(index)")
            #expect(try await mock.urlSession.fetch("https://isolation.test/whoami").text == "\(index)")
            await Task.yield()
        }
        async let child = URLSession.shared.fetch("https://isolation.test/whoami")
        let fromGroup = try await withThrowingTaskGroup(of: String.self) { group in
            group.addTask { try await URLSession.shared.fetch("https://isolation.test/whoami").text }
            return try await group.next()
        }
        #expect(try await child.text == "\(index)")
        #expect(fromGroup == "\(index)")
        HTTPAssertRequested("https://isolation.test/whoami", count: .exactly(8))
    }
}
