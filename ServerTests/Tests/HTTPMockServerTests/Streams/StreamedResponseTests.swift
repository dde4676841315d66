import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock
import HTTPMockServer
import HTTPMockTesting
import NIOCore
import Testing

@Suite("HTTPMockServer streams a body part by part")
struct StreamedResponseTests {
    @Test("curl -N gets the first event before the last one is sent, and the chunked body's end")
    func curlGetsEachEventAsItIsSent() async throws {
        guard Curl.isAvailable, !runsUnderAddressSanitizer else { return }
        let mock = HTTPMock()
        let stream = MockStream()
        mock.addResponses(forPath: "/chat") { MockResponse.events(from: stream) }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let curl = try StreamingCurl(server.baseURL.appendingPathComponent("chat"))
            await stream.waitForClient()
            await stream.send(ServerSentEvent("first"))
            #expect(await curl.waitFor("data: first\n\n"))
            #expect(!curl.text.contains("last"))
            await stream.send(ServerSentEvent("last"))
            stream.finish()
            #expect(await curl.waitForExit() == 0)
            #expect(curl.text == "data: first\n\ndata: last\n\n")
            let record = try #require(mock.journal.last?.stream)
            #expect(record.partCount == 2)
            #expect(record.events.compactMap(\.data) == ["first", "last"])
        }
    }

    @Test("AsyncHTTPClient reads each part from the body as it comes; the response is chunked")
    func asyncHTTPClientReadsEachPart() async throws {
        let mock = HTTPMock()
        let stream = MockStream()
        mock.addResponses(forPath: "/feed") { MockResponse.stream(stream, contentType: "application/x-ndjson") }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        try await HTTPMockServer.withServer(serving: mock) { server in
            let response = try await client.execute(HTTPClientRequest(url: server.baseURL.appendingPathComponent("feed").absoluteString),
                                                    timeout: .seconds(300))
            #expect(response.headers["transfer-encoding"].first == "chunked")
            #expect(response.headers["content-length"].isEmpty)
            #expect(response.headers["content-type"].first == "application/x-ndjson")
            var parts = response.body.makeAsyncIterator()
            for index in 1...3 {
                await stream.send("{\"n\":\(index)}\n")
                let part = try await parts.next()
                #expect(part.map { String(buffer: $0) } == "{\"n\":\(index)}\n")
            }
            stream.finish()
            #expect(try await parts.next() == nil)
        }
        try await client.shutdown()
    }

    @Test("a plain URLSession with a delegate gets the first event before the last one is sent")
    func urlSessionOverTheSocket() async throws {
        let mock = HTTPMock()
        let stream = MockStream()
        mock.addResponses(forPath: "/chat") { MockResponse.events(from: stream) }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let client = SocketStreamClient(server.baseURL.appendingPathComponent("chat"))
            await stream.waitForClient()
            await stream.send(ServerSentEvent("Hel"))
            #expect(await client.waitFor("data: Hel\n\n"))
            await stream.send(ServerSentEvent("lo"))
            stream.finish()
            await client.waitForEnd()
            #expect(client.error == nil)
            #expect(client.text == "data: Hel\n\ndata: lo\n\n")
        }
    }

    @Test("scripted events arrive in order, and the connection serves the next request after the stream")
    func scriptedEventsThenTheNextRequest() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/events") {
            MockResponse.events((1...20).map { ServerSentEvent("event \($0)") }, every: 0.001, lifetime: .eternal)
        }
        mock.addResponses(forPath: "/after") { MockResponse.plaintext("after") }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        try await HTTPMockServer.withServer(serving: mock) { server in
            let response = try await client.execute(HTTPClientRequest(url: server.baseURL.appendingPathComponent("events").absoluteString),
                                                    timeout: .seconds(300))
            let body = try await response.body.collect(upTo: 1 << 20)
            #expect(ServerSentEvent.events(in: Data(buffer: body)).compactMap(\.data) == (1...20).map { "event \($0)" })
            let next = try await client.execute(HTTPClientRequest(url: server.baseURL.appendingPathComponent("after").absoluteString),
                                                timeout: .seconds(300))
            #expect(String(buffer: try await next.body.collect(upTo: 1024)) == "after")
            #expect(server.openConnections == 1)
        }
        try await client.shutdown()
    }

    @Test("a stream that drops after two parts: the client gets two parts, then the connection closes mid-body")
    func droppedStream() async throws {
        guard Curl.isAvailable, !runsUnderAddressSanitizer else { return }
        let mock = HTTPMock()
        mock.addResponses(forPath: "/drop") {
            MockResponse.events(["1", "2", "3"].map { ServerSentEvent($0) }, fault: .drop(afterParts: 2))
        }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let curl = try StreamingCurl(server.baseURL.appendingPathComponent("drop"))
            let code = await curl.waitForExit()
            #expect(code == 18)  // curl: "transfer closed with outstanding read data remaining"
            #expect(curl.text == "data: 1\n\ndata: 2\n\n")
            let entry = try #require(mock.journal.last)
            #expect((entry.error as? URLError)?.code == .networkConnectionLost)
            guard case .failed = entry.stream?.ending else {
                Issue.record("the stream should have failed, got \(String(describing: entry.stream?.ending))")
                return
            }
        }
    }

    @Test("a HEAD request gets the head of a streamed response, no body and not even the last chunk")
    func headRequest() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/events") { MockResponse.events([ServerSentEvent("x")], lifetime: .eternal) }
        try await HTTPMockServer.withServer(serving: mock) { server in
            var request = URLRequest(url: server.baseURL.appendingPathComponent("events"))
            request.httpMethod = "HEAD"
            let (data, response) = try await plainSession().data(for: request)
            #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "text/event-stream")
            #expect(data.isEmpty)
            let raw = await RawSocket.exchange(port: server.port, sending: Array("HEAD /events HTTP/1.1\r\nHost: example.com\r\n\r\n".utf8))
            #expect(raw.reply.hasPrefix("HTTP/1.1 200"))
            #expect(raw.reply.hasSuffix("\r\n\r\n"))
            #expect(!raw.reply.contains("\r\n\r\n0\r\n"))
            #expect(raw.closed)
        }
    }

    @Test("a client that goes away mid-stream: the producer is cancelled and the journal says so")
    func clientGoesAway() async throws {
        let mock = HTTPMock()
        let cancelled = Guarded(false)
        mock.addResponses(forPath: "/ticks") {
            MockResponse.stream(contentType: "text/event-stream") { stream in
                await stream.send(ServerSentEvent("tick"))
                await withTaskCancellationHandler {
                    try? await Task.sleep(nanoseconds: 3_600 * 1_000_000_000)
                } onCancel: {
                    cancelled.withLock { $0 = true }
                }
            }
        }
        try await HTTPMockServer.withServer(serving: mock) { server in
            await RawSocket.abandon(port: server.port, request: "GET /ticks HTTP/1.1\r\nHost: example.com\r\n\r\n", afterReading: 40)
            let record = await waitForStream(url: "http://example.com/ticks", ended: true, in: mock, timeout: 120)
            #expect(record?.clientWentAway == true)
            while !cancelled.withLock({ $0 }) { try await Task.sleep(nanoseconds: 5_000_000) }
            #expect(cancelled.withLock { $0 })
        }
    }

    @Test("a client that stops reading holds the stream back: the server pulls no more parts than the socket takes")
    func backpressure() async throws {
        let mock = HTTPMock()
        let stream = MockStream(bufferLimit: 64 * 1024)
        mock.addResponses(forPath: "/big") { MockResponse.stream(stream) }
        let part = Data(repeating: 0x61, count: 1024)
        let total = 20_000  // 20 MB, far more than the socket buffers and NIO's write buffer hold
        try await HTTPMockServer.withServer(serving: mock) { server in
            // A client that sends its request and reads nothing, with a small receive buffer so the server's writes
            // back up soon.
            let reader = try #require(RawConnection(port: server.port, receiveBuffer: 16 * 1024))
            #expect(reader.send("GET /big HTTP/1.1\r\nHost: example.com\r\n\r\n"))
            let sender = Task {
                for _ in 0..<total { await stream.send(part) }
                stream.finish()
            }
            await stream.waitForClient()
            // Let the server write what the socket takes, then see that it stopped pulling parts.
            var last = -1
            while stream.deliveredParts != last {
                last = stream.deliveredParts
                try await Task.sleep(nanoseconds: 200_000_000)
            }
            #expect(stream.deliveredParts < total / 2)
            reader.close()
            await stream.waitUntilClosed()
            await sender.value
            #expect(stream.clientWentAway)
        }
    }
}
