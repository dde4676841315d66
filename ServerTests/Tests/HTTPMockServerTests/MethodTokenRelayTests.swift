import Foundation
import HTTPMock
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing
@testable import HTTPMockServer

/// The relay in front of SwiftNIO's parser changes nothing of a stream it cannot follow with certainty, and only the
/// method of a request it can: what the parser makes of a byte stream is the same with the relay and without,
/// wherever the stream is cut into reads, but for a method of its own, which comes out as itself instead of an error.
@Suite("A method of its own (FOO) reaches the mock; the relay that carries it changes nothing else the parser reads")
struct MethodTokenRelayTests {
    /// Byte streams as clients send them, well framed and not: pipelined requests with and without bodies,
    /// chunked ones, and the smuggling shapes a parser must refuse or read one way only.
    static let streams: [String] = [
        "GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n",
        "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhelloGET /b HTTP/1.1\r\nHost: x\r\n\r\n",
        "PUT /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\nDELETE /b HTTP/1.1\r\nHost: x\r\n\r\n",
        "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n",
        "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nContent-Length: 40\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n",
        "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nabcd\r\n0\r\nX-Trailer: 1\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /a HTTP/1.1\r\nHost: x\r\nX-Folded: a\r\n b\r\n\r\n",
        "GET /a HTTP/1.1\nHost: x\n\n",
        "\r\nGET /a HTTP/1.1\r\nHost: x\r\n\r\n",
        "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
        "GET /a HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
        "PROPFIND /dav HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}",
        "GET /a HTTP/1.0\r\n\r\n",
        "GET /a HTTP/1.1\r\nHost: x\r\nContent-Length: 1e3\r\n\r\n",
    ]

    @Test("every stream decodes the same with the relay and without, cut into reads anywhere", arguments: streams)
    func sameDecoding(_ stream: String) throws {
        let bytes = Array(stream.utf8)
        let plain = try Self.decode(bytes, cuts: [], relay: false)
        for cut in 0...bytes.count {
            #expect(try Self.decode(bytes, cuts: [cut], relay: true) == plain, "cut at \(cut)")
        }
        #expect(try Self.decode(bytes, cuts: Array(1..<bytes.count), relay: true) == plain, "a byte a read")
    }

    @Test("a method of its own comes out as itself, with its body, among pipelined requests, cut anywhere")
    func customMethods() throws {
        let stream = Array(("GET /a HTTP/1.1\r\nHost: x\r\n\r\n"
            + "FOO /b HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
            + "BAR-BAZ /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n"
            + "get /d HTTP/1.1\r\nHost: x\r\n\r\n").utf8)
        let expected = ["GET /a", "body 0", "FOO /b", "body 3:abc", "BAR-BAZ /c", "body 2:hi", "get /d", "body 0"]
        for cut in 0...stream.count {
            #expect(try Self.decode(stream, cuts: [cut], relay: true) == expected, "cut at \(cut)")
        }
        #expect(try Self.decode(stream, cuts: Array(1..<stream.count), relay: true) == expected)
        // Without the relay, the parser stops at the first of them.
        let refused = try Self.decode(stream, cuts: [], relay: false)
        #expect(refused.count == 3 && refused.last?.hasPrefix("error") == true, "\(refused)")
    }

    @Test("500 generated streams of well-framed requests, methods of every kind, cut at random: each request comes out as sent")
    func generatedStreams() throws {
        var random = SplitMix(seed: 0x5EED)
        let methods = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "PROPFIND", "MKCOL", "FOO", "BAR-BAZ", "purge", "X.Y"]
        for round in 0..<500 {
            var stream = ""
            var expected: [String] = []
            for index in 0..<(1 + random.next(below: 4)) {
                let method = methods[random.next(below: methods.count)]
                let path = "/r\(round)/\(index)"
                let body = String(repeating: "b", count: random.next(below: 3) == 0 ? 0 : random.next(below: 40))
                stream += "\(method) \(path) HTTP/1.1\r\nHost: x\r\nX-Pad: \(String(repeating: "p", count: random.next(below: 20)))\r\n"
                if method == "HEAD" || (body.isEmpty && random.next(below: 2) == 0) {
                    stream += "\r\n"
                    expected += ["\(method) \(path)", "body 0"]
                } else if random.next(below: 2) == 0 {
                    stream += "Content-Length: \(body.utf8.count)\r\n\r\n" + body
                    expected += ["\(method) \(path)", body.isEmpty ? "body 0" : "body \(body.utf8.count):\(body)"]
                } else {
                    stream += "Transfer-Encoding: chunked\r\n\r\n"
                    var rest = Substring(body)
                    while !rest.isEmpty {
                        let size = min(rest.count, 1 + random.next(below: 16))
                        stream += String(size, radix: 16, uppercase: random.next(below: 2) == 0) + "\r\n" + rest.prefix(size) + "\r\n"
                        rest = rest.dropFirst(size)
                    }
                    stream += "0\r\n\r\n"
                    expected += ["\(method) \(path)", body.isEmpty ? "body 0" : "body \(body.utf8.count):\(body)"]
                }
            }
            let bytes = Array(stream.utf8)
            let cuts = (0..<random.next(below: 6)).map { _ in random.next(below: bytes.count) }.sorted()
            #expect(try Self.decode(bytes, cuts: cuts, relay: true) == expected, "round \(round): \(stream.debugDescription) cut at \(cuts)")
        }
    }

    @Test("3,000 streams mutated at random bytes: the relay never makes the parser read a request it would not have, up to where it stops")
    func mutatedStreams() throws {
        var random = SplitMix(seed: 0xF022)
        let alphabet = Array("FOO GET POST \r\n:;0123456789abcdefABCDEF-Content-Length Transfer-Encoding chunked Upgrade HTTP/1.1\t ".utf8)
        let seeds = Self.streams.map { Array($0.utf8) } + [Array(("FOO /b HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
            + "BAR /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\nGET /d HTTP/1.1\r\nHost: x\r\n\r\n").utf8)]
        for round in 0..<3_000 {
            var bytes = seeds[random.next(below: seeds.count)]
            for _ in 0..<(1 + random.next(below: 4)) {
                let at = random.next(below: bytes.count + 1)
                switch random.next(below: 3) {
                case 0 where at < bytes.count: bytes[at] = alphabet[random.next(below: alphabet.count)]
                case 1: bytes.insert(contentsOf: alphabet[random.next(below: alphabet.count)...].prefix(1 + random.next(below: 8)), at: at)
                default: if at < bytes.count { bytes.remove(at: at) }
                }
            }
            let plain = try Self.decode(bytes, cuts: [], relay: false)
            let relayed = try Self.decode(bytes, cuts: [random.next(below: bytes.count + 1)], relay: true)
            let text = String(decoding: bytes, as: UTF8.self).debugDescription
            if plain.last?.hasPrefix("error") == true {
                #expect(Array(relayed.prefix(plain.count - 1)) == Array(plain.dropLast()), "round \(round): \(text)\nplain \(plain)\nrelayed \(relayed)")
            } else {
                #expect(relayed == plain, "round \(round): \(text)")
            }
        }
    }

    /// What the decoder makes of `bytes` handed over in reads cut at `cuts`: each request as `METHOD /path`, its
    /// body as `body N:text`, and an error as `error …` (after which nothing more is read). With the relay, a
    /// method it carried in its header is restored, as ``ConnectionHandler`` does.
    static func decode(_ bytes: [UInt8], cuts: [Int], relay: Bool) throws -> [String] {
        let channel = EmbeddedChannel()
        let relayHandler = MethodTokenRelay(limit: 64 * 1024)
        if relay { try channel.pipeline.syncOperations.addHandler(relayHandler) }
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
        var out: [String] = []
        var body = ""
        var bodySize = 0
        func drain() throws {
            while let part = try channel.readInbound(as: HTTPServerRequestPart.self) {
                switch part {
                case .head(var head):
                    if relay, head.method == .POST, let method = head.headers.first(name: relayHandler.headerName) {
                        head.method = HTTPMethod(rawValue: method)
                    }
                    out.append("\(head.method.rawValue) \(head.uri)")
                    body = ""
                    bodySize = 0
                case .body(let buffer):
                    body += String(buffer: buffer)
                    bodySize += buffer.readableBytes
                case .end:
                    out.append(bodySize == 0 ? "body 0" : "body \(bodySize):\(body)")
                }
            }
        }
        var start = 0
        for end in (cuts.filter { $0 > 0 && $0 < bytes.count } + [bytes.count]) where end >= start {
            do {
                try channel.writeInbound(channel.allocator.buffer(bytes: bytes[start..<end]))
                try drain()
            } catch let error as HTTPParserError {
                try? drain()
                out.append("error \(error)")
                _ = try? channel.finish()
                return out
            }
            start = end
        }
        _ = try? channel.finish()
        return out
    }

    @Test("over the socket: FOO with a body answers from its stub, on a kept-alive connection after a GET, and is journaled as FOO")
    func overTheSocket() async throws {
        let mock = HTTPMock()
        try mock.stub(.method("FOO"), .path("/ok"), responses: [.plaintext("foo", lifetime: .eternal)])
        mock.addResponses(forPath: "/ok", method: .get) { MockResponse.plaintext("get", lifetime: .eternal) }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let replies = await offPool { () -> [String] in
                guard let connection = RawConnection(port: server.port) else { return [] }
                connection.send("GET /ok HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                    + "FOO /ok HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4\r\n\r\nbody")
                return (0..<2).compactMap { _ in connection.nextResponse(keepingBody: true).map { "\($0.status) " + String(decoding: $0.body, as: UTF8.self) } }
            }
            #expect(replies == ["200 get", "200 foo"])
            #expect(mock.journal.map(\.request.method) == ["GET", "FOO"])
            #expect(mock.journal.last?.request.body == Data("body".utf8))
            #expect(!(mock.journal.last?.request.headers.contains { $0.name.hasPrefix("x-httpmock-method") } ?? true))
            // A client cannot change a request's method by naming a header: the relay's has a random part.
            let spoofed = await RawSocket.exchange(port: server.port, sending: Array(
                "POST /ok HTTP/1.1\r\nHost: 127.0.0.1\r\nx-httpmock-method: FOO\r\nConnection: close\r\n\r\n".utf8))
            #expect(!spoofed.reply.hasSuffix("foo"))
            #expect(mock.journal.last?.request.method == "POST")
            // A stream the relay does not follow (a folded header line) leaves a method of its own to the parser,
            // which refuses it, saying how to send it.
            let folded = await RawSocket.exchange(port: server.port, sending: Array(
                "GET /ok HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\r\n b\r\n\r\nFOO /ok HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            #expect(!folded.reply.contains("foo"))
        }
    }
}
