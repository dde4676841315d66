import Foundation
import HTTPMock
import HTTPMockServer
import Testing

/// `httpmock serve --proxy URL --record-to DIR` records a streamed answer as it came: its parts and their timing,
/// in a WireMock folder that WireMock itself can load, and `httpmock serve DIR` sends it back part by part.
@Suite("httpmock records a streamed answer part by part, with its timing, and replays it so")
struct StreamRecordingCommandTests {
    private static let events = (0..<5).map { ServerSentEvent("token \($0)", id: String($0)) }

    @Test("an upstream's five events 150 ms apart: recorded as five parts with their delays, replayed as five chunks, none before its recorded time")
    func recordsAndReplaysAStream() async throws {
        let upstream = HTTPMock()
        upstream.addResponses(forPath: "/chat") { MockResponse.events(Self.events, every: 0.15) }
        let folder = try temporaryFolder()
        try await HTTPMockServer.withServer(serving: upstream) { upstreamServer in
            let child = try ChildProcess("httpmock", arguments: ["serve", "--record-to", folder.path, "--proxy", upstreamServer.baseURL.absoluteString])
            let line = try await child.nextLine()
        let url = try #require(URL(string: line))
            let port = try #require(url.port)
            let live = try #require(await Self.read("/chat", port: port))
            #expect(live.response.chunks.map { Data($0.bytes) } == Self.events.map(\.encoded), "the proxy relays each event as it comes")
            #expect(await child.terminate() == 0)
        }
        let mappings = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("mappings").path)
        #expect(mappings.count == 1)
        let file = folder.appendingPathComponent("mappings/" + (mappings.first ?? ""))
        let mapping = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let response = try #require(mapping["response"] as? [String: Any])
        #expect(response["body"] as? String == Self.events.map { String(decoding: $0.encoded, as: UTF8.self) }.joined())
        let dribble = try #require(response["chunkedDribbleDelay"] as? [String: Any], "WireMock dribbles the body over the same time")
        #expect(dribble["numberOfChunks"] as? Int == 5)
        let stream = try #require(((mapping["metadata"] as? [String: Any])?["httpmock"] as? [String: Any])?["stream"] as? [String: Any])
        let parts = try #require(stream["parts"] as? [[String: Any]])
        #expect(parts.map { $0["bytes"] as? Int } == Self.events.map { $0.encoded.count })
        let delays = parts.map { ($0["afterMilliseconds"] as? Double) ?? -1 }
        #expect(delays.allSatisfy { $0 >= 0 }, "\(delays)")

        let replay = try ChildProcess("httpmock", arguments: ["serve", folder.path])
        let replayLine = try await replay.nextLine()
        let replayURL = try #require(URL(string: replayLine))
        let replayPort = try #require(replayURL.port)
        let replayed = try #require(await Self.read("/chat", port: replayPort))
        #expect(replayed.response.chunks.map { Data($0.bytes) } == Self.events.map(\.encoded))
        #expect(replayed.response.ending == .complete)
        var due = 0.0
        for (index, chunk) in replayed.response.chunks.enumerated() {
            due += delays[index]
            #expect(chunk.at - replayed.sent >= .milliseconds(Int(due.rounded(.down))), "part \(index) came before it was due")
        }
        #expect(await replay.terminate() == 0)
    }

    @Test("a mapping's stream parts that do not add up to its body are refused, naming the mapping and the sizes")
    func partsThatDoNotAddUp() async throws {
        let folder = try temporaryFolder([
            "mappings/stream.json": #"""
            {"request": {"url": "/s"}, "response": {"status": 200, "body": "abcdef"},
             "metadata": {"httpmock": {"stream": {"parts": [{"bytes": 2}, {"bytes": 2, "afterMilliseconds": 10}]}}}}
            """#,
            "__files/.keep": "",
        ])
        let run = try await ChildProcess.runToEnd("httpmock", arguments: ["serve", folder.path])
        #expect(run.status != 0)
        #expect(run.errors.contains("mappings/stream.json"), "\(run.errors)")
        #expect(run.errors.contains("the stream's parts hold 4 bytes, but the body has 6"), "\(run.errors)")
    }

    @Test("chunkedDribbleDelay sends numberOfChunks chunks over totalDuration, the first at once")
    func dribbleSendsChunks() async throws {
        let folder = try temporaryFolder([
            "mappings/dribble.json": #"""
            {"request": {"url": "/d"}, "response": {"status": 200, "body": "0123456789",
             "chunkedDribbleDelay": {"numberOfChunks": 3, "totalDuration": 300}}}
            """#,
            "__files/.keep": "",
        ])
        let child = try ChildProcess("httpmock", arguments: ["serve", folder.path])
        let line = try await child.nextLine()
        let url = try #require(URL(string: line))
        let port = try #require(url.port)
        let read = try #require(await Self.read("/d", port: port))
        #expect(read.response.chunks.map { String(decoding: $0.bytes, as: UTF8.self) } == ["012", "345", "6789"])
        for (index, chunk) in read.response.chunks.enumerated() {
            #expect(chunk.at - read.sent >= .milliseconds(100 * index), "chunk \(index) came before it was due")
        }
        #expect(await child.terminate() == 0)
    }

    @Test("--replay-timing: a HAR file's stream is served part by part after its recorded offsets; without it, at once")
    func harReplayTiming() async throws {
        let har = #"""
        {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [{
          "startedDateTime": "2026-11-22T08:00:00.000Z", "time": 400,
          "request": {"method": "GET", "url": "https://api.example.com/chat"},
          "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "text/event-stream"}],
            "content": {"mimeType": "text/event-stream", "text": "data: a\n\ndata: b\n\ndata: c\n\n"},
            "_parts": [{"offset": 0.1, "text": "data: a\n\n"}, {"offset": 0.25, "text": "data: b\n\n"}, {"offset": 0.4, "text": "data: c\n\n"}]}
        }]}}
        """#
        let folder = try temporaryFolder(["chat.har": har])
        let file = folder.appendingPathComponent("chat.har").path
        let timed = try ChildProcess("httpmock", arguments: ["serve", file, "--replay-timing", "--origin", "https://api.example.com"])
        let line = try await timed.nextLine()
        let port = try #require(URL(string: line)?.port)
        let read = try #require(await Self.read("/chat", port: port))
        #expect(read.response.chunks.map { String(decoding: $0.bytes, as: UTF8.self) } == ["data: a\n\n", "data: b\n\n", "data: c\n\n"])
        for (index, offset) in [100, 250, 400].enumerated() {
            #expect(read.response.chunks[index].at - read.sent >= .milliseconds(offset), "part \(index) came before its recorded offset")
        }
        #expect(await timed.terminate() == 0)
        // Without the flag the same parts, in the same order (at once).
        let plain = try ChildProcess("httpmock", arguments: ["serve", file, "--origin", "https://api.example.com"])
        let plainLine = try await plain.nextLine()
        let plainPort = try #require(URL(string: plainLine)?.port)
        let untimed = try #require(await Self.read("/chat", port: plainPort))
        #expect(untimed.response.chunks.map { String(decoding: $0.bytes, as: UTF8.self) } == ["data: a\n\n", "data: b\n\n", "data: c\n\n"])
        #expect(await plain.terminate() == 0)
    }

    /// GET `path` over a raw socket, keeping chunk boundaries and arrival times.
    private static func read(_ path: String, port: Int) async -> (response: RawConnection.ChunkedResponse, sent: ContinuousClock.Instant)? {
        await offPool {
            guard let connection = RawConnection(port: port) else { return nil }
            let sent = ContinuousClock.now
            connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            return connection.nextChunkedResponse().map { ($0, sent) }
        }
    }
}
