import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock
import HTTPMockServer
import Testing

@Suite("A proxied upstream's stream is relayed part by part, and recorded with its boundaries")
struct ProxiedStreamTests {
    @Test("curl through the proxying server gets the first event before the last is sent; a recording keeps the parts")
    func relayedAndRecorded() async throws {
        guard Curl.isAvailable, !runsUnderAddressSanitizer else { return }
        let upstream = HTTPMock()
        let stream = MockStream()
        upstream.addResponses(forPath: "/chat") { MockResponse.events(from: stream) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("httpmock-proxied-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await HTTPMockServer.withServer(serving: upstream) { upstreamServer in
            let front = HTTPMock()
            front.unmockedPolicy = .passthrough
            let recording = try front.startRecording(to: folder.appendingPathComponent("chat.har"), format: .har,
                                                     mode: .always)
            let configuration = HTTPMockServer.Configuration(proxy: upstreamServer.baseURL)
            try await HTTPMockServer.withServer(serving: front, configuration: configuration) { frontServer in
                let curl = try StreamingCurl(frontServer.baseURL.appendingPathComponent("chat"))
                await stream.waitForClient()
                await stream.send(ServerSentEvent("one"))
                #expect(await curl.waitFor("data: one\n\n"))
                #expect(!curl.text.contains("two"))
                await stream.send(ServerSentEvent("two"))
                stream.finish()
                #expect(await curl.waitForExit() == 0)
                #expect(curl.text == "data: one\n\ndata: two\n\n")
            }
            let entry = try #require(recording.recordedEntries.last)
            #expect(entry.stream?.parts.map { String(decoding: $0.data, as: UTF8.self) } == ["data: one\n\n", "data: two\n\n"])
            try recording.finish()
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("chat.har").path))
        }
    }
}
