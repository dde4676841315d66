import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

/// A response served many times keeps how it goes out (its headers with `Content-Length` added, and the
/// `HTTPURLResponse` made for the last URL) in its stub's queue, and what reaches the caller and the journal is the
/// same at every serving.
@Suite struct WireFormTests {
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

    @Test func eachURLAStubServesGetsAResponseForThatURL() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/items/*", host: "w.test", responses: [
            MockResponse(headers: ["X-Tag": "a"], body: Data("hello".utf8), lifetime: .eternal),
        ])
        for path in ["/items/1", "/items/2", "/items/1", "/items/1", "/items/3"] {
            let (data, response) = try await mock.urlSession.data(from: URL(string: "https://w.test\(path)")!)
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.url?.absoluteString == "https://w.test\(path)")
            #expect(http.statusCode == 200)
            #expect(http.value(forHTTPHeaderField: "X-Tag") == "a")
            #expect(String(decoding: data, as: UTF8.self) == "hello")
        }
    }

    @Test func aResponseChangedBetweenServingsGoesOutChanged() async throws {
        let mock = HTTPMock()
        var response = MockResponse(headers: ["X-Tag": "a"], body: Data("hello".utf8), lifetime: .multiple(2))
        mock.addResponses(forPath: "/x", host: "w.test", responses: [response])
        _ = try await mock.urlSession.fetch("https://w.test/x")
        response.headers["X-Tag"] = "b"
        response.status = .other(202)
        mock.addResponses(forPath: "/x", host: "w.test", responses: [response])
        let second = try await mock.urlSession.fetch("https://w.test/x")
        #expect(second.header("X-Tag") == "a")
        let third = try await mock.urlSession.fetch("https://w.test/x")
        #expect(third.header("X-Tag") == "b")
        #expect(third.status == 202)
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

    @Test func changingAResponseDropsItsWireForm() {
        var response = MockResponse(body: Data("hi".utf8)).withWireForm()
        #expect(response.wire?.headers == ["Content-Length": "2"])
        response.headers["X-Tag"] = "b"
        #expect(response.wire == nil)
        #expect(response.withWireForm().wire?.headers == ["X-Tag": "b", "Content-Length": "2"])
    }

    @Test func onlyAnInMemoryBodyServedWholeHasAWireForm() {
        let file = MockResponse.file(URL(fileURLWithPath: "/nonexistent/body.json"))
        #expect(file.withWireForm().wire == nil)
        let failure = MockResponse.failure(URLError(.timedOut))
        #expect(failure.withWireForm().wire == nil)
    }
}
