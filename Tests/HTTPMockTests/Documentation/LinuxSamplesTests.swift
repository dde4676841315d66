import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock
import Testing

/// The samples of the Linux article, run against a real mock.
@Suite struct LinuxSamplesTests {
    @Test func uploadBodyReachesMatchers() async throws {
        let mock = HTTPMock()
        try mock.stub(.method(.post), .path("/upload"), .body("hello"), responses: [.empty(status: .created)])
        var request = URLRequest(url: URL(string: "https://api.example.com/upload")!)
        request.httpMethod = "POST"
        let (_, response) = try await mock.urlSession.upload(for: request, from: Data("hello".utf8))
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        #expect(mock.journal.first?.request.bodyText == "hello")
    }
}
