import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock
import HTTPMockServer
import HTTPMockTesting
import Testing

/// Cassettes record real traffic from a server on 127.0.0.1 and replay it afterwards with the server gone. Every
/// test writes into a folder of its own, and the suite runs in parallel.
@Suite("Cassettes record from a loopback server once and replay offline in every mode")
struct CassetteRecordingTests {
    /// A server whose every answer carries its number (`{"call":3,…}`), so a replayed answer is told from a new one.
    private func withUpstream(_ body: (_ base: URL, _ upstream: HTTPMock) async throws -> Void) async throws {
        let upstream = HTTPMock()
        let calls = Guarded(0)
        upstream.addResponses(forPath: "/users/*") {
            MockResponse.dynamic(lifetime: .eternal) { request, _ in
                let call = calls.withLock { value -> Int in value += 1; return value }
                return MockResponse.plaintext(#"{"call":\#(call),"path":"\#(request.path)","token":"tok-\#(call)-secret"}"#,
                                              headers: ["Content-Type": "application/json", "Set-Cookie": "session=s\(call)"])
            }
        }
        try await HTTPMockServer.withServer(serving: upstream) { server in
            try await body(server.baseURL, upstream)
        }
    }

    private func folder() throws -> String { try temporaryFolder().path }

    /// What `session` got for GET `url`, sent with a bearer token.
    private func get(_ url: URL, _ session: URLSession) async throws -> (status: Int, body: String) {
        var request = URLRequest(url: url)
        request.setValue("Bearer live-token-123", forHTTPHeaderField: "Authorization")
        let (data, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test("once: records when the cassette is missing, secrets redacted; then replays with the server gone")
    func onceRecordsThenReplays() async throws {
        let folder = try folder()
        var base: URL?
        try await withUpstream { url, upstream in
            base = url
            try await withCassette("login", mode: .once, folder: folder) { (mock: HTTPMock) async throws in
                let reply = try await get(url.appendingPathComponent("users/42"), mock.urlSession)
                #expect(reply.body.contains(#""call":1"#))
            }
            #expect(upstream.journal.count == 1)
            #expect(upstream.journal.first?.request.headers["Authorization"] == "Bearer live-token-123")
        }
        let file = URL(fileURLWithPath: folder).appendingPathComponent("login.har")
        let written = try String(contentsOf: file, encoding: .utf8)
        #expect(!written.contains("live-token-123"))
        #expect(!written.contains("tok-1-secret"))
        #expect(!written.contains("session=s1"))
        #expect(written.contains("REDACTED"))
        // The server has stopped: only the cassette can answer now.
        let url = try #require(base).appendingPathComponent("users/42")
        try await withCassette("login", mode: .once, folder: folder) { (mock: HTTPMock) async throws in
            let reply = try await get(url, mock.urlSession)
            #expect(reply.status == 200)
            #expect(reply.body.contains(#""call":1"#))
            #expect(reply.body.contains(#""token":"REDACTED""#))
        }
        try await withCassette("login", mode: .none, folder: folder) { (mock: HTTPMock) async throws in
            #expect(try await get(url, mock.urlSession).body.contains(#""call":1"#))
        }
    }

    @Test("requests that repeat get their recorded answers in order; one more is a failure with the cassette's hint")
    func repeatsInOrder() async throws {
        let folder = try folder()
        var base: URL?
        try await withUpstream { url, _ in
            base = url
            try await withCassette("counter", mode: .once, folder: folder) { (mock: HTTPMock) async throws in
                for call in 1...3 {
                    #expect(try await get(url.appendingPathComponent("users/1"), mock.urlSession).body.contains(#""call":\#(call)"#))
                }
            }
        }
        let url = try #require(base).appendingPathComponent("users/1")
        let failures = await recordedFailures {
            try? await withCassette("counter", mode: .once, folder: folder) { (mock: HTTPMock) async throws in
                for call in 1...3 {
                    #expect(try await get(url, mock.urlSession).body.contains(#""call":\#(call)"#))
                }
                #expect(try await get(url, mock.urlSession).status == 404)
            }
        }
        #expect(failures.count == 1)
        #expect(failures.first?.contains("was not answered by any stub") == true)
        #expect(failures.first?.contains("HTTPMOCK_CASSETTE_MODE=newEpisodes") == true)
    }

    @Test("newEpisodes: replays what the cassette has and records what it lacks; all: records everything again")
    func newEpisodesAndAll() async throws {
        let folder = try folder()
        try await withUpstream { url, upstream in
            try await withCassette("episodes", mode: .once, folder: folder) { (mock: HTTPMock) async throws in
                _ = try await get(url.appendingPathComponent("users/1"), mock.urlSession)
            }
            try await withCassette("episodes", mode: .newEpisodes, folder: folder) { (mock: HTTPMock) async throws in
                #expect(try await get(url.appendingPathComponent("users/1"), mock.urlSession).body.contains(#""call":1"#))
                #expect(try await get(url.appendingPathComponent("users/2"), mock.urlSession).body.contains(#""call":2"#))
            }
            #expect(upstream.journal.map(\.request.path) == ["/users/1", "/users/2"])
            try await withCassette("episodes", mode: .none, folder: folder) { (mock: HTTPMock) async throws in
                #expect(try await get(url.appendingPathComponent("users/1"), mock.urlSession).body.contains(#""call":1"#))
                #expect(try await get(url.appendingPathComponent("users/2"), mock.urlSession).body.contains(#""call":2"#))
            }
            try await withCassette("episodes", mode: .all, folder: folder) { (mock: HTTPMock) async throws in
                #expect(try await get(url.appendingPathComponent("users/2"), mock.urlSession).body.contains(#""call":3"#))
            }
            #expect(upstream.journal.count == 3)
            // Written again from scratch: users/1 is gone from the cassette.
            let failures = await recordedFailures {
                try? await withCassette("episodes", mode: .none, folder: folder) { (mock: HTTPMock) async throws in
                    #expect(try await get(url.appendingPathComponent("users/2"), mock.urlSession).body.contains(#""call":3"#))
                    #expect(try await get(url.appendingPathComponent("users/1"), mock.urlSession).status == 404)
                }
            }
            #expect(failures.count == 1)
            #expect(upstream.journal.count == 3)
        }
    }

    @Test("none: a missing cassette stops the test before anything reaches the network")
    func noneRefusesAMissingCassette() async throws {
        let folder = try folder()
        try await withUpstream { url, upstream in
            var ran = false
            await #expect {
                try await withCassette("never-recorded", mode: .none, folder: folder) { (mock: HTTPMock) async throws in
                    ran = true
                    _ = try await get(url.appendingPathComponent("users/1"), mock.urlSession)
                }
            } throws: { error in
                "\(error)".contains("never-recorded.har does not exist, and the mode is none")
                    && "\(error)".contains("HTTPMOCK_CASSETTE_MODE=once swift test --filter")
            }
            #expect(!ran)
            #expect(upstream.journal.isEmpty)
        }
    }

    @Test("a WireMock folder cassette records mappings and files, replays, and is served by HTTPMockServer alike")
    func wireMockFolder() async throws {
        let folder = try folder()
        var base: URL?
        try await withUpstream { url, _ in
            base = url
            try await withCassette("wire", mode: .once, folder: folder, format: .wireMock) { (mock: HTTPMock) async throws in
                _ = try await get(url.appendingPathComponent("users/7"), mock.urlSession)
                _ = try await get(url.appendingPathComponent("users/7"), mock.urlSession)
            }
        }
        let root = URL(fileURLWithPath: folder).appendingPathComponent("wire")
        let mappings = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("mappings").path)
        #expect(mappings.filter { $0.hasSuffix(".json") }.count == 2)
        let text = try mappings.map { try String(contentsOf: root.appendingPathComponent("mappings/\($0)"), encoding: .utf8) }.joined()
        #expect(text.contains("scenarioName"))
        #expect(!text.contains("tok-1-secret"))
        let url = try #require(base).appendingPathComponent("users/7")
        try await withCassette("wire", mode: .none, folder: folder, format: .wireMock) { (mock: HTTPMock) async throws in
            #expect(try await get(url, mock.urlSession).body.contains(#""call":1"#))
            #expect(try await get(url, mock.urlSession).body.contains(#""call":2"#))
        }
        // The same folder served over HTTP answers the same way.
        let served = HTTPMock()
        try served.loadWireMockMappings(from: root)
        try await HTTPMockServer.withServer(serving: served) { (server: HTTPMockServer) async throws in
            let session = plainSession()
            #expect(try await get(server.baseURL.appendingPathComponent("users/7"), session).body.contains(#""call":1"#))
            #expect(try await get(server.baseURL.appendingPathComponent("users/7"), session).body.contains(#""call":2"#))
        }
    }

    @Test("cassettes recorded at the same time each hold only their own traffic")
    func parallelCassettesNeverMix() async throws {
        let folder = try folder()
        try await withUpstream { url, _ in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<6 {
                    group.addTask {
                        try await withCassette("parallel-\(index)", mode: .all, folder: folder) { (mock: HTTPMock) async throws in
                            _ = try await get(url.appendingPathComponent("users/\(index)"), mock.urlSession)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        for index in 0..<6 {
            let har = try HAR(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent("parallel-\(index).har"))
            #expect(har.log.entries.map(\.request.url).map { URL(string: $0)?.path } == ["/users/\(index)"])
        }
    }

    @Test("two tests recording one cassette at once: the second is refused, the first writes it")
    func oneRecorderPerCassette() async throws {
        let folder = try folder()
        let entered = AsyncStream<Void>.makeStream()
        let release = AsyncStream<Void>.makeStream()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await withCassette("shared", mode: .all, folder: folder) { _ in
                    entered.continuation.yield()
                    for await _ in release.stream { break }
                }
            }
            for await _ in entered.stream { break }
            await #expect {
                try await withCassette("shared", mode: .all, folder: folder) { _ in }
            } throws: { error in
                "\(error)".contains("is being recorded by another test running at the same time")
            }
            release.continuation.yield()
            try await group.waitForAll()
        }
        #expect(FileManager.default.fileExists(atPath: folder + "/shared.har"))
    }
}

/// The text of the issues `body` records (they are expected, so they do not fail the test).
func recordedFailures(_ body: () async -> Void) async -> [String] {
    let texts = Guarded<[String]>([])
    await withKnownIssue("expected: this test makes assertions fail on purpose and reads their messages") {
        await body()
    } matching: { issue in
        texts.withLock { $0.append(issue.comments.map(\.rawValue).joined(separator: "\n")) }
        return true
    }
    return texts.current
}
