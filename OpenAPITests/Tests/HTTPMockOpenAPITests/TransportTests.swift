import Foundation
import HTTPMockOpenAPI
import HTTPMockTesting
import HTTPTypes
import OpenAPIRuntime
import Testing

/// What ``HTTPMockTransport`` does that the comparison with `URLSessionTransport` cannot show: passthrough to
/// the transport it is given, cancellation, its own timeout, streamed bodies.
@Suite struct TransportTests {
    let mock = HTTPMock()
    let baseURL = URL(string: "https://api.example.com/v1")!

    func get(_ path: String) -> HTTPRequest {
        HTTPRequest(method: .get, scheme: nil, authority: nil, path: path)
    }

    /// A transport standing for the real network: it answers every request with 200 and the URL it got.
    struct Upstream: ClientTransport {
        let received = Box<[String]>([])
        func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
            let url = baseURL.absoluteString + (request.path ?? "")
            received.withLock { $0.append("\(request.method) \(url)") }
            return (HTTPResponse(status: .ok, headerFields: [.contentType: "text/plain"]), HTTPBody("upstream \(url)"))
        }
    }

    @Test func passthroughGoesToTheGivenTransportAndIsJournalled() async throws {
        mock.unmockedPolicy = .passthrough
        let upstream = Upstream()
        let transport = mock.openAPITransport(passthrough: upstream)
        let (response, body) = try await transport.send(get("/live?x=1"), body: nil, baseURL: baseURL, operationID: "live")
        #expect(response.status == .ok)
        #expect(try await String(collecting: #require(body), upTo: .max) == "upstream https://api.example.com/v1/live?x=1")
        #expect(upstream.received.current == ["GET https://api.example.com/v1/live?x=1"])
        let entry = try #require(mock.journal.last)
        #expect(entry.resolution == .passedThrough)
        #expect(entry.statusCode == 200)
        #expect(entry.responseBody == Data("upstream https://api.example.com/v1/live?x=1".utf8))
    }

    @Test func anIgnoreRuleSendsTheRequestOnAfterARedirect() async throws {
        try mock.stub(.path("/v1/old"), responses: [.redirect(to: "https://cdn.example.com/files/new")])
        try mock.ignore(.host("cdn.example.com"))
        let upstream = Upstream()
        let (response, _) = try await mock.openAPITransport(passthrough: upstream)
            .send(get("/old"), body: nil, baseURL: baseURL, operationID: "old")
        #expect(response.status == .ok)
        #expect(upstream.received.current == ["GET https://cdn.example.com/files/new"])
        #expect(mock.journal.map(\.statusCode) == [302, 200])
        #expect(mock.journal.map(\.resolution.isMatched) == [true, false])
    }

    @Test func passthroughWithoutATransportFailsClearly() async throws {
        mock.unmockedPolicy = .passthrough
        let error = await #expect(throws: HTTPMockError.self) {
            _ = try await mock.openAPITransport().send(get("/live"), body: nil, baseURL: baseURL, operationID: "live")
        }
        #expect(error?.code == .passthroughUnavailable)
        #expect(error?.message.contains("GET https://api.example.com/v1/live") == true)
        #expect((mock.journal.last?.error as? HTTPMockError)?.code == .passthroughUnavailable)
    }

    @Test func cancellingTheTaskEndsTheDelay() async throws {
        try mock.stub(.path("/v1/slow"), responses: [.plaintext("never", delivery: .delayed(600))])
        let transport = mock.openAPITransport(timeout: 3600)
        let request = get("/slow")
        let url = baseURL
        let task = Task { try await transport.send(request, body: nil, baseURL: url, operationID: "slow") }
        let entry = await waitForRequest(url: "https://api.example.com/v1/slow", in: mock)
        #expect(entry?.isComplete == false)
        task.cancel()
        let result = await task.result
        #expect(throws: URLError.self) { try result.get() }
        #expect((mock.journal.last?.error as? URLError)?.code == .cancelled)
    }

    @Test func aTaskCancelledBeforeSendingReachesNoStub() async throws {
        try mock.stub(.path("/v1/a"), responses: [.plaintext("a")])
        let transport = mock.openAPITransport()
        let request = get("/a")
        let url = baseURL
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.send(request, body: nil, baseURL: url, operationID: "a")
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(mock.journal.isEmpty)
    }

    @Test func aDelayPastTheTimeoutTimesOut() async throws {
        try mock.stub(.path("/v1/slow"), responses: [.plaintext("late", delivery: .delayed(600))])
        let error = await #expect(throws: URLError.self) {
            _ = try await mock.openAPITransport(timeout: 0.01).send(get("/slow"), body: nil, baseURL: baseURL, operationID: "slow")
        }
        #expect(error?.code == .timedOut)
        #expect((mock.journal.last?.error as? URLError)?.code == .timedOut)
    }

    @Test func aStreamedBodyIsCollectedOnce() async throws {
        try mock.stub(.method(.post), .path("/v1/upload"), responses: [.echo()])
        let (stream, continuation) = AsyncStream<HTTPBody.ByteChunk>.makeStream()
        continuation.yield(ArraySlice("first ".utf8))
        continuation.yield(ArraySlice("second".utf8))
        continuation.finish()
        let body = HTTPBody(stream, length: .unknown, iterationBehavior: .single)
        let request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/upload", headerFields: [.contentType: "text/plain"])
        let (response, echoed) = try await mock.openAPITransport().send(request, body: body, baseURL: baseURL, operationID: "upload")
        #expect(response.headerFields[.contentType] == "text/plain")
        #expect(try await String(collecting: #require(echoed), upTo: .max) == "first second")
        #expect(mock.journal.last?.request.bodyText == "first second")
    }

    @Test func theResponseBodyCanBeReadTwice() async throws {
        try mock.stub(.path("/v1/a"), responses: [.plaintext("again")])
        let (_, body) = try await mock.openAPITransport().send(get("/a"), body: nil, baseURL: baseURL, operationID: "a")
        let body1 = try #require(body)
        #expect(try await String(collecting: body1, upTo: .max) == "again")
        #expect(try await String(collecting: body1, upTo: .max) == "again")
        #expect(body1.length == .known(5))
    }

    @Test func theTransportAndTheSessionShareStubsAndJournal() async throws {
        try mock.stub(.path("/v1/count"), responses: [.plaintext("one"), .plaintext("two")])
        let (_, first) = try await mock.openAPITransport().send(get("/count"), body: nil, baseURL: baseURL, operationID: "count")
        let (second, _) = try await mock.urlSession.data(from: URL(string: "https://api.example.com/v1/count")!)
        #expect(try await String(collecting: #require(first), upTo: .max) == "one")
        #expect(String(decoding: second, as: UTF8.self) == "two")
        HTTPAssertRequested("https://api.example.com/v1/count", count: .exactly(2), in: mock)
    }
}

/// A value behind a lock, for the test transports.
final class Box<Value: Sendable>: @unchecked Sendable {  // reason: every access to `value` holds `lock`
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
    var current: Value { withLock { $0 } }
}
