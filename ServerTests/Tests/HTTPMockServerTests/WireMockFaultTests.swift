import Foundation
import HTTPMock
import HTTPMockServer
import Testing

/// WireMock's faults reach the socket as WireMock 2.35.1's standalone server puts them there (read with a raw socket
/// from both): nothing and an orderly close; a `200` head announcing chunks, then bytes that are no chunk; bytes that
/// are no status line; a reset.
@Suite("WireMock faults on the wire, as WireMock sends them")
struct WireMockFaultTests {
    static let mappings = #"""
        {"mappings": [
          {"request": {"url": "/empty"}, "response": {"fault": "EMPTY_RESPONSE"}},
          {"request": {"url": "/chunk"}, "response": {"status": 503, "headers": {"X-Mine": "1"}, "body": "hello", "fault": "MALFORMED_RESPONSE_CHUNK"}},
          {"request": {"url": "/random"}, "response": {"fault": "RANDOM_DATA_THEN_CLOSE"}},
          {"request": {"url": "/reset"}, "response": {"fault": "CONNECTION_RESET_BY_PEER"}}
        ]}
        """#

    /// The reply to `GET path` and how the connection ended.
    static func reply(_ path: String, from server: HTTPMockServer) async -> (reply: [UInt8], ending: RawSocket.Ending) {
        await RawSocket.exchangeBytes(port: server.port, sending: Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
    }

    @Test("EMPTY_RESPONSE closes in order with no byte; CONNECTION_RESET_BY_PEER resets")
    func emptyAndReset() async throws {
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: temporaryFolder(["mappings/faults.json": Self.mappings]))
        try await HTTPMockServer.withServer(serving: mock) { server in
            let empty = await Self.reply("/empty", from: server)
            #expect(empty.reply.isEmpty)
            #expect(empty.ending == .fin)
            let reset = await Self.reply("/reset", from: server)
            #expect(reset.reply.isEmpty)
            #expect(reset.ending == .reset)
        }
    }

    @Test("MALFORMED_RESPONSE_CHUNK: a 200 head announcing chunks (not the mapping's status or headers), then no chunk, then a close")
    func malformedChunk() async throws {
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: temporaryFolder(["mappings/faults.json": Self.mappings]))
        try await HTTPMockServer.withServer(serving: mock) { server in
            let (reply, ending) = await Self.reply("/chunk", from: server)
            #expect(ending == .fin)
            let text = String(decoding: reply, as: UTF8.self)
            let parts = text.components(separatedBy: "\r\n\r\n")
            #expect(parts.count >= 2, "\(text)")
            let head = parts[0].lowercased()
            #expect(head.hasPrefix("http/1.1 200 "), "\(text)")
            #expect(head.contains("transfer-encoding: chunked"), "\(text)")
            #expect(!head.contains("x-mine") && !head.contains("content-length"), "\(text)")
            // What follows the head does not start with a chunk size (hexadecimal digits).
            let body = parts.dropFirst().joined(separator: "\r\n\r\n")
            #expect(!body.isEmpty && !body.first!.isHexDigit, "\(text)")
        }
    }

    @Test("MALFORMED_RESPONSE_CHUNK to a client that asked to close: a 200 head with Connection: close, the garbage as its body")
    func malformedChunkOnClose() async throws {
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: temporaryFolder(["mappings/faults.json": Self.mappings]))
        try await HTTPMockServer.withServer(serving: mock) { server in
            let (reply, ending) = await RawSocket.exchangeBytes(
                port: server.port, sending: Array("GET /chunk HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
            #expect(ending == .fin)
            let text = String(decoding: reply, as: UTF8.self)
            let head = text.components(separatedBy: "\r\n\r\n")[0].lowercased()
            #expect(head.hasPrefix("http/1.1 200 "), "\(text)")
            #expect(head.contains("connection: close") && !head.contains("transfer-encoding") && !head.contains("content-length"), "\(text)")
            #expect(!head.contains("x-mine"), "\(text)")
            #expect(text.count > head.count + 4, "\(text)")
        }
    }

    @Test("RANDOM_DATA_THEN_CLOSE: bytes with no status line, then an orderly close")
    func randomData() async throws {
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: temporaryFolder(["mappings/faults.json": Self.mappings]))
        try await HTTPMockServer.withServer(serving: mock) { server in
            let (reply, ending) = await Self.reply("/random", from: server)
            #expect(ending == .fin)
            #expect(!reply.isEmpty)
            #expect(!reply.starts(with: Array("HTTP/".utf8)))
            #expect(!reply.contains(UInt8(ascii: "\n")))
        }
    }

    @Test("in process the faults fail as before: networkConnectionLost, and cannotParseResponse for random data")
    func inProcess() async throws {
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: temporaryFolder(["mappings/faults.json": Self.mappings]))
        for (path, code) in [("/empty", URLError.Code.networkConnectionLost), ("/chunk", .networkConnectionLost),
                             ("/random", .cannotParseResponse), ("/reset", .networkConnectionLost)] {
            do {
                _ = try await mock.urlSession.data(from: URL(string: "https://api.example.com\(path)")!)
                Issue.record("\(path) did not fail")
            } catch {
                #expect((error as? URLError)?.code == code, "\(path): \(error)")
            }
        }
    }
}
