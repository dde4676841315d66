import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock
import HTTPMockServer
import Testing

@Suite("A real server's stream passes through an in-process mock part by part")
struct PassthroughStreamTests {
    @Test("the caller gets the first event before the last is sent; the journal keeps the part boundaries")
    func passthroughKeepsParts() async throws {
        let upstream = HTTPMock()
        let stream = MockStream()
        upstream.addResponses(forPath: "/chat") { MockResponse.events(from: stream) }
        try await HTTPMockServer.withServer(serving: upstream) { server in
            let mock = HTTPMock()
            mock.unmockedPolicy = .passthrough
            let configuration = URLSessionConfiguration.ephemeral
            mock.install(into: configuration)
            let client = SocketStreamClient(server.baseURL.appendingPathComponent("chat"), configuration: configuration)
            await stream.waitForClient()
            await stream.send(ServerSentEvent("one"))
            #expect(await client.waitFor("data: one\n\n"))
            await stream.send(ServerSentEvent("two"))
            stream.finish()
            await client.waitForEnd()
            #expect(client.error == nil)
            #expect(client.text == "data: one\n\ndata: two\n\n")
            let entry = try #require(mock.journal.last)
            #expect(entry.resolution == .passedThrough)
            #expect(entry.stream?.parts.map { String(decoding: $0.data, as: UTF8.self) } == ["data: one\n\n", "data: two\n\n"])
        }
    }
}
