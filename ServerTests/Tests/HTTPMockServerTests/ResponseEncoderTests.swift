import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing
@testable import HTTPMockServer

// HTTPMockServer encodes responses itself (to send a repeated head's bytes again without encoding them). The bytes
// must be those NIO's HTTPResponseEncoder writes for the same parts, framing included.
@Suite("the server's response encoder writes what NIO's HTTPResponseEncoder writes")
struct ResponseEncoderTests {
    /// One response: a head and what follows it.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var parts: [HTTPServerResponsePart]
        var testDescription: String { name }
    }

    static func head(_ status: HTTPResponseStatus, _ version: HTTPVersion = .http1_1,
                     _ headers: [(String, String)] = []) -> HTTPServerResponsePart {
        .head(HTTPResponseHead(version: version, status: status, headers: HTTPHeaders(headers)))
    }

    static func body(_ text: String) -> HTTPServerResponsePart { .body(.byteBuffer(ByteBuffer(string: text))) }

    static let cases: [Case] = [
        Case(name: "200 with Content-Length", parts: [
            head(.ok, .http1_1, [("Content-Type", "text/plain"), ("Content-Length", "5")]), body("hello"), .end(nil),
        ]),
        Case(name: "Content-Length and Transfer-Encoding: the length wins", parts: [
            head(.ok, .http1_1, [("Transfer-Encoding", "chunked"), ("Content-Length", "2")]), body("ok"), .end(nil),
        ]),
        Case(name: "chunked by the stub: each body part a chunk, an empty part none", parts: [
            head(.ok, .http1_1, [("Transfer-Encoding", "chunked")]), body("abc"), body(""), body(String(repeating: "x", count: 300)),
            .end(nil),
        ]),
        Case(name: "no length in HTTP/1.1: chunked, with trailers", parts: [
            head(.created), body("made"), .end(HTTPHeaders([("X-Checksum", "1")])),
        ]),
        Case(name: "204 loses its framing headers", parts: [
            head(.noContent, .http1_1, [("Content-Length", "0"), ("X-Tag", "a")]), .end(nil),
        ]),
        Case(name: "304 loses its framing headers", parts: [
            head(.notModified, .http1_1, [("Content-Length", "10"), ("Transfer-Encoding", "chunked")]), .end(nil),
        ]),
        Case(name: "100 Continue, then the response", parts: [
            head(.continue), head(.ok, .http1_1, [("Content-Length", "1")]), body("!"), .end(nil),
        ]),
        Case(name: "HTTP/1.0 without a length: neither framing", parts: [
            head(.ok, .http1_0), body("until close"), .end(nil),
        ]),
        Case(name: "HTTP/1.0 404 with a length, and Connection: close", parts: [
            head(.notFound, .http1_0, [("Content-Length", "4"), ("Connection", "close")]), body("gone"), .end(nil),
        ]),
        Case(name: "statuses without a known reason phrase", parts: [
            head(HTTPResponseStatus(statusCode: 299), .http1_1, [("Content-Length", "0")]), .end(nil),
            head(HTTPResponseStatus(statusCode: 599), .http1_1, [("Content-Length", "0")]), .end(nil),
            head(HTTPResponseStatus(statusCode: 418), .http1_1, [("Content-Length", "0")]), .end(nil),
        ]),
        Case(name: "repeated fields in their order", parts: [
            head(.found, .http1_1, [("Location", "/next"), ("Set-Cookie", "a=1"), ("Set-Cookie", "b=2; Path=/"),
                                    ("Content-Length", "0")]), .end(nil),
        ]),
    ]

    /// The bytes `encoder` writes for `parts`, each written and flushed in turn, `.end` with a promise as the
    /// server writes it.
    static func bytes(of parts: [HTTPServerResponsePart], through encoder: any ChannelHandler) throws -> [UInt8] {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(encoder)
        var bytes: [UInt8] = []
        for part in parts {
            let promise: EventLoopPromise<Void>? = if case .end = part { channel.eventLoop.makePromise() } else { nil }
            channel.writeAndFlush(part, promise: promise)
            while let data = try channel.readOutbound(as: IOData.self) {
                guard case .byteBuffer(let buffer) = data else {
                    Issue.record("a file region where bytes were expected")
                    continue
                }
                bytes += buffer.readableBytesView
            }
            if let promise { try promise.futureResult.wait() }
        }
        _ = try channel.finish()
        return bytes
    }

    @Test("the same bytes for each case", arguments: cases)
    func sameBytes(_ example: Case) throws {
        let expected = try Self.bytes(of: example.parts, through: HTTPResponseEncoder())
        let actual = try Self.bytes(of: example.parts, through: ResponseEncoder())
        #expect(String(decoding: actual, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        #expect(!actual.isEmpty)
    }

    @Test("a head tagged as the last one goes out as the bytes it was encoded to; another tag encodes afresh")
    func repeatedHead() throws {
        let first = Self.head(.ok, .http1_1, [("Content-Type", "text/plain"), ("Content-Length", "3")])
        let second = Self.head(.ok, .http1_1, [("Transfer-Encoding", "chunked")])
        let once: [HTTPServerResponsePart] = [first, Self.body("one"), .end(nil)]
        let chunked: [HTTPServerResponsePart] = [second, Self.body("two"), .end(nil)]
        let expected = try Self.bytes(of: once + once, through: HTTPResponseEncoder())
            + Self.bytes(of: chunked, through: HTTPResponseEncoder())
        let encoder = ResponseEncoder()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(encoder)
        var actual: [UInt8] = []
        for (identity, parts) in [(1, once), (1, once), (2, chunked)] {
            for part in parts {
                if case .head = part { encoder.nextHead = (identity, nil) }
                try channel.writeOutbound(part)
                while let data = try channel.readOutbound(as: IOData.self) {
                    if case .byteBuffer(let buffer) = data { actual += buffer.readableBytesView }
                }
            }
        }
        #expect(String(decoding: actual, as: UTF8.self) == String(decoding: expected, as: UTF8.self))

        // The tag alone decides: a head tagged as the kept one is sent as the kept bytes (the connection tags a
        // head again only while it is the same).
        encoder.nextHead = (2, nil)
        try channel.writeOutbound(first)
        var kept: [UInt8] = []
        while let data = try channel.readOutbound(as: IOData.self) {
            if case .byteBuffer(let buffer) = data { kept += buffer.readableBytesView }
        }
        #expect(String(decoding: kept, as: UTF8.self).contains("transfer-encoding: chunked"))
        _ = try channel.finish()
    }

    @Test("a head given its body sends both in one write, as NIO's encoder sends them in two; a chunked head frames it")
    func joinedBody() throws {
        let plain = Self.head(.ok, .http1_1, [("Content-Length", "5")])
        let chunked = Self.head(.ok, .http1_1, [("Transfer-Encoding", "chunked")])
        let encoder = ResponseEncoder()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(encoder)
        func written() throws -> [[UInt8]] {
            var writes: [[UInt8]] = []
            while let data = try channel.readOutbound(as: IOData.self) {
                if case .byteBuffer(let buffer) = data { writes.append(Array(buffer.readableBytesView)) }
            }
            return writes
        }
        for _ in 0..<2 {
            encoder.nextHead = (7, ByteBuffer(string: "hello"))
            channel.write(plain, promise: nil)
            channel.writeAndFlush(HTTPServerResponsePart.end(nil), promise: nil)  // as the server ends it
            let writes = try written()
            let expected = try Self.bytes(of: [plain, Self.body("hello"), .end(nil)], through: HTTPResponseEncoder())
            #expect(writes.count == 1)
            #expect(String(decoding: writes.joined(), as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        }
        encoder.nextHead = (8, ByteBuffer(string: "hello"))
        try channel.writeOutbound(chunked)
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        let expected = try Self.bytes(of: [chunked, Self.body("hello"), .end(nil)], through: HTTPResponseEncoder())
        #expect(String(decoding: try written().joined(), as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        _ = try channel.finish()
    }
}
