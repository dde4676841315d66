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

@Suite("Faults are socket behaviour; limits are the statuses a real server sends")
struct FaultAndLimitTests {
    private func journaledFailure(_ mock: HTTPMock) -> URLError.Code? {
        guard case .failure(let error)? = mock.journal.last?.outcome else { return nil }
        return (error as? URLError)?.code
    }

    @Test("connectionLost resets the connection before any byte", .disabled(if: runsUnderAddressSanitizer, "launches curl, which Foundation cannot do reliably under AddressSanitizer"))
    func connectionLost() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/drop") { MockResponse.fault(.connectionLost) }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let result = try await Curl.run([server.baseURL.appendingPathComponent("drop").absoluteString])
            #expect(result.exitCode == 56)  // CURLE_RECV_ERROR: connection reset by peer
            #expect(result.errors.lowercased().contains("reset"))
            #expect(journaledFailure(mock) == .networkConnectionLost)
        }
    }

    @Test("a fault with no socket equivalent (DNS, TLS, offline) closes the connection with an empty reply", .disabled(if: runsUnderAddressSanitizer, "launches curl, which Foundation cannot do reliably under AddressSanitizer"))
    func emptyReply() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/offline") { MockResponse.fault(.offline) }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let result = try await Curl.run([server.baseURL.appendingPathComponent("offline").absoluteString])
            #expect(result.exitCode == 52)  // CURLE_GOT_NOTHING: empty reply from server
            #expect(journaledFailure(mock) == .notConnectedToInternet)
        }
    }

    @Test("truncatedBody sends the headers and part of the body, then closes: the client gets fewer bytes than promised", .disabled(if: runsUnderAddressSanitizer, "launches curl, which Foundation cannot do reliably under AddressSanitizer"))
    func truncated() async throws {
        let mock = HTTPMock()
        let text = String(repeating: "0123456789", count: 100)
        mock.addResponses(forPath: "/cut") { MockResponse.fault(.truncatedBody(.plaintext(text), after: 100)) }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let result = try await Curl.run([server.baseURL.appendingPathComponent("cut").absoluteString])
            #expect(result.exitCode == 18)  // CURLE_PARTIAL_FILE
            #expect(result.output == String(text.prefix(100)))
            #expect(journaledFailure(mock) == .networkConnectionLost)
        }
    }

    @Test("badServerResponse sends a chunked response with a malformed chunk", .disabled(if: runsUnderAddressSanitizer, "launches curl, which Foundation cannot do reliably under AddressSanitizer"))
    func malformedChunk() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/garbled") { MockResponse.failure(URLError(.badServerResponse)) }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let result = try await Curl.run([server.baseURL.appendingPathComponent("garbled").absoluteString])
            #expect(result.exitCode == 56)  // CURLE_RECV_ERROR: a bad chunk
            #expect(result.errors.lowercased().contains("chunk"))
            #expect(journaledFailure(mock) == .badServerResponse)
        }
    }

    @Test("timeout never answers: the client's own timeout fires, and the entry completes when it hangs up")
    func timeout() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/never") { MockResponse.fault(.timeout) }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let request = HTTPClientRequest(url: server.baseURL.appendingPathComponent("never").absoluteString)
            await #expect(throws: HTTPClientError.deadlineExceeded) {
                _ = try await HTTPClient.shared.execute(request, timeout: .milliseconds(300))
            }
            let entry = await waitForResponse(url: "http://example.com/never", in: mock, timeout: 120)
            #expect(entry?.statusCode == nil)
            #expect(journaledFailure(mock) == .timedOut)
        }
    }

    @Test("an error that is not a network failure gets 500 with its description")
    func otherErrors() async throws {
        let mock = HTTPMock()
        mock.unmockedPolicy = .optOut
        try await HTTPMockServer.withServer(serving: mock) { server in
            let (data, response) = try await plainSession().data(from: server.baseURL.appendingPathComponent("nothing"))
            #expect((response as? HTTPURLResponse)?.statusCode == 500)
            #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-HTTPMock") == "failure")
            #expect(String(decoding: data, as: UTF8.self).hasPrefix("HTTPMock: the request failed"))
        }
    }

    @Test("a malformed request line gets 400 and the connection closes")
    func malformedRequest() async throws {
        let mock = HTTPMock()
        try await HTTPMockServer.withServer(serving: mock) { server in
            let (reply, closed) = await RawSocket.exchange(port: server.port, sending: Array("NOT HTTP AT ALL\r\n\r\n".utf8))
            #expect(reply.hasPrefix("HTTP/1.1 400 Bad Request"))
            #expect(closed)
            #expect(mock.journal.isEmpty)
        }
    }

    @Test("a malformed header gets 400")
    func malformedHeader() async throws {
        let mock = HTTPMock()
        try await HTTPMockServer.withServer(serving: mock) { server in
            let request = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header Without Colon\r\n\r\n"
            let (reply, closed) = await RawSocket.exchange(port: server.port, sending: Array(request.utf8))
            #expect(reply.hasPrefix("HTTP/1.1 400 Bad Request"))
            #expect(closed)
        }
    }

    @Test("a header section over maximumHeaderBytes gets 431")
    func headersTooLarge() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/", responses: [.plaintext("ok", lifetime: .eternal)])
        try await HTTPMockServer.withServer(serving: mock, configuration: .init(maximumHeaderBytes: 1024)) { server in
            var request = HTTPClientRequest(url: server.baseURL.absoluteString + "/")
            request.headers.add(name: "X-Large", value: String(repeating: "a", count: 2048))
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(300))
            #expect(response.status.code == 431)
            // Within the limit, the same request is answered.
            let small = try await HTTPClient.shared.execute(HTTPClientRequest(url: server.baseURL.absoluteString + "/"),
                                                            timeout: .seconds(300))
            #expect(small.status.code == 200)
        }
    }

    @Test("a body over maximumBodyBytes gets 413, whether its length is known or not, and with 100-continue", .disabled(if: runsUnderAddressSanitizer, "launches curl, which Foundation cannot do reliably under AddressSanitizer"))
    func bodyTooLarge() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/upload", method: .post, responses: [.empty(status: .created, lifetime: .eternal)])
        try await HTTPMockServer.withServer(serving: mock, configuration: .init(maximumBodyBytes: 1000)) { server in
            let url = server.baseURL.appendingPathComponent("upload").absoluteString
            var known = HTTPClientRequest(url: url)
            known.method = .POST
            known.body = .bytes(ByteBuffer(repeating: 1, count: 5000))
            #expect(try await HTTPClient.shared.execute(known, timeout: .seconds(300)).status.code == 413)

            var streamed = HTTPClientRequest(url: url)
            streamed.method = .POST
            let parts = AsyncStream<ByteBuffer> { continuation in
                for _ in 0..<5 { continuation.yield(ByteBuffer(repeating: 2, count: 400)) }
                continuation.finish()
            }
            streamed.body = .stream(parts, length: .unknown)
            #expect(try await HTTPClient.shared.execute(streamed, timeout: .seconds(300)).status.code == 413)

            let curl = try await Curl.run(["-o", "/dev/null", "-w", "%{http_code}", "-H", "Expect: 100-continue",
                                           "--data-binary", String(repeating: "x", count: 5000), url])
            #expect(curl.output == "413")

            var small = HTTPClientRequest(url: url)
            small.method = .POST
            small.body = .bytes(ByteBuffer(repeating: 1, count: 1000))
            #expect(try await HTTPClient.shared.execute(small, timeout: .seconds(300)).status.code == 201)
            #expect(mock.journal.count == 1)  // refused bodies are never decided
        }
    }

    @Test("Expect: 100-continue within the limit gets 100 Continue, then the response", .disabled(if: runsUnderAddressSanitizer, "launches curl, which Foundation cannot do reliably under AddressSanitizer"))
    func expectContinue() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/upload", method: .post) { MockResponse.echo() }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let result = try await Curl.run(["-v", "-H", "Expect: 100-continue", "--data-binary", "payload",
                                             server.baseURL.appendingPathComponent("upload").absoluteString])
            #expect(result.exitCode == 0)
            #expect(result.errors.contains("HTTP/1.1 100 Continue"))
            #expect(result.output == "payload")
        }
    }

    @Test("a client that never finishes its headers is closed after requestHeadTimeout")
    func slowHeaders() async throws {
        let mock = HTTPMock()
        try await HTTPMockServer.withServer(serving: mock, configuration: .init(requestHeadTimeout: 0.3)) { server in
            let (reply, closed) = await RawSocket.exchange(port: server.port, sending: Array("GET / HTTP/1.1\r\nHost: 127".utf8))
            #expect(closed)
            #expect(reply.isEmpty)
            #expect(mock.journal.isEmpty)
        }
    }

    @Test("a keep-alive connection left idle after its responses is closed after requestHeadTimeout")
    func idleKeepAlive() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/n") { MockResponse.plaintext("n", lifetime: .eternal) }
        // Long enough that a loaded machine (ThreadSanitizer on two busy cores) reads both heads before it runs out.
        try await HTTPMockServer.withServer(serving: mock, configuration: .init(requestHeadTimeout: 5)) { server in
            let request = "GET /n HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            let (reply, closed) = await RawSocket.exchange(port: server.port, sending: Array((request + request).utf8))
            #expect(closed)
            #expect(reply.components(separatedBy: "HTTP/1.1 200 OK").count == 3)
            #expect(!reply.contains("Connection: close"))
            #expect(mock.journal.count == 2)
        }
    }

    @Test("a client that disconnects mid-response does not stop the server serving others")
    func disconnectMidResponse() async throws {
        let file = try temporaryFile(size: 16 << 20)
        defer { try? FileManager.default.removeItem(at: file) }
        let mock = HTTPMock()
        mock.addResponses(forPath: "/big") { MockResponse.file(url: file, lifetime: .eternal) }
        mock.addResponses(forPath: "/small") { MockResponse.plaintext("still here") }
        try await HTTPMockServer.withServer(serving: mock) { server in
            await RawSocket.abandon(port: server.port, request: "GET /big HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", afterReading: 1000)
            let entry = await waitForResponse(url: "http://example.com/big", in: mock, timeout: 120)
            #expect(entry?.statusCode == nil)  // completed as a failure: the client hung up
            let (data, _) = try await plainSession().data(from: server.baseURL.appendingPathComponent("small"))
            #expect(String(decoding: data, as: UTF8.self) == "still here")
        }
    }

    @Test("a stub that answers Connection: close closes the connection after its response, though the client keeps it alive")
    func stubClosesTheConnection() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/bye") { MockResponse.plaintext("bye", lifetime: .eternal, headers: ["Connection": "close"]) }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let (reply, closed) = await RawSocket.exchange(
                port: server.port, sending: Array("GET /bye HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8), readTimeout: 20)
            #expect(reply.hasPrefix("HTTP/1.1 200 OK"))
            #expect(reply.lowercased().contains("connection: close"), "\(reply)")
            #expect(closed, "the server closed the connection")
        }
    }

    @Test("200 concurrent connections are all answered")
    func concurrentConnections() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/n") { MockResponse.plaintext("n", lifetime: .eternal) }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let answered = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<200 {
                    group.addTask {
                        let (reply, _) = await RawSocket.exchange(
                            port: server.port, sending: Array("GET /n HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
                        return reply.hasPrefix("HTTP/1.1 200 OK")
                    }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(answered == 200)
            #expect(mock.journal.count == 200)
        }
    }
}

/// A body that stops arriving holds no connection: 408 and the connection closed, whichever way it stalls.
@Suite("A request body that stalls gets 408 Request Timeout and its connection is closed")
struct BodyTimeoutTests {
    private func withServer(_ body: (HTTPMockServer, HTTPMock) async throws -> Void) async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/upload", method: .post) { MockResponse.plaintext("stored", lifetime: .eternal) }
        var configuration = HTTPMockServer.Configuration()
        configuration.requestBodyTimeout = 0.3
        try await HTTPMockServer.withServer(serving: mock, configuration: configuration) { server in
            try await body(server, mock)
        }
    }

    @Test(arguments: [
        "POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\nab",
        "POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n",
        "POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n",
    ])
    func stalledBody(request: String) async throws {
        try await withServer { server, mock in
            let (reply, closed) = await RawSocket.exchange(port: server.port, sending: Array(request.utf8))
            #expect(reply.contains("HTTP/1.1 408"), "\(reply)")
            #expect(reply.contains("the request body stopped arriving"))
            #expect(closed)
            #expect(mock.journal.isEmpty)   // never matched, never answered by a stub
            // The server goes on serving.
            let whole = "POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
            #expect(await RawSocket.exchange(port: server.port, sending: Array(whole.utf8)).reply.contains("stored"))
        }
    }
}
