import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

// The first release's second names for response factories, reached through a protocol so that the build stays
// free of deprecation warnings (a call through a protocol requirement is not a use of the deprecated name).

private protocol OldResponseNames {
    static func text(_ text: String, contentType: String, status: MockResponse.Status, lifetime: MockResponse.Lifetime, delivery: MockResponse.Delivery,
                     headers: [String: String]) -> Self
    static func json(_ object: Any, status: MockResponse.Status, lifetime: MockResponse.Lifetime, delivery: MockResponse.Delivery, headers: [String: String]) -> Self
}
extension MockResponse: OldResponseNames {}

private protocol OldRecordedError { init(description: String) }
extension HTTPMockError: OldRecordedError {}

@Suite struct ResponseDeprecationTests {
    private func oldText<R: OldResponseNames>(_ text: String, contentType: String) -> R {
        R.text(text, contentType: contentType, status: .ok, lifetime: .single, delivery: .instant, headers: [:])
    }

    private func oldJSON<R: OldResponseNames>(_ object: Any) -> R {
        R.json(object, status: .ok, lifetime: .single, delivery: .instant, headers: [:])
    }

    private func oldRecorded<E: OldRecordedError>(_ text: String) -> E { E(description: text) }

    @Test func textIsPlaintextWithAContentType() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/t"), responses: [oldText("<b>hi</b>", contentType: "text/html")])
        let reply = try await mock.urlSession.fetch("https://x.test/t")
        #expect(reply.text == "<b>hi</b>")
        #expect(reply.header("Content-Type") == "text/html")
    }

    @Test func jsonStillServesArraysAndRefusesNonJSON() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/j"), responses: [oldJSON([1, 2])])
        #expect(try await mock.urlSession.fetch("https://x.test/j").text == "[1,2]")
        let refused: MockResponse = oldJSON(Date())
        #expect(throws: HTTPMockError.self) { try mock.stub(.path("/bad"), responses: [refused]) }
    }

    @Test func recordedErrorIsARecordedFailure() {
        let error: HTTPMockError = oldRecorded("URLError -1009")
        #expect(error.code == .recordedFailure)
        #expect(error.message == "URLError -1009")
    }
}
