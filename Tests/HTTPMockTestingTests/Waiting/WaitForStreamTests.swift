import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMockTesting

/// Waiting for a streamed response's parts while the client reads them.
@Suite struct WaitForStreamTests {
    @Test func waitsForEachPartAsTheTestSendsIt() async throws {
        let mock = HTTPMock()
        let stream = MockStream()
        mock.addResponses(forPath: "/chat", host: "api.example.com") { MockResponse.events(from: stream) }
        let reader = Task { try await mock.urlSession.fetch("https://api.example.com/chat") }
        let opened = await waitForStream(url: "https://api.example.com/chat", parts: 0, in: mock, timeout: 30)
        #expect(opened?.partCount == 0)
        await stream.send(ServerSentEvent("Hel"))
        let first = await waitForStream(url: "https://api.example.com/chat", parts: 1, in: mock, timeout: 30)
        #expect(first?.events == [ServerSentEvent("Hel")])
        #expect(first?.isOpen == true)
        await stream.send(ServerSentEvent("lo"))
        stream.finish()
        let ended = await waitForStream(url: "https://api.example.com/chat", ended: true, in: mock, timeout: 30)
        #expect(ended?.events.compactMap(\.data) == ["Hel", "lo"])
        #expect(try await reader.value.text == "data: Hel\n\ndata: lo\n\n")
    }

    @Test func aStreamThatStopsShortFailsTheWaitSayingHowFarItGot() async throws {
        let mock = HTTPMock()
        let stream = MockStream()
        mock.addResponses(forPath: "/chat", host: "api.example.com") { MockResponse.events(from: stream) }
        let reader = Task { try? await mock.urlSession.fetch("https://api.example.com/chat") }
        await stream.send(ServerSentEvent("only one"))
        _ = await waitForStream(url: "https://api.example.com/chat", parts: 1, in: mock, timeout: 30)
        let line = #line + 2
        await expectFailure(atLine: line, containing: ["waitForStream failed: no request to https://api.example.com/chat whose stream delivered 3 part(s) within 0.2 s", "1 part(s), still open"]) {
            await waitForStream(url: "https://api.example.com/chat", parts: 3, in: mock, timeout: 0.2)
        }
        stream.finish()
        _ = await reader.value
    }
}
