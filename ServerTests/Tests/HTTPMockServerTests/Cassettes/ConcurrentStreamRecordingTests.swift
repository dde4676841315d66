import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock
import HTTPMockServer
import HTTPMockTesting
import Testing

/// Many cassettes record a real server's stream at once, with other traffic beside them. Each recording must keep
/// the server's timing: a part is dated when it came from the server, so however late the app is served (all
/// sessions share one work queue on Linux), what the cassette keeps is what the server did.
@Suite("Cassettes recording streams side by side keep each stream's timing")
struct ConcurrentStreamRecordingTests {
    @Test("12 cassettes record a stream at once: every part dated after the server wrote it and before the app got it, bytes whole, replayed part by part")
    func concurrentRecorders() async throws {
        let upstream = HTTPMock()
        upstream.addResponses(forPath: "/chat") {
            MockResponse.events((0..<5).map { ServerSentEvent("token \($0)") }, every: 0.12, lifetime: .eternal)
        }
        upstream.addResponses(forPath: "/other") {
            MockResponse.plaintext(String(repeating: "x", count: 20_000), lifetime: .eternal)
        }
        let folder = try temporaryFolder().path
        var recordedURL: URL?
        try await HTTPMockServer.withServer(serving: upstream) { server in
            let base = server.baseURL
            recordedURL = URL(string: base.absoluteString + "/chat?recorder=0")
            let problems = try await withThrowingTaskGroup(of: [String].self) { group in
                for index in 0..<12 {
                    group.addTask {
                        try await Self.record(index, base: base, folder: folder, upstream: upstream)
                    }
                }
                var problems: [String] = []
                for try await found in group { problems += found }
                return problems
            }
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        }
        // Each cassette replays its stream part by part, with the server gone.
        try await withCassette("stream-0", mode: .none, folder: folder) { (mock: HTTPMock) async throws in
            let configuration = URLSessionConfiguration.ephemeral
            mock.install(into: configuration)
            let client = SocketStreamClient(try #require(recordedURL), configuration: configuration)
            await client.waitForEnd()
            let record = try #require(mock.journal.last?.stream)
            #expect(record.events.compactMap(\.data) == (0..<5).map { "token \($0)" })
            #expect(client.pieceSizes.count == 5, "the app gets the replayed stream part by part")
        }
    }

    /// Records one stream (and other requests beside it) into a cassette of its own; what broke the rules.
    private static func record(_ index: Int, base: URL, folder: String, upstream: HTTPMock) async throws -> [String] {
        let url = URL(string: base.absoluteString + "/chat?recorder=\(index)")!
        return try await withCassette("stream-\(index)", mode: .all, folder: folder) { (mock: HTTPMock) async throws -> [String] in
            async let others: Void = {
                for _ in 0..<4 { _ = try? await mock.urlSession.data(from: base.appendingPathComponent("other")) }
            }()
            let configuration = URLSessionConfiguration.ephemeral
            mock.install(into: configuration)
            let client = SocketStreamClient(url, configuration: configuration)
            await client.waitForEnd()
            await others
            var problems: [String] = []
            guard let recorded = mock.journal.first(where: { $0.request.path == "/chat" })?.stream,
                  let served = upstream.journal.first(where: { $0.request.url.query == "recorder=\(index)" })?.stream else {
                return ["recorder \(index): no stream in the journal"]
            }
            if recorded.body != served.body { problems.append("recorder \(index): the recorded bytes differ from the server's") }
            // Each recorded part's date lies between the server's write of its last byte and the app's receipt of it.
            var servedEnd = 0
            var receivedEnd = 0
            var servedBytes = 0
            var receivedBytes = 0
            var recordedBytes = 0
            let received = client.receivedAt
            let pieces = client.pieceSizes
            for part in recorded.parts {
                recordedBytes += part.data.count
                while servedBytes < recordedBytes, servedEnd < served.parts.count {
                    servedBytes += served.parts[servedEnd].data.count
                    servedEnd += 1
                }
                while receivedBytes < recordedBytes, receivedEnd < pieces.count {
                    receivedBytes += pieces[receivedEnd]
                    receivedEnd += 1
                }
                let at = recorded.startedAt.addingTimeInterval(part.offset)
                // The server dates a part before it flushes it, and the mock dates it once it came.
                let written = served.startedAt.addingTimeInterval(served.parts[servedEnd - 1].offset)
                if at < written {
                    problems.append("recorder \(index): a part is dated \(written.timeIntervalSince(at)) s before the server wrote it")
                }
                if receivedEnd > 0, at > received[receivedEnd - 1] {
                    problems.append("recorder \(index): a part is dated \(at.timeIntervalSince(received[receivedEnd - 1])) s after the app got it")
                }
            }
            if recorded.startedAt < served.startedAt {
                problems.append("recorder \(index): the head is dated before the server sent it")
            }
            return problems
        }
    }
}
