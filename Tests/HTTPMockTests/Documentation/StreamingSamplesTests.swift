import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

/// The samples of the Streaming Responses article, run against a real mock.
@Suite struct StreamingSamplesTests {
    @Test func serverSentEvents() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/v1/chat", host: "llm.example.com", method: .post) {
            MockResponse.events([
                ServerSentEvent("{\"delta\":\"The\"}", event: "delta"),
                ServerSentEvent("{\"delta\":\" answer\"}", event: "delta"),
                ServerSentEvent("[DONE]"),
            ], every: 0.05)
        }
        let reply = try await mock.urlSession.fetch("https://llm.example.com/v1/chat", method: "POST")
        #expect(ServerSentEvent.events(in: Data(reply.text.utf8)).map(\.data) == ["{\"delta\":\"The\"}", "{\"delta\":\" answer\"}", "[DONE]"])
    }

    @Test func chunks() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/export/progress", host: "api.example.com") {
            MockResponse.chunks([
                .chunk("{\"done\":10}\n"),
                .chunk("{\"done\":60}\n", after: 0.2),
                .chunk("{\"done\":100}\n", after: 0.2),
            ], contentType: "application/x-ndjson")
        }
        let client = StreamClient(mock: mock, url: "https://api.example.com/export/progress")
        await client.waitForEnd()
        #expect(client.pieces == ["{\"done\":10}\n", "{\"done\":60}\n", "{\"done\":100}\n"])
    }

    @Test func aStreamTheTestDrives() async throws {
        let mock = HTTPMock()
        let stream = MockStream()
        mock.addResponses(forPath: "/chat", host: "api.example.com") {
            MockResponse.events(from: stream)
        }
        let configuration = URLSessionConfiguration.ephemeral
        mock.install(into: configuration)
        let transcript = Transcript(configuration: configuration)   // your code: its session's delegate shows each token
        transcript.start(URL(string: "https://api.example.com/chat")!)

        await stream.waitForClient()
        await stream.send(ServerSentEvent("Hel"))
        await transcript.waitForText("Hel")      // the app shows the first token before the next one exists
        // The stream counts a part once its delivery returns, which may be just after the app has it.
        await stream.waitUntilDelivered(1)
        #expect(stream.deliveredParts == 1)
        await stream.send(ServerSentEvent("lo"))
        stream.finish()
        await transcript.waitForText("Hello")
        #expect(transcript.text == "Hello")
    }

    @Test func aProducer() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/ticks", host: "api.example.com") {
            MockResponse.stream(contentType: "text/event-stream", lifetime: .eternal) { stream in
                for tick in 1...3 {
                    try await Task.sleep(nanoseconds: 10_000_000)
                    await stream.send(ServerSentEvent("tick \(tick)"))
                }
            }
        }
        for _ in 1...2 {
            let reply = try await mock.urlSession.fetch("https://api.example.com/ticks")
            #expect(ServerSentEvent.events(in: Data(reply.text.utf8)).compactMap(\.data) == ["tick 1", "tick 2", "tick 3"])
        }
    }

    @Test func faults() async throws {
        let tokens = ["a", "b", "c", "d"].map { ServerSentEvent($0) }
        let parts: [StreamPart] = [.chunk("x"), .chunk("y")]
        let mock = HTTPMock()
        try mock.stub(.path("/f"), responses: [
            MockResponse.events(tokens, every: 0.05, fault: .drop(afterParts: 3)),   // then URLError(.networkConnectionLost)
            MockResponse.chunks(parts, fault: .fail(URLError(.badServerResponse), afterParts: 1)),
            MockResponse.events(tokens, fault: .stall(afterParts: 2)),               // then nothing, until the timeout
        ])
        #expect((await mock.urlSession.failure("https://api.example.com/f") as? URLError)?.code == .networkConnectionLost)
        #expect((await mock.urlSession.failure("https://api.example.com/f") as? URLError)?.code == .badServerResponse)
        await #expect(throws: URLError.self) { try await mock.urlSession.fetch("https://api.example.com/f", timeout: 0.2) }
        #expect(mock.journal.map { $0.stream?.partCount } == [3, 1, 2])
    }

    @Test func theJournal() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/j"), responses: [.events([ServerSentEvent("a"), ServerSentEvent("b"), ServerSentEvent("[DONE]")])])
        _ = try await mock.urlSession.fetch("https://api.example.com/j")
        let record = try #require(mock.journal.last?.stream)
        #expect(record.partCount == 3)
        #expect(record.events.last?.data == "[DONE]")
        #expect(record.clientWentAway == false)
    }
}

/// Shows an answer token by token, as a chat screen would: its session's delegate gets each piece.
final class Transcript: NSObject, URLSessionDataDelegate, @unchecked Sendable {  // reason: its fields are behind `state`'s lock; URLSession's delegate protocols are not Sendable
    private var session: URLSession!
    private let state = Locked((reader: ServerSentEventReader(), text: "", waiters: [(String, CheckedContinuation<Void, Never>)]()))

    init(configuration: URLSessionConfiguration) {
        super.init()
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    var text: String { state.withLock { $0.text } }

    func start(_ url: URL) {
        session.dataTask(with: url).resume()
    }

    /// Waits until the transcript shows `text`.
    func waitForText(_ text: String) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.text == text { return true }
                state.waiters.append((text, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            for event in state.reader.read(data) { state.text += event.data ?? "" }
            let text = state.text
            let ready = state.waiters.filter { $0.0 == text }.map(\.1)
            state.waiters.removeAll { $0.0 == text }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        session.finishTasksAndInvalidate()
    }
}
