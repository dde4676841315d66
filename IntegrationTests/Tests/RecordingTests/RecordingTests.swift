import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// Recording real traffic from a loopback server, then replaying it with the server stopped.
@Suite struct RecordingTests {
    /// A fresh folder for one test's files.
    private func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("httpmock-recording-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The traffic every test sends: three polls of a counter, a login with secrets, a binary body, a query with a key.
    private func exercise(_ session: URLSession, base: String) async throws -> [String] {
        var answers: [String] = []
        for _ in 0..<3 { answers.append(try await text(session, base + "/counter")) }
        var login = URLRequest(url: URL(string: base + "/login")!)
        login.httpMethod = "POST"
        login.setValue("Bearer top-secret", forHTTPHeaderField: "Authorization")
        login.setValue("sid=old-cookie", forHTTPHeaderField: "Cookie")
        login.setValue("application/json", forHTTPHeaderField: "Content-Type")
        login.httpBody = Data(#"{"user":"ann","password":"hunter2"}"#.utf8)
        let (loginData, loginResponse) = try await session.data(for: login)
        answers.append("\((loginResponse as? HTTPURLResponse)?.statusCode ?? 0) " + String(decoding: loginData, as: UTF8.self))
        let (binary, _) = try await session.data(from: URL(string: base + "/binary")!)
        answers.append(binary.map { String($0) }.joined(separator: ","))
        answers.append(try await text(session, base + "/search?q=swift&api_key=query-secret"))
        return answers
    }

    private func text(_ session: URLSession, _ url: String) async throws -> String {
        let (data, _) = try await session.data(from: URL(string: url)!)
        return String(decoding: data, as: UTF8.self)
    }

    @Test(arguments: [RecordingFormat.har, .mappings, .wireMock])
    func recordedTrafficReplaysInOrderWithTheServerStopped(format: RecordingFormat) async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = format == .har ? folder.appendingPathComponent("traffic.har") : folder.appendingPathComponent("traffic")
        let server = try await LoopbackServer.start()
        let base = server.base

        let recorder = HTTPMock()
        let recording = try recorder.startRecording(to: file, format: format, mode: .ifMissing)
        #expect(recording.isRecording)
        let live = try await exercise(recorder.urlSession, base: base)
        #expect(live[0...2] == [#"{"count":1}"#, #"{"count":2}"#, #"{"count":3}"#])
        #expect(live[3].hasPrefix("200 "))
        try recording.finish()
        #expect(recorder.unmockedPolicy.isNotFound)
        await server.stop()

        // The server is gone: a plain session cannot reach it.
        await #expect(throws: (any Error).self) { _ = try await URLSession(configuration: .ephemeral).data(from: URL(string: base + "/counter")!) }

        let player = HTTPMock()
        let replay = try player.startRecording(to: file, format: format, mode: .ifMissing)
        #expect(!replay.isRecording)
        #expect(replay.replayed != nil)
        let replayed = try await exercise(player.urlSession, base: base)
        #expect(replayed[0...2] == live[0...2])
        #expect(replayed[4] == live[4])
        #expect(replayed[5] == live[5])
        // The login answer comes back with its secrets redacted.
        #expect(replayed[3].hasPrefix("200 "))
        #expect(replayed[3].contains("REDACTED"))
        #expect(!replayed[3].contains("server-secret"))
        try replay.finish()
    }

    @Test(arguments: [RecordingFormat.har, .mappings, .wireMock])
    func secretsNeverReachTheFile(format: RecordingFormat) async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = format == .har ? folder.appendingPathComponent("traffic.har") : folder.appendingPathComponent("traffic")
        let server = try await LoopbackServer.start()
        let mock = HTTPMock()
        let recording = try mock.startRecording(to: file, format: format, mode: .always,
                                                redaction: .default.adding(jsonFields: ["user"]))
        _ = try await exercise(mock.urlSession, base: server.base)
        try recording.finish()
        await server.stop()
        let written = switch format {
        case .har: file
        case .mappings: file.appendingPathComponent("recorded.mock.json")
        case .wireMock: file.appendingPathComponent("mappings")
        }
        // A WireMock folder: every mapping and body file, read as one text.
        let files = format == .wireMock
            ? ["mappings", "__files"].flatMap { folder -> [URL] in
                let url = file.appendingPathComponent(folder)
                return ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).map { url.appendingPathComponent($0) }
            }
            : [written]
        let text = try files.map { String(decoding: try Data(contentsOf: $0), as: UTF8.self) }.joined(separator: "\n")
        for secret in ["top-secret", "old-cookie", "hunter2", "cookie-secret", "server-secret", "nested-secret", "query-secret", "\"ann\""] {
            #expect(!text.contains(secret), "\(secret) was written to \(written.lastPathComponent)")
        }
        #expect(text.contains("REDACTED"))
        #expect(text.contains("pro"))   // what is not secret stays
    }

    @Test func newRequestsAreAddedAndKnownOnesReplayed() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("grow.har")
        let server = try await LoopbackServer.start()

        let first = HTTPMock()
        let recording = try first.startRecording(to: file, mode: .always)
        #expect(try await text(first.urlSession, server.base + "/counter") == #"{"count":1}"#)
        try recording.finish()

        let second = HTTPMock()
        let more = try second.startRecording(to: file, mode: .newRequests)
        // Known: replayed (the server would say 2). New: sent to the server and recorded.
        #expect(try await text(second.urlSession, server.base + "/counter") == #"{"count":1}"#)
        #expect(try await text(second.urlSession, server.base + "/search?q=new") == "results for new")
        try more.finish()
        await server.stop()

        let har = try HAR(contentsOf: file)
        #expect(har.log.entries.map { URL(string: $0.request.url)!.path } == ["/counter", "/search"])
        let offline = HTTPMock()
        try offline.loadHAR(at: file)
        #expect(try await text(offline.urlSession, server.base + "/search?q=new") == "results for new")
    }

    @Test func neverModeNeedsAFileAndNeverReachesTheNetwork() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mock = HTTPMock()
        #expect(throws: HTTPMockError.self) { try mock.startRecording(to: folder.appendingPathComponent("none.har"), mode: .never) }

        let server = try await LoopbackServer.start()
        let file = folder.appendingPathComponent("one.har")
        let recorder = HTTPMock()
        let recording = try recorder.startRecording(to: file, mode: .ifMissing)
        _ = try await text(recorder.urlSession, server.base + "/counter")
        try recording.finish()

        let player = HTTPMock()
        let replay = try player.startRecording(to: file, mode: .never)
        #expect(!replay.isRecording)
        // Not in the file: the unmocked policy answers (404), the server is not asked.
        let (_, response) = try await player.urlSession.data(from: URL(string: server.base + "/search?q=x")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 404)
        #expect(try await text(player.urlSession, server.base + "/counter") == #"{"count":1}"#)
        await server.stop()
    }
}

extension UnmockedPolicy {
    var isNotFound: Bool {
        if case .notFound = self { return true }
        return false
    }
}
