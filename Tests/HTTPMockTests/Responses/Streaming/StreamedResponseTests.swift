import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

/// Streamed bodies through the mock's URLSession: each part when it is due, in order, before the stream ends.
@Suite struct StreamedResponseTests {
    @Test func aDelegateGetsEachPartBeforeTheNextIsSent() async throws {
        let mock = HTTPMock()
        let stream = MockStream()
        mock.addResponses(forPath: "/chat", host: "s.test") { MockResponse.events(from: stream) }
        let client = StreamClient(mock: mock, url: "https://s.test/chat")
        await stream.waitForClient()
        for (index, token) in ["The", " answer", " is", " 42"].enumerated() {
            await stream.send(ServerSentEvent(token))
            // The client holds this event before the next one exists.
            await client.waitForPieces(index + 1)
            #expect(client.pieces.count == index + 1)
            #expect(client.pieces.last == "data: \(token)\n\n")
        }
        stream.finish()
        await client.waitForEnd()
        #expect(client.error == nil)
        #expect(client.response?.value(forHTTPHeaderField: "Content-Type") == "text/event-stream")
        #expect(client.response?.value(forHTTPHeaderField: "Content-Length") == nil)
        #expect(stream.deliveredParts == 4)
        #expect(stream.clientWentAway == false)
    }

    @Test func scriptedPartsArriveOneByOneInOrder() async throws {
        let mock = HTTPMock()
        let parts = (1...5).map { StreamPart.chunk("part \($0);", after: 0.02) }
        try mock.stub(.path("/feed"), responses: [.chunks(parts, contentType: "text/plain")])
        let client = StreamClient(mock: mock, url: "https://s.test/feed")
        await client.waitForEnd()
        #expect(client.pieces == (1...5).map { "part \($0);" })
        #expect(client.error == nil)
    }

    @Test func dataForGetsTheWholeBodyWhenTheStreamEnds() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/feed"), responses: [.events(["a", "b", "c"].map { ServerSentEvent($0) }, every: 0.01)])
        let reply = try await mock.urlSession.fetch("https://s.test/feed")
        #expect(reply.text == "data: a\n\ndata: b\n\ndata: c\n\n")
        #expect(reply.header("Content-Type") == "text/event-stream")
        #expect(reply.header("Cache-Control") == "no-cache")
    }

    @Test func aCompletionHandlerGetsTheWholeBody() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/feed"), responses: [.chunks([.chunk("one "), .chunk("two ", after: 0.01), .chunk("three")])])
        let body: String = await withCheckedContinuation { continuation in
            mock.urlSession.dataTask(with: URL(string: "https://s.test/feed")!) { data, _, _ in
                continuation.resume(returning: String(decoding: data ?? Data(), as: UTF8.self))
            }.resume()
        }
        #expect(body == "one two three")
    }

    @Test func theJournalSaysWhatTheStreamDelivered() async throws {
        let mock = HTTPMock()
        let events = [ServerSentEvent("{\"delta\":\"Hi\"}", event: "delta", id: "1"), ServerSentEvent("[DONE]")]
        try mock.stub(.path("/feed"), responses: [.events(events)])
        _ = try await mock.urlSession.fetch("https://s.test/feed")
        let record = try #require(mock.journal.last?.stream)
        #expect(record.partCount == 2)
        #expect(record.events == events)
        #expect(record.isWhole)
        #expect(record.parts.map(\.offset) == record.parts.map(\.offset).sorted())
        guard case .finished = record.ending else {
            Issue.record("the stream should have finished, got \(String(describing: record.ending))")
            return
        }
        #expect(mock.journal.last?.responseBody == record.body)
    }

    @Test func aDroppedStreamDeliversItsFirstPartsThenFails() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/feed"), responses: [.events(["1", "2", "3", "4"].map { ServerSentEvent($0) },
                                                          fault: .drop(afterParts: 2))])
        let client = StreamClient(mock: mock, url: "https://s.test/feed")
        await client.waitForEnd()
        #expect(client.pieces == ["data: 1\n\n", "data: 2\n\n"])
        #expect((client.error as? URLError)?.code == .networkConnectionLost)
        let record = try #require(mock.journal.last?.stream)
        #expect(record.partCount == 2)
        guard case .failed = record.ending else {
            Issue.record("the stream should have failed, got \(String(describing: record.ending))")
            return
        }
    }

    struct Overloaded: Error, Equatable {}

    @Test func aFailingStreamGivesTheCallerItsError() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/feed"), responses: [.chunks([.chunk("a"), .chunk("b")], fault: .fail(Overloaded(), afterParts: 1))])
        let client = StreamClient(mock: mock, url: "https://s.test/feed")
        await client.waitForEnd()
        #expect(client.pieces == ["a"])
        #expect(client.error != nil)
        #expect(mock.journal.last?.error is Overloaded)
    }

    @Test func aStalledStreamTimesOutAtTheRequestsTimeout() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/feed"), responses: [.chunks([.chunk("a"), .chunk("b")], fault: .stall(afterParts: 1))])
        let client = StreamClient(mock: mock, url: "https://s.test/feed", timeout: 0.3)
        await client.waitForEnd()
        #expect(client.pieces == ["a"])
        #expect((client.error as? URLError)?.code == .timedOut)
    }

    @Test func cancellingStopsAndFreesTheProducer() async throws {
        let mock = HTTPMock()
        let producer = ProducerProbe()
        try mock.stub(.path("/feed"), responses: [.stream(contentType: "text/event-stream") { stream in
            producer.started(stream)
            await stream.send(ServerSentEvent("first"))
            // Never ends by itself: only the client's cancel stops it.
            try await Task.sleep(nanoseconds: 3_600 * 1_000_000_000)
        }])
        let client = StreamClient(mock: mock, url: "https://s.test/feed")
        await client.waitForPieces(1)
        #expect(client.pieces == ["data: first\n\n"])
        client.task.cancel()
        await client.waitForEnd()
        await producer.waitUntilFreed()
        #expect(producer.isFreed)
        #expect(mock.journal.last?.stream?.clientWentAway == true)
        #expect((mock.journal.last?.error as? URLError)?.code == .cancelled)
    }

    @Test func aMockStreamAnswersOneRequest() async throws {
        let mock = HTTPMock()
        let stream = MockStream()
        var response = MockResponse.stream(stream)
        response.lifetime = .eternal
        try mock.stub(.path("/feed"), responses: [response])
        stream.finish()
        _ = try await mock.urlSession.fetch("https://s.test/feed")
        await #expect {
            _ = try await mock.urlSession.fetch("https://s.test/feed")
        } throws: { error in
            (error as? URLError)?.code == .resourceUnavailable
                && "\(error)".contains("MockStream already served a request")
        }
    }

    @Test func partsSentBeforeTheClientConnectsWaitForIt() async throws {
        let mock = HTTPMock()
        let stream = MockStream()
        try mock.stub(.path("/feed"), responses: [.stream(stream, contentType: "text/plain")])
        await stream.send("early ")
        await stream.send("parts")
        stream.finish()
        #expect(try await mock.urlSession.fetch("https://s.test/feed").text == "early parts")
    }

    @Test func aHeadRequestGetsTheHeadersOnly() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/feed"), responses: [.events([ServerSentEvent("x")])])
        let reply = try await mock.urlSession.fetch("https://s.test/feed", method: "HEAD")
        #expect(reply.status == 200)
        #expect(reply.text.isEmpty)
        #expect(reply.header("Content-Type") == "text/event-stream")
    }

    @Test func badStreamsAreRefusedWhenRegistered() {
        let mock = HTTPMock()
        let error = #expect(throws: HTTPMockError.self) {
            try mock.stub(.path("/feed"), responses: [.chunks([.chunk("a"), .chunk("b", after: -1)],
                                                              fault: .drop(afterParts: 5))])
        }
        #expect(error?.code == .invalidResponse)
        let message = "\(error.map { "\($0)" } ?? "")"
        #expect(message.contains("part 1 has a delay of -1.0 s"))
        #expect(message.contains("the fault comes after 5 parts, but the stream has 2"))
    }
}

/// Sees a producer start, and sees the stream it was given freed once the producer is done with it.
final class ProducerProbe: Sendable {
    private let stream = Locked<WeakStream?>(nil)
    private struct WeakStream: @unchecked Sendable {  // reason: only the weak reference itself is read, under the lock
        weak var value: MockStream?
    }

    func started(_ stream: MockStream) { self.stream.withLock { $0 = WeakStream(value: stream) } }

    var isFreed: Bool { stream.withLock { $0 != nil && $0?.value == nil } }

    /// Waits until the stream was freed (the producer's task ended and let it go).
    func waitUntilFreed() async {
        while !isFreed { try? await Task.sleep(nanoseconds: 1_000_000) }
    }
}
