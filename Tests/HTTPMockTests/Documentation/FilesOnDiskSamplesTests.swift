import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// The samples of the Files on Disk article, run against a real mock.
@Suite struct FilesOnDiskSamplesTests {
    let bundles = fixtures.appendingPathComponent("Mockingbird")

    @Test func mockingbird() async throws {
        let mock = HTTPMock()
        try mock.loadMockingbirdBundle(at: bundles.appendingPathComponent("httpbin"))
        let (data, _) = try await mock.urlSession.data(from: URL(string: "https://httpbin.org/ip")!)
        #expect(String(decoding: data, as: UTF8.self).contains("origin"))

        mock.unmockedPolicy = .mock(.empty(status: .notImplemented))
        #expect(try await mock.urlSession.fetch("https://httpbin.org/nothing-here").status == 501)
    }

    @Test func mappings() async throws {
        let mock = HTTPMock()
        let api = try mock.loadMappings(from: fixtures.appendingPathComponent("Mappings/api"))
        let (data, _) = try await mock.urlSession.data(from: URL(string: "https://api.example.com/users/42")!)
        #expect(api.stubCount > 0)
        #expect(String(decoding: data, as: UTF8.self).contains("42"))
    }

    @Test func har() async throws {
        let mock = HTTPMock()
        try mock.loadHAR(at: fixtures.appendingPathComponent("HAR/poll.har"))
        var states: [String] = []
        for _ in 0..<3 { states.append(try await mock.urlSession.fetch("https://api.example.com/jobs/7").text) }
        #expect(Set(states).count == 3)   // the recorded states, in order, not the first one three times
    }

    @Test func harExport() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/a", host: "api.example.com") { MockResponse.plaintext("a") }
        _ = try await mock.urlSession.fetch("https://api.example.com/a")
        try mock.writeHAR(to: FileManager.default.temporaryDirectory.appendingPathComponent("session.har"))
        let har = mock.exportHAR()
        #expect(har.log.entries.count == 1)
    }

    @Test func recording() async throws {
        let server = HTTPMock()       // stands in for the real server
        server.addResponses(forPath: "/status", host: "api.example.com") { MockResponse.plaintext("up") }
        let mock = HTTPMock(passthroughSession: server.urlSession)
        let cassette = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: cassette) }

        let recording = try mock.startRecording(to: cassette, mode: .ifMissing)
        let (data, _) = try await mock.urlSession.data(from: URL(string: "https://api.example.com/status")!)
        try recording.finish()
        #expect(String(decoding: data, as: UTF8.self) == "up")

        let offline = HTTPMock()
        try offline.loadHAR(at: cassette)
        #expect(try await offline.urlSession.fetch("https://api.example.com/status").text == "up")
    }

    @Test func redaction() async throws {
        let server = HTTPMock()       // stands in for the real server
        server.addResponses(forPath: "/login", host: "api.example.com") { MockResponse.dictionary(["token": "t0k3n", "pin": "1234"]) }
        let mock = HTTPMock(passthroughSession: server.urlSession)
        let cassette = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: cassette) }
        let redaction = Redaction.default.adding(headers: ["X-Session"], queryParameters: ["key"], jsonFields: ["pin"])
        let recording = try mock.startRecording(to: cassette, redaction: redaction)
        #expect(recording.redaction.headers.contains { $0.lowercased() == "x-session" })
        try await mock.urlSession.fetch("https://api.example.com/login?key=k1", method: "POST", headers: ["X-Session": "s1"])
        try recording.finish()
        let written = try String(contentsOf: cassette, encoding: .utf8)
        #expect(!written.contains("t0k3n") && !written.contains("1234") && !written.contains("s1") && !written.contains("k1"))
        #expect(written.contains("REDACTED"))
    }

    @Test func switchingBundles() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/code", host: "httpbin.org") { MockResponse.plaintext("from code", lifetime: .eternal) }
        try mock.loadMockingbirdBundle(at: bundles.appendingPathComponent("httpbin"))
        #expect(try await mock.urlSession.fetch("https://httpbin.org/ip").status == 200)
        try mock.loadMockingbirdBundle(at: bundles.appendingPathComponent("loggedOut"))
        #expect(try await mock.urlSession.fetch("https://httpbin.org/ip").status == 401)
        #expect(try await mock.urlSession.fetch("https://httpbin.org/code").text == "from code")
    }

    @Test func harOptions() async throws {
        let mock = HTTPMock()
        try mock.loadHAR(at: fixtures.appendingPathComponent("HAR/poll.har"), options: HARReplayOptions(repeatsLast: false))
        for _ in 0..<3 { #expect(try await mock.urlSession.fetch("https://api.example.com/jobs/7").text.contains("state")) }
        #expect(try await mock.urlSession.fetch("https://api.example.com/jobs/7").status == 404)
    }

    @Test func sizeLimits() async throws {
        let mock = HTTPMock()
        mock.fileSizeLimits.definitions = 16
        #expect(throws: HTTPMockError.self) { try mock.loadMappings(from: fixtures.appendingPathComponent("Mappings/api")) }
        mock.fileSizeLimits.definitions = 256 << 20
        mock.fileSizeLimits.templatedBodies = 32 << 20
        try mock.loadMappings(from: fixtures.appendingPathComponent("Mappings/api"))
        #expect(try await mock.urlSession.fetch("https://api.example.com/users/42").status == 200)
    }
}
