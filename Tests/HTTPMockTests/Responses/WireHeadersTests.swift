import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

/// A response served many times keeps the headers it goes out with (`Content-Length` added) in its stub's queue,
/// and what reaches the caller and the journal is the same at every serving.
@Suite struct WireHeadersTests {
    @Test func everyServingSendsTheLengthAndJournalsTheHeadersAsWritten() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/x", host: "w.test", responses: [
            MockResponse(headers: ["X-Tag": "a"], body: Data("hello".utf8), lifetime: .eternal),
        ])
        for _ in 0..<3 {
            let reply = try await mock.urlSession.fetch("https://w.test/x")
            #expect(reply.text == "hello")
            #expect(reply.header("Content-Length") == "5")
            #expect(reply.header("X-Tag") == "a")
        }
        for entry in mock.journal {
            #expect(entry.responseHeaders == ["X-Tag": "a"])
        }
    }

    @Test func aLengthTheResponseSetsIsKept() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/x", host: "w.test", responses: [
            MockResponse(headers: ["content-length": "5"], body: Data("hello".utf8), lifetime: .multiple(2)),
        ])
        for _ in 0..<2 {
            let reply = try await mock.urlSession.fetch("https://w.test/x")
            #expect(reply.header("Content-Length") == "5")
        }
    }

    @Test func changingAResponseDropsItsWireHeaders() {
        var response = MockResponse(body: Data("hi".utf8)).withWireHeaders()
        #expect(response.wireHeaders == ["Content-Length": "2"])
        response.headers["X-Tag"] = "b"
        #expect(response.wireHeaders == nil)
        #expect(response.withWireHeaders().wireHeaders == ["X-Tag": "b", "Content-Length": "2"])
    }

    @Test func onlyAnInMemoryBodyServedWholeHasWireHeaders() {
        let file = MockResponse.file(URL(fileURLWithPath: "/nonexistent/body.json"))
        #expect(file.withWireHeaders().wireHeaders == nil)
        let failure = MockResponse.failure(URLError(.timedOut))
        #expect(failure.withWireHeaders().wireHeaders == nil)
    }
}
