import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock
import HTTPMockServer
import HTTPMockTesting
import Testing

/// Generated streams (see ``GeneratedStream``) through every face: the mock's URLSession with a delegate, HTTPMockServer
/// and `httpmock serve` read by a raw socket that keeps the chunked encoding's boundaries and when each chunk came,
/// and a recording proxy then its replay. A failing case prints its seed; set `HTTPMOCK_STREAM_SEED` to run that
/// case alone.
@Suite("Generated streams reach every face exactly as defined")
struct StreamPropertyTests {
    @Test("240 generated streams over HTTPMockServer: every part whole, one chunk each, in order, never before it is due, ending as defined")
    func generatedStreamsOverTheSocket() async throws {
        let cases = GeneratedStream.seeds(count: 240, start: 0x5EED_0000).map { GeneratedStream(seed: $0) }
        let mock = HTTPMock()
        for stream in cases {
            mock.addResponses(forPath: "/stream/\(stream.seed)") { stream.response }
        }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let port = server.port
            let failures = await GeneratedStream.run(cases) { stream in await Self.check(stream, port: port) }
            #expect(failures.isEmpty, "\(failures.count) of \(cases.count) generated streams came differently:\n\(failures.prefix(5).joined(separator: "\n"))")
            // The journal keeps the parts in the order they went out (what recordings are written from).
            var misjournaled: [String] = []
            for stream in cases {
                guard let record = mock.journal.first(where: { $0.request.path == "/stream/\(stream.seed)" })?.stream, record.isWhole else { continue }
                let kept = record.parts.map(\.data).filter { !$0.isEmpty }
                if kept != stream.delivered.map(\.data).filter({ !$0.isEmpty }) { misjournaled.append("\(stream)") }
            }
            #expect(misjournaled.isEmpty, "journaled out of order: \(misjournaled.prefix(3))")
        }
    }

    @Test("six parts of 64 KiB and more, 50 ms apart: all six, whole and in order, each after its time")
    func largePartsWithDelays() async throws {
        let parts = (0..<6).map { index in
            StreamPart(Data(repeating: UInt8(65 + index), count: 65_536 + index * 40_000), after: 0.05)
        }
        let mock = HTTPMock()
        mock.addResponses(forPath: "/large") { MockResponse.chunks(parts) }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let port = server.port
            let (response, sent) = await offPool { () -> (RawConnection.ChunkedResponse?, ContinuousClock.Instant) in
                let connection = RawConnection(port: port)
                let sent = ContinuousClock.now
                connection?.send("GET /large HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                return (connection?.nextChunkedResponse(), sent)
            }
            let read = try #require(response)
            #expect(read.ending == .complete)
            #expect(read.chunks.map { Data($0.bytes) } == parts.map(\.data))
            for (index, chunk) in read.chunks.enumerated() {
                #expect(chunk.at - sent >= .milliseconds(50 * (index + 1)), "part \(index) came before it was due")
            }
        }
    }

    @Test("150 generated streams through the mock's URLSession: a delegate gets every part, one piece each, in order, never before it is due, then the end or the fault's error")
    func generatedStreamsInProcess() async throws {
        let cases = GeneratedStream.seeds(count: 150, start: 0x1A_0000).map { GeneratedStream(seed: $0) }
        let mock = HTTPMock()
        for stream in cases {
            mock.addResponses(forPath: "/stream/\(stream.seed)", host: "streams.test") { stream.response }
        }
        let failures = await GeneratedStream.run(cases) { stream in await Self.checkInProcess(stream, mock: mock) }
        #expect(failures.isEmpty, "\(failures.count) of \(cases.count) generated streams came differently:\n\(failures.prefix(5).joined(separator: "\n"))")
    }

    @Test("100 generated streams written as a mapping file and served by httpmock serve: every part one chunk, in order, never before it is due, ending as defined")
    func generatedStreamsFromAFile() async throws {
        let cases = GeneratedStream.seeds(count: 100, start: 0xF11E_0000).map { GeneratedStream(seed: $0) }
        // One file a stream: a file may hold 64 MiB.
        var files: [String: String] = [:]
        for stream in cases {
            var response: [String: Any] = [
                "parts": stream.parts.map { ["after": $0.delay, "base64": $0.data.base64EncodedString()] as [String: Any] },
                "contentType": stream.events ? "text/event-stream" : "application/octet-stream",
            ]
            if let fault = stream.fault {
                let kind = switch fault {
                case .drop: "drop"
                case .fail: "fail"
                case .stall: "stall"
                }
                response["streamFault"] = ["kind": kind, "afterParts": fault.afterParts] as [String: Any]
            }
            let mock: [String: Any] = ["request": ["path": "/stream/\(stream.seed)"], "responses": [response]]
            let file = try JSONSerialization.data(withJSONObject: ["mocks": [mock]])
            files["stream-\(stream.seed).mock.json"] = String(decoding: file, as: UTF8.self)
        }
        let folder = try temporaryFolder(files)
        let child = try ChildProcess("httpmock", arguments: ["serve", folder.path])
        let line = try await child.nextLine()
        let port = try #require(URL(string: line)?.port)
        let failures = await GeneratedStream.run(cases) { stream in await Self.check(stream, port: port) }
        #expect(failures.isEmpty, "\(failures.count) of \(cases.count) generated streams came differently:\n\(failures.prefix(5).joined(separator: "\n"))")
        #expect(await child.terminate() == 0)
    }

    @Test("40 generated streams through httpmock serve --proxy --record-to, then replayed by httpmock serve: the same bytes live and replayed, the recorded parts as chunks, none before its recorded time")
    func generatedStreamsRecordedThenReplayed() async throws {
        let cases = GeneratedStream.seeds(count: 40, start: 0x9E00_0000).map { GeneratedStream(seed: $0, allowStall: false) }
            .filter { $0.fault == nil }
        let upstream = HTTPMock()
        for stream in cases {
            upstream.addResponses(forPath: "/stream/\(stream.seed)") { stream.response }
        }
        let folder = try temporaryFolder()
        try await HTTPMockServer.withServer(serving: upstream) { server in
            let child = try ChildProcess("httpmock", arguments: ["serve", "--proxy", server.baseURL.absoluteString, "--record-to", folder.path])
            let line = try await child.nextLine()
            let port = try #require(URL(string: line)?.port)
            let failures = await GeneratedStream.run(cases) { stream -> String? in
                let (response, _) = await Self.get("/stream/\(stream.seed)", port: port, readTimeout: 60)
                guard let response else { return "\(stream): no chunked response through the proxy" }
                let bytes = response.chunks.reduce(into: Data()) { $0.append(contentsOf: $1.bytes) }
                return bytes == stream.delivered.reduce(into: Data()) { $0.append($1.data) } && response.ending == .complete
                    ? nil : "\(stream): the proxy relayed \(bytes.count) bytes, ending \(response.ending)"
            }
            #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
            #expect(await child.terminate() == 0)
        }
        // Each mapping's parts, as recorded, by its path.
        var recorded: [String: [(bytes: Int, after: Double)]] = [:]
        var bodies: [String: Data] = [:]
        let mappings = folder.appendingPathComponent("mappings")
        for name in try FileManager.default.contentsOfDirectory(atPath: mappings.path) {
            let mapping = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: mappings.appendingPathComponent(name))) as? [String: Any])
            let path = try #require((mapping["request"] as? [String: Any])?["urlPath"] as? String)
            let response = try #require(mapping["response"] as? [String: Any])
            if let text = response["body"] as? String { bodies[path] = Data(text.utf8) }
            if let base64 = response["base64Body"] as? String { bodies[path] = Data(base64Encoded: base64) }
            let parts = (((mapping["metadata"] as? [String: Any])?["httpmock"] as? [String: Any])?["stream"] as? [String: Any])?["parts"] as? [[String: Any]]
            recorded[path] = parts?.map { (($0["bytes"] as? Int) ?? -1, ($0["afterMilliseconds"] as? Double) ?? 0) }
        }
        let (partsByPath, bodiesByPath) = (recorded, bodies)
        let child = try ChildProcess("httpmock", arguments: ["serve", folder.path])
        let line = try await child.nextLine()
        let port = try #require(URL(string: line)?.port)
        let failures = await GeneratedStream.run(cases) { stream -> String? in
            let path = "/stream/\(stream.seed)"
            let expected = stream.delivered.reduce(into: Data()) { $0.append($1.data) }
            // An empty stream is recorded as an empty body: nothing to stream.
            guard !expected.isEmpty else { return bodiesByPath[path] == nil ? nil : "\(stream): an empty stream recorded with a body" }
            let (response, sent) = await Self.get(path, port: port, readTimeout: 60)
            guard let response else { return "\(stream): no chunked response from the replay" }
            let bytes = response.chunks.reduce(into: Data()) { $0.append(contentsOf: $1.bytes) }
            guard bytes == expected else {
                let at = zip(bytes, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1
                return "\(stream): replayed \(bytes.count) bytes, not the \(expected.count) sent (first difference at byte \(at); body \(bodiesByPath[path] == expected ? "right" : "wrong"); chunks \(response.chunks.map(\.bytes.count)), parts \(partsByPath[path]?.map(\.bytes) ?? []))"
            }
            guard bodiesByPath[path] == expected else {
                return "\(stream): the mapping's body holds \(bodiesByPath[path]?.count ?? 0) bytes, not the \(expected.count) sent"
            }
            guard let parts = partsByPath[path] else { return "\(stream): recorded without its parts" }
            let sizes = parts.map(\.bytes).filter { $0 > 0 }
            if response.chunks.map(\.bytes.count) != sizes { return "\(stream): replayed chunks of \(response.chunks.map(\.bytes.count)) bytes, recorded parts of \(sizes)" }
            var due = 0.0
            var index = 0
            for part in parts {
                due += part.after
                guard part.bytes > 0 else { continue }
                if response.chunks[index].at - sent + .milliseconds(1) < .milliseconds(Int(due.rounded(.down))) {
                    return "\(stream): replayed part \(index) before its recorded time"
                }
                index += 1
            }
            return nil
        }
        #expect(failures.isEmpty, "\(failures.count) of \(cases.count) replayed streams came differently:\n\(failures.prefix(5).joined(separator: "\n"))")
        #expect(await child.terminate() == 0)
    }

    @Test("30 generated streams recorded into cassettes through the mock's URLSession, then replayed offline: the same bytes, the recorded parts one piece each")
    func generatedStreamsThroughCassettes() async throws {
        let cases = GeneratedStream.seeds(count: 30, start: 0xCA55_0000).map { GeneratedStream(seed: $0, allowStall: false) }
            .filter { $0.fault == nil }
        let upstream = HTTPMock()
        for stream in cases {
            upstream.addResponses(forPath: "/stream/\(stream.seed)") { stream.response }
        }
        let folder = try temporaryFolder().path
        var base: URL?
        let recorded = Guarded([UInt64: [Int]]())
        try await HTTPMockServer.withServer(serving: upstream) { server in
            base = server.baseURL
            let failures = await GeneratedStream.run(cases) { stream -> String? in
                do {
                    return try await withCassette("stream-\(stream.seed)", mode: .all, folder: folder) { (mock: HTTPMock) async throws -> String? in
                        let configuration = URLSessionConfiguration.ephemeral
                        mock.install(into: configuration)
                        let client = SocketStreamClient(server.baseURL.appendingPathComponent("stream/\(stream.seed)"), configuration: configuration)
                        await client.waitForEnd()
                        let expected = stream.delivered.reduce(into: Data()) { $0.append($1.data) }
                        let parts = mock.journal.last?.stream?.parts.map(\.data.count).filter { $0 > 0 } ?? []
                        recorded.withLock { $0[stream.seed] = parts }
                        return client.body == expected && client.error == nil ? nil : "\(stream): recording, the app got \(client.body.count) bytes, \(String(describing: client.error))"
                    }
                } catch {
                    return "\(stream): \(error)"
                }
            }
            #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
        }
        let origin = try #require(base)
        let parts = recorded.withLock { $0 }
        let failures = await GeneratedStream.run(cases) { stream -> String? in
            do {
                return try await withCassette("stream-\(stream.seed)", mode: .none, folder: folder) { (mock: HTTPMock) async throws -> String? in
                    let configuration = URLSessionConfiguration.ephemeral
                    mock.install(into: configuration)
                    let client = SocketStreamClient(origin.appendingPathComponent("stream/\(stream.seed)"), configuration: configuration)
                    await client.waitForEnd()
                    let expected = stream.delivered.reduce(into: Data()) { $0.append($1.data) }
                    if client.body != expected { return "\(stream): replayed \(client.body.count) bytes, expected \(expected.count)" }
                    if !expected.isEmpty, client.pieceSizes != parts[stream.seed] {
                        return "\(stream): replayed pieces of \(client.pieceSizes) bytes, recorded \(parts[stream.seed] ?? [])"
                    }
                    return nil
                }
            } catch {
                return "\(stream): \(error)"
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(cases.count) replayed cassettes came differently:\n\(failures.prefix(5).joined(separator: "\n"))")
    }

    /// GET `path` over a raw socket, keeping chunk boundaries and arrival times, and when it was sent.
    private static func get(_ path: String, port: Int, readTimeout: Int) async -> (RawConnection.ChunkedResponse?, ContinuousClock.Instant) {
        await offPool {
            let connection = RawConnection(port: port, readTimeout: readTimeout)
            let sent = ContinuousClock.now
            connection?.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            return (connection?.nextChunkedResponse(), sent)
        }
    }

    /// What went differently for `stream` through the mock's URLSession with a delegate, or `nil`.
    private static func checkInProcess(_ stream: GeneratedStream, mock: HTTPMock) async -> String? {
        let configuration = URLSessionConfiguration.ephemeral
        mock.install(into: configuration)
        let stalls = if case .stall = stream.fault { true } else { false }
        let started = Date()
        let client = SocketStreamClient(URL(string: "https://streams.test/stream/\(stream.seed)")!, configuration: configuration,
                                        timeout: stalls ? 5 : 60)
        await client.waitForEnd()
        let expected = stream.delivered.filter { !$0.data.isEmpty }
        let pieces = client.pieceSizes
        let got = client.receivedAt
        if pieces != expected.map(\.data.count) {
            return "\(stream): the delegate got pieces of \(pieces) bytes, expected \(expected.map(\.data.count))"
        }
        if client.body != expected.reduce(into: Data(), { $0.append($1.data) }) { return "\(stream): the bytes differ" }
        for (index, date) in got.enumerated() where date.timeIntervalSince(started) + 0.001 < expected[index].due {
            return "\(stream): piece \(index) came \(date.timeIntervalSince(started)) s after the request, before it was due at \(expected[index].due) s"
        }
        let code = (client.error as? URLError)?.code
        switch stream.fault {
        case nil where client.error != nil: return "\(stream): failed with \(String(describing: client.error))"
        case .drop? where code != .networkConnectionLost: return "\(stream): dropped with \(String(describing: client.error))"
        case .fail? where code != .cannotParseResponse: return "\(stream): failed with \(String(describing: client.error))"
        case .stall? where code != .timedOut: return "\(stream): stalled with \(String(describing: client.error))"
        default: return nil
        }
    }

    /// What went differently for `stream` read by a raw socket, or `nil` when it came exactly as defined.
    private static func check(_ stream: GeneratedStream, port: Int) async -> String? {
        let stalls = if case .stall = stream.fault { true } else { false }
        let (response, sent) = await offPool { () -> (RawConnection.ChunkedResponse?, ContinuousClock.Instant) in
            // A stalled stream is read until nothing comes for 5 s (nothing may come after the stall; the parts before
            // it come well within that, even under a sanitizer).
            let connection = RawConnection(port: port, readTimeout: stalls ? 5 : 60)
            let sent = ContinuousClock.now
            connection?.send("GET /stream/\(stream.seed) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            return (connection?.nextChunkedResponse(), sent)
        }
        guard let response else { return "\(stream): no chunked response" }
        let expected = stream.delivered.filter { !$0.data.isEmpty }
        let got = response.chunks.map { Data($0.bytes) }
        if got != expected.map(\.data) {
            return "\(stream): got \(got.count) chunks of \(got.map(\.count)) bytes, expected \(expected.count) of \(expected.map(\.data.count))"
        }
        for (index, chunk) in response.chunks.enumerated() {
            let arrived = chunk.at - sent
            // Due times are sums of whole milliseconds; a millisecond covers the clocks' rounding.
            if arrived + .milliseconds(1) < .milliseconds(Int((expected[index].due * 1_000).rounded())) {
                return "\(stream): chunk \(index) came \(arrived) after the request, before it was due at \(expected[index].due) s"
            }
        }
        let ending: RawConnection.ChunkedResponse.Ending = switch stream.fault {
        case nil: .complete
        case .drop?, .fail?: .closed
        case .stall?: .stalled
        }
        if response.ending != ending { return "\(stream): ended \(response.ending), expected \(ending)" }
        if response.status != 200 { return "\(stream): status \(response.status)" }
        let type = stream.events ? "text/event-stream" : "application/octet-stream"
        if response.headers["content-type"] != type { return "\(stream): Content-Type \(response.headers["content-type"] ?? "none")" }
        return nil
    }
}
