#if Server
import NIOCore
import NIOHTTP1

/// Lets a request whose method is a token of its own (`FOO`, as a WireMock mapping may name) reach the mock.
///
/// SwiftNIO's HTTP/1 parser (llhttp) knows a fixed list of methods and refuses any other. This handler, in front
/// of it, follows the requests of a connection as they arrive and, for a method outside the few that need nothing,
/// hands the parser `POST` and the method in a header of its own (``headerName``), which ``ConnectionHandler``
/// turns back into the request's method. Nothing else of the bytes changes.
///
/// It follows only what it reads with certainty: a request line of a token, a target and `HTTP/1.1` or `HTTP/1.0`;
/// header lines of a name and a value, each ending in CRLF; a body framed by one `Content-Length`, or chunked with
/// no extension and no trailer. At anything else (a line folded or ending in a bare LF, both or neither framing
/// header read twice, an upgrade, `CONNECT`, a head larger than the decoder allows) it stops looking for the rest
/// of the connection and passes every byte on as it came: SwiftNIO's parser then decides alone, as it does without
/// this handler, so a request the two would frame differently is never rewritten.
final class MethodTokenRelay: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The header that carries a rewritten request's own method.
    static let headerName = "x-httpmock-method"

    private enum State {
        /// At the start of a request: its request line is held in `line` until it ends.
        case requestLine
        /// In the header section.
        case headers
        /// In a body of a known length: this many bytes are left.
        case body(Int)
        /// At a chunk-size line, held in `line`.
        case chunkSize
        /// In a chunk: this many bytes are left, then CRLF.
        case chunk(Int)
        /// Expecting the CRLF after a chunk's data (or, `last`, the empty trailer section that ends the body).
        case chunkEnd(seen: Int, last: Bool)
        /// Not following any more: every byte goes on as it came.
        case passing
    }

    private var state = State.requestLine
    /// The line being read (request line, header line, chunk size), and for a request line held back.
    private var line: [UInt8] = []
    /// Bytes of the header section so far, against `limit`.
    private var headBytes = 0
    private let limit: Int
    /// What the header section said of the body.
    private var contentLength: Int?
    private var lengths = 0
    private var chunked = false
    private var encodings = 0
    private var upgrades = false
    private var isConnect = false
    private var isHTTP10 = false

    /// Methods handed on as they are: the common ones, which the parser knows.
    private static let plain: Set<[UInt8]> = Set(["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE"].map { Array($0.utf8) })

    /// `limit`: the decoder's limit on a header section; a longer one is left to it to refuse.
    init(limit: Int) {
        self.limit = limit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        if case .passing = state {
            context.fireChannelRead(data)
            return
        }
        var output = context.channel.allocator.buffer(capacity: buffer.readableBytes + 64)
        buffer.withUnsafeReadableBytes { bytes in
            var index = 0
            while index < bytes.count {
                index = step(bytes, from: index, into: &output)
            }
        }
        if output.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(output)) }
    }

    /// Reads from `bytes[index...]` in the current state, writes what goes on to `output`, and returns where it
    /// stopped.
    private func step(_ bytes: UnsafeRawBufferPointer, from index: Int, into output: inout ByteBuffer) -> Int {
        switch state {
        case .passing:
            output.writeBytes(UnsafeRawBufferPointer(rebasing: bytes[index...]))
            return bytes.count
        case .body(let left):
            let count = min(left, bytes.count - index)
            output.writeBytes(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + count)]))
            state = left == count ? .requestLine : .body(left - count)
            return index + count
        case .chunk(let left):
            let count = min(left, bytes.count - index)
            output.writeBytes(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + count)]))
            state = left == count ? .chunkEnd(seen: 0, last: false) : .chunk(left - count)
            return index + count
        case .chunkEnd(let seen, let last):
            let byte = bytes[index]
            output.writeInteger(byte)
            guard byte == (seen == 0 ? 13 : 10) else { return stopFollowing(at: index + 1) }
            state = seen == 0 ? .chunkEnd(seen: 1, last: last) : last ? .requestLine : .chunkSize
            return index + 1
        case .requestLine:
            return readRequestLine(bytes, from: index, into: &output)
        case .headers:
            return readHeaderLine(bytes, from: index, into: &output)
        case .chunkSize:
            return readChunkSize(bytes, from: index, into: &output)
        }
    }

    /// Gathers the request line; once it ends, writes it on (rewritten when its method needs it).
    private func readRequestLine(_ bytes: UnsafeRawBufferPointer, from index: Int, into output: inout ByteBuffer) -> Int {
        guard let end = appendLine(bytes, from: index) else {
            if line.count > limit {
                output.writeBytes(line)
                line.removeAll()
                return stopFollowing(at: bytes.count)
            }
            return bytes.count
        }
        defer { line.removeAll(keepingCapacity: true) }
        guard let (method, rest) = Self.splitRequestLine(line) else {
            output.writeBytes(line)
            return stopFollowing(at: end)
        }
        isConnect = method.elementsEqual("CONNECT".utf8)
        isHTTP10 = line.count >= 10 && line[(line.count - 10)..<(line.count - 2)].elementsEqual("HTTP/1.0".utf8)
        if isConnect || Self.plain.contains(Array(method)) {
            output.writeBytes(line)
        } else {
            output.writeStaticString("POST")
            output.writeBytes(rest)
            output.writeString(Self.headerName + ": ")
            output.writeBytes(method)
            output.writeStaticString("\r\n")
        }
        headBytes = line.count
        contentLength = nil
        lengths = 0
        chunked = false
        encodings = 0
        upgrades = false
        state = .headers
        return end
    }

    /// Reads one header line, writing each byte on as it is read; at the empty line that ends the section, works
    /// out how the body is framed.
    private func readHeaderLine(_ bytes: UnsafeRawBufferPointer, from index: Int, into output: inout ByteBuffer) -> Int {
        let end = appendLine(bytes, from: index)
        let stop = end ?? bytes.count
        output.writeBytes(UnsafeRawBufferPointer(rebasing: bytes[index..<stop]))
        headBytes += stop - index
        guard let end else {
            if headBytes > limit { line.removeAll(); return stopFollowing(at: bytes.count) }
            return bytes.count
        }
        defer { line.removeAll(keepingCapacity: true) }
        guard line.count >= 2, line[line.count - 2] == 13 else { return stopFollowing(at: end) }
        if line.count == 2 { return endOfHead(at: end) }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0,
              line[..<colon].allSatisfy(Self.isTokenByte),
              line[(colon + 1)..<(line.count - 2)].allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else {
            return stopFollowing(at: end)
        }
        let name = line[..<colon]
        let value = Self.trimmed(line[(colon + 1)..<(line.count - 2)])
        if Self.equalsIgnoringCase(name, "content-length") {
            lengths += 1
            guard value.count > 0, value.count <= 18, value.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return stopFollowing(at: end) }
            contentLength = value.reduce(0) { $0 * 10 + Int($1 - 48) }
        } else if Self.equalsIgnoringCase(name, "transfer-encoding") {
            encodings += 1
            chunked = Self.equalsIgnoringCase(value, "chunked")
        } else if Self.equalsIgnoringCase(name, "upgrade") {
            upgrades = true
        }
        return end
    }

    private func endOfHead(at end: Int) -> Int {
        if upgrades || isConnect || lengths > 1 || encodings > 1 || (encodings == 1 && (lengths > 0 || !chunked || isHTTP10)) {
            return stopFollowing(at: end)
        }
        if chunked {
            state = .chunkSize
        } else if let contentLength, contentLength > 0 {
            state = .body(contentLength)
        } else {
            state = .requestLine
        }
        return end
    }

    /// Reads a chunk-size line: hexadecimal digits and CRLF, nothing else.
    private func readChunkSize(_ bytes: UnsafeRawBufferPointer, from index: Int, into output: inout ByteBuffer) -> Int {
        let end = appendLine(bytes, from: index)
        let stop = end ?? bytes.count
        output.writeBytes(UnsafeRawBufferPointer(rebasing: bytes[index..<stop]))
        guard let end else {
            if line.count > 18 { line.removeAll(); return stopFollowing(at: bytes.count) }
            return bytes.count
        }
        defer { line.removeAll(keepingCapacity: true) }
        let digits = line.dropLast(2)
        guard line.count >= 3, line.count <= 17, line[line.count - 2] == 13,
              let size = Int(String(decoding: digits, as: UTF8.self), radix: 16), digits.allSatisfy(Self.isHexDigit) else {
            return stopFollowing(at: end)
        }
        state = size == 0 ? .chunkEnd(seen: 0, last: true) : .chunk(size)
        return end
    }

    /// Appends `bytes[index...]` to `line` up to and including the first LF; returns the index after it, or `nil`
    /// when the line goes on past these bytes.
    private func appendLine(_ bytes: UnsafeRawBufferPointer, from index: Int) -> Int? {
        let rest = UnsafeRawBufferPointer(rebasing: bytes[index...])
        if let newline = rest.firstIndex(of: 10) {
            line.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[..<(newline + 1)]))
            return index + newline + 1
        }
        line.append(contentsOf: rest)
        return nil
    }

    /// Stops following: from `index` on, bytes go on as they come.
    private func stopFollowing(at index: Int) -> Int {
        state = .passing
        return index
    }

    /// `METHOD SP target SP HTTP/1.x CRLF`: the method, and the line from the space after it.
    private static func splitRequestLine(_ line: [UInt8]) -> (method: ArraySlice<UInt8>, rest: ArraySlice<UInt8>)? {
        guard line.count >= 14, line[line.count - 2] == 13,
              let space = line.firstIndex(of: 32), space > 0, space <= 32,
              line[..<space].allSatisfy(isTokenByte) else { return nil }
        let afterMethod = line[(space + 1)..<(line.count - 2)]
        guard let second = afterMethod.firstIndex(of: 32), second > afterMethod.startIndex,
              afterMethod[afterMethod.startIndex..<second].allSatisfy({ $0 > 32 && $0 < 127 }) else { return nil }
        let version = afterMethod[(second + 1)...]
        guard version.elementsEqual("HTTP/1.1".utf8) || version.elementsEqual("HTTP/1.0".utf8) else { return nil }
        return (line[..<space], line[space...])
    }

    /// RFC 9110's `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, first == 32 || first == 9 { slice = slice.dropFirst() }
        while let last = slice.last, last == 32 || last == 9 { slice = slice.dropLast() }
        return slice
    }

    private static func equalsIgnoringCase(_ bytes: ArraySlice<UInt8>, _ text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount else { return false }
        return zip(bytes, UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)).allSatisfy { $0 | 0x20 == $1 }
    }
}
#endif
