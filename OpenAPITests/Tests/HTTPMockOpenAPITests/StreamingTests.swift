import Foundation
import HTTPMockOpenAPI
import HTTPMockTesting
import OpenAPIRuntime
import Testing

/// Server-sent events through the generated client: each event decoded as it arrives.
@Suite struct StreamingTests {
    let mock = HTTPMock()
    var client: Client { Client(serverURL: URL(string: "https://api.example.com/v1")!, transport: mock.openAPITransport()) }

    @Test func theClientDecodesTheFirstEventBeforeTheLastIsSent() async throws {
        let stream = MockStream()
        try mock.stub(.path("/v1/chat/stream"), responses: [.events(from: stream)])
        let body = try await client.streamChat().ok.body.text_event_hyphen_stream
        var events = body.asDecodedServerSentEventsWithJSONData(of: Components.Schemas.Delta.self).makeAsyncIterator()
        await stream.send(ServerSentEvent("{\"text\":\"Hel\"}"))
        let first = try await events.next()
        #expect(first?.data?.text == "Hel")
        #expect(stream.deliveredParts == 1)
        await stream.send(ServerSentEvent("{\"text\":\"lo\"}"))
        stream.finish()
        #expect(try await events.next()?.data?.text == "lo")
        #expect(try await events.next() == nil)
        let record = try #require(mock.journal.last?.stream)
        #expect(record.partCount == 2)
        guard case .finished = record.ending else {
            Issue.record("the stream should have finished, got \(String(describing: record.ending))")
            return
        }
    }

    @Test func scriptedEventsArriveInOrder() async throws {
        try mock.stub(.path("/v1/chat/stream"), responses: [
            .events(["The", " answer", " is", " 42"].map { ServerSentEvent("{\"text\":\"\($0)\"}", event: "delta") }, every: 0.001),
        ])
        let body = try await client.streamChat().ok.body.text_event_hyphen_stream
        var texts: [String] = []
        for try await event in body.asDecodedServerSentEventsWithJSONData(of: Components.Schemas.Delta.self) {
            #expect(event.event == "delta")
            texts.append(event.data?.text ?? "")
        }
        #expect(texts == ["The", " answer", " is", " 42"])
    }

    @Test func aFaultIsThrownAfterTheEventsBeforeIt() async throws {
        try mock.stub(.path("/v1/chat/stream"), responses: [
            .events(["a", "b", "c"].map { ServerSentEvent("{\"text\":\"\($0)\"}") }, fault: .drop(afterParts: 2)),
        ])
        let body = try await client.streamChat().ok.body.text_event_hyphen_stream
        var texts: [String] = []
        await #expect(throws: URLError.self) {
            for try await event in body.asDecodedServerSentEventsWithJSONData(of: Components.Schemas.Delta.self) {
                texts.append(event.data?.text ?? "")
            }
        }
        #expect(texts == ["a", "b"])
    }

    @Test func cancellingTheReaderCancelsTheProducer() async throws {
        let cancelled = Box(false)
        try mock.stub(.path("/v1/chat/stream"), responses: [
            .stream(contentType: "text/event-stream") { stream in
                await stream.send(ServerSentEvent("{\"text\":\"first\"}"))
                await withTaskCancellationHandler {
                    try? await Task.sleep(nanoseconds: 3_600 * 1_000_000_000)
                } onCancel: {
                    cancelled.withLock { $0 = true }
                }
            },
        ])
        let client = self.client
        let reader = Task {
            let body = try await client.streamChat().ok.body.text_event_hyphen_stream
            var texts: [String] = []
            for try await event in body.asDecodedServerSentEventsWithJSONData(of: Components.Schemas.Delta.self) {
                texts.append(event.data?.text ?? "")
            }
            return texts
        }
        let record = await waitForStream(url: "https://api.example.com/v1/chat/stream", parts: 1, in: mock, timeout: 30)
        #expect(record?.partCount == 1)
        reader.cancel()
        _ = try? await reader.value
        let ended = await waitForStream(url: "https://api.example.com/v1/chat/stream", ended: true, in: mock, timeout: 30)
        #expect(ended?.clientWentAway == true)
        while !cancelled.withLock({ $0 }) { try await Task.sleep(nanoseconds: 5_000_000) }
    }
}
