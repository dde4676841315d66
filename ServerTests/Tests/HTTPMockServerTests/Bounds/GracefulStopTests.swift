import Foundation
import HTTPMock
import HTTPMockServer
import Testing

@Suite("stop(gracePeriod:) lets the requests being answered finish; stop() cuts the grace short")
struct GracefulStopTests {
    private let request = "GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    @Test("a response waiting out its delay is sent whole, then the connection closes")
    func inFlightResponseFinishes() async throws {
        let mock = HTTPMock()
        // Long enough that the checks below run within it however loaded the machine (they took over 3 s under
        // ThreadSanitizer beside the stream property tests).
        mock.addResponses(forPath: "/slow") { MockResponse.plaintext("done", lifetime: .eternal, delivery: .delayed(20)) }
        let server = try await HTTPMockServer.start(serving: mock)
        let port = server.port
        let slow = Task { await RawSocket.exchange(port: port, sending: Array(request.utf8)) }
        while mock.journal.isEmpty { try await Task.sleep(nanoseconds: 10_000_000) }
        // The response is still waiting out its delay (its entry completes when it is sent).
        #expect(mock.journal.last?.outcome == nil)
        // A grace far longer than the test: the connection must close because its response ended.
        let graceful = Task { await server.stop(gracePeriod: 600) }
        let reply = await slow.value
        #expect(reply.reply.hasPrefix("HTTP/1.1 200"))
        #expect(reply.reply.hasSuffix("done"))
        #expect(reply.closed, "the connection stayed open after its response")
        if !reply.closed { await server.stop() }
        await graceful.value
        #expect(server.openConnections == 0)
    }

    @Test("stop() during the grace closes what is left at once: the delayed response never goes out")
    func stopCutsTheGraceShort() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/slow") { MockResponse.plaintext("done", lifetime: .eternal, delivery: .delayed(60)) }
        let server = try await HTTPMockServer.start(serving: mock)
        let port = server.port
        let slow = Task { await RawSocket.exchange(port: port, sending: Array(request.utf8)) }
        while mock.journal.isEmpty { try await Task.sleep(nanoseconds: 10_000_000) }
        let graceful = Task { await server.stop(gracePeriod: 600) }
        // The graceful stop has begun once the server refuses new connections.
        while await offPool({ RawConnection(port: port) != nil }) { try await Task.sleep(nanoseconds: 10_000_000) }
        await server.stop()
        await graceful.value
        let reply = await slow.value
        #expect(reply.reply.isEmpty)
        #expect(reply.closed)
    }
}
