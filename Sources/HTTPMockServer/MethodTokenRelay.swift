#if Server
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import NIOHTTP1

/// Lets a request whose method is a token of its own (`FOO`, as a WireMock mapping may name) reach the mock.
///
/// SwiftNIO's HTTP/1 parser (llhttp) knows a fixed list of methods and refuses any other. This handler, in front
/// of it, follows the requests of a connection as they arrive and, for a method outside the few that need nothing,
/// hands the parser `POST` and the method in a header of its own (``headerName``, with a random part no client
/// can guess, so none can change a request's method by sending it), which ``ConnectionHandler`` turns back into the
/// request's method. Nothing else of the bytes changes, and a read with nothing to change goes
/// on as it came (no copy).
///
/// It follows only what it frames with certainty: a request line of a token, a target and `HTTP/1.1` or
/// `HTTP/1.0`; header lines ending in CRLF; a body framed by one `Content-Length`, or chunked with no extension and
/// no trailer. At anything else (a line folded or ending in a bare LF, a framing header given twice or both of
/// them, another transfer coding, an upgrade, `CONNECT`, a head larger than the decoder allows) it stops looking
/// for the rest of the connection and passes every byte on as it came: the parser then decides alone, as without
/// this handler, so a request the two would frame differently is never rewritten. (The parser is strict: a header
/// line it cannot read ends the connection, so what follows one is never read as a request either way.)
final class MethodTokenRelay: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The header that carries a rewritten request's own method on this connection.
    let headerName = "x-httpmock-method-" + String(UInt64.random(in: .min ... .max), radix: 16)

    private enum State {
        /// At the start of a request, or inside its request line (held in `line`, not passed on yet).
        case requestLine
        /// In the header section (a line begun in an earlier read is in `line`).
        case headers
        /// In a body of a known length: this many bytes are left.
        case body(Int)
        /// At a chunk-size line (a line begun in an earlier read is in `line`).
        case chunkSize
        /// In a chunk: this many bytes are left, then CRLF.
        case chunk(Int)
        /// Expecting the CRLF after a chunk's data, or (`last`) the empty trailer section that ends the body.
        case chunkEnd(seen: Int, last: Bool)
        /// Not following any more: every byte goes on as it came.
        case passing
    }

    /// What goes on from a read: a range of it, or bytes of the relay's own.
    private enum Piece {
        case range(Range<Int>)
        case bytes([UInt8])
    }

    private var state = State.requestLine
    /// A line begun in an earlier read.
    private var line: [UInt8] = []
    /// Bytes of the header section so far, against `limit`.
    private var headBytes = 0
    private let limit: Int
    /// What the header section said of the body.
    private var contentLength = 0
    private var lengths = 0
    private var chunked = false
    private var encodings = 0
    private var upgrades = false
    private var isConnect = false
    private var isHTTP10 = false

    /// `limit`: the decoder's limit on a header section; a longer one is left to it to refuse.
    init(limit: Int) {
        self.limit = limit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .passing = state {
            context.fireChannelRead(data)
            return
        }
        let buffer = unwrapInboundIn(data)
        let plan = buffer.withUnsafeReadableBytes { scan($0) }
        guard let plan else {
            context.fireChannelRead(data)
            return
        }
        for piece in plan {
            switch piece {
            case .range(let range):
                guard !range.isEmpty, let slice = buffer.getSlice(at: buffer.readerIndex + range.lowerBound, length: range.count) else { continue }
                context.fireChannelRead(wrapInboundOut(slice))
            case .bytes(let bytes):
                context.fireChannelRead(wrapInboundOut(context.channel.allocator.buffer(bytes: bytes)))
            }
        }
    }

    /// Follows `bytes`; `nil` when they go on as they came, or else what goes on instead.
    private func scan(_ bytes: UnsafeRawBufferPointer) -> [Piece]? {
        var plan: [Piece]?
        var forwarded = 0  // where the part of `bytes` not yet in `plan` starts, once there is a plan
        var index = 0
        while index < bytes.count {
            switch state {
            case .passing:
                index = bytes.count
            case .body(let left):
                let count = min(left, bytes.count - index)
                index += count
                state = left == count ? .requestLine : .body(left - count)
            case .chunk(let left):
                let count = min(left, bytes.count - index)
                index += count
                state = left == count ? .chunkEnd(seen: 0, last: false) : .chunk(left - count)
            case .chunkEnd(let seen, let last):
                guard bytes[index] == (seen == 0 ? 13 : 10) else {
                    state = .passing
                    break
                }
                index += 1
                state = seen == 0 ? .chunkEnd(seen: 1, last: last) : last ? .requestLine : .chunkSize
            case .headers, .chunkSize:
                // These lines go on as they are; only what they say is read.
                guard let end = Self.lineEnd(in: bytes, from: index) else {
                    line.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index...]))
                    if line.count > limit { state = .passing }
                    index = bytes.count
                    break
                }
                if line.isEmpty {
                    readLine(UnsafeRawBufferPointer(rebasing: bytes[index..<end]))
                } else {
                    line.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<end]))
                    line.withUnsafeBytes { readLine($0) }
                    line.removeAll(keepingCapacity: true)
                }
                index = end
            case .requestLine:
                // Held until it ends, then passed on as it is or rewritten.
                let start = index
                guard let end = Self.lineEnd(in: bytes, from: index) else {
                    if plan == nil { plan = [] }
                    plan!.append(.range(forwarded..<start))
                    line.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start...]))
                    forwarded = bytes.count
                    index = bytes.count
                    if line.count > limit {
                        plan!.append(.bytes(line))
                        line.removeAll()
                        state = .passing
                    }
                    break
                }
                let replacement: [UInt8]?
                if line.isEmpty {
                    replacement = requestLine(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                } else {
                    line.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                    replacement = line.withUnsafeBytes { requestLine($0) } ?? line
                    line.removeAll(keepingCapacity: true)
                }
                if let replacement {
                    if plan == nil { plan = [] }
                    plan!.append(.range(forwarded..<start))
                    plan!.append(.bytes(replacement))
                    forwarded = end
                }
                index = end
            }
        }
        if plan != nil, forwarded < bytes.count { plan!.append(.range(forwarded..<bytes.count)) }
        return plan
    }

    /// Reads a whole request line (CRLF included) and starts its header section; returns what goes on instead of
    /// it when its method is handed over in the header, `nil` when it goes on as it is.
    private func requestLine(_ text: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let (space, second) = Self.requestLineSpaces(text) else {
            state = .passing
            return nil
        }
        let method = UnsafeRawBufferPointer(rebasing: text[..<space])
        isConnect = Self.equal(method, "CONNECT")
        isHTTP10 = text[second + 8] == UInt8(ascii: "0")
        headBytes = text.count
        contentLength = 0
        lengths = 0
        chunked = false
        encodings = 0
        upgrades = false
        state = .headers
        if isConnect || Self.isPlain(method) { return nil }
        var rewritten = Array("POST".utf8)
        rewritten.reserveCapacity(text.count + headerName.utf8.count + method.count + 8)
        rewritten.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[space...]))
        rewritten.append(contentsOf: headerName.utf8)
        rewritten.append(contentsOf: ": ".utf8)
        rewritten.append(contentsOf: method)
        rewritten.append(contentsOf: "\r\n".utf8)
        return rewritten
    }

    /// Reads a whole header or chunk-size line, CRLF included.
    private func readLine(_ text: UnsafeRawBufferPointer) {
        guard text.count >= 2, text[text.count - 2] == 13 else {
            state = .passing
            return
        }
        if case .chunkSize = state {
            readChunkSize(UnsafeRawBufferPointer(rebasing: text[..<(text.count - 2)]))
            return
        }
        headBytes += text.count
        if text.count == 2 {
            endOfHead()
            return
        }
        // A folded line continues the one before, which may have framed the body.
        if headBytes > limit || text[0] == 32 || text[0] == 9 {
            state = .passing
            return
        }
        guard let colon = text.firstIndex(of: UInt8(ascii: ":")) else {
            state = .passing
            return
        }
        let name = UnsafeRawBufferPointer(rebasing: text[..<colon])
        switch name.count {
        case 14 where Self.equalIgnoringCase(name, "content-length"):
            lengths += 1
            let value = Self.trimmed(UnsafeRawBufferPointer(rebasing: text[(colon + 1)..<(text.count - 2)]))
            guard value.count > 0, value.count <= 18, value.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
                state = .passing
                return
            }
            contentLength = value.reduce(0) { $0 * 10 + Int($1 - 48) }
        case 17 where Self.equalIgnoringCase(name, "transfer-encoding"):
            encodings += 1
            chunked = Self.equalIgnoringCase(Self.trimmed(UnsafeRawBufferPointer(rebasing: text[(colon + 1)..<(text.count - 2)])), "chunked")
        case 7 where Self.equalIgnoringCase(name, "upgrade"):
            upgrades = true
        default:
            break
        }
    }

    private func endOfHead() {
        if upgrades || isConnect || lengths > 1 || encodings > 1 || (encodings == 1 && (lengths > 0 || !chunked || isHTTP10)) {
            state = .passing
        } else if chunked {
            state = .chunkSize
        } else if contentLength > 0 {
            state = .body(contentLength)
        } else {
            state = .requestLine
        }
    }

    /// A chunk size: hexadecimal digits only (no extension), at most 15.
    private func readChunkSize(_ digits: UnsafeRawBufferPointer) {
        guard digits.count > 0, digits.count <= 15 else {
            state = .passing
            return
        }
        var size = 0
        for digit in digits {
            switch digit {
            case 48...57: size = size * 16 + Int(digit - 48)
            case 65...70: size = size * 16 + Int(digit - 55)
            case 97...102: size = size * 16 + Int(digit - 87)
            default:
                state = .passing
                return
            }
        }
        state = size == 0 ? .chunkEnd(seen: 0, last: true) : .chunk(size)
    }

    /// The index after the first LF in `bytes[index...]`, or `nil`.
    private static func lineEnd(in bytes: UnsafeRawBufferPointer, from index: Int) -> Int? {
        guard let base = bytes.baseAddress, index < bytes.count,
              let found = memchr(base + index, 10, bytes.count - index) else { return nil }
        return base.distance(to: UnsafeRawPointer(found)) + 1
    }

    /// `METHOD SP target SP HTTP/1.x CRLF`: the indexes of its two spaces, or `nil` when it is not that.
    private static func requestLineSpaces(_ text: UnsafeRawBufferPointer) -> (Int, Int)? {
        let count = text.count
        guard count >= 14, text[count - 2] == 13,
              let space = text.firstIndex(of: 32), space > 0, space <= 32,
              text[..<space].allSatisfy(isTokenByte) else { return nil }
        let second = count - 11
        guard second > space + 1, text[second] == 32,
              text[(space + 1)..<second].allSatisfy({ $0 > 32 && $0 < 127 }),
              equal(UnsafeRawBufferPointer(rebasing: text[(second + 1)..<(count - 3)]), "HTTP/1."),
              text[count - 3] == UInt8(ascii: "1") || text[count - 3] == UInt8(ascii: "0") else { return nil }
        return (space, second)
    }

    /// The methods handed on as they are: the common ones, which the parser knows.
    private static func isPlain(_ method: UnsafeRawBufferPointer) -> Bool {
        switch method.count {
        case 3: equal(method, "GET") || equal(method, "PUT")
        case 4: equal(method, "POST") || equal(method, "HEAD")
        case 5: equal(method, "PATCH") || equal(method, "TRACE")
        case 6: equal(method, "DELETE")
        case 7: equal(method, "OPTIONS")
        default: false
        }
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

    private static func trimmed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = 0, end = bytes.count
        while start < end, bytes[start] == 32 || bytes[start] == 9 { start += 1 }
        while end > start, bytes[end - 1] == 32 || bytes[end - 1] == 9 { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }

    private static func equal(_ bytes: UnsafeRawBufferPointer, _ text: StaticString) -> Bool {
        bytes.count == text.utf8CodeUnitCount && memcmp(bytes.baseAddress!, text.utf8Start, bytes.count) == 0
    }

    /// Whether `bytes` are `text` (lower-case letters and `-`) in any case.
    private static func equalIgnoringCase(_ bytes: UnsafeRawBufferPointer, _ text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount else { return false }
        let expected = UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        for index in 0..<bytes.count {
            let byte = bytes[index]
            // Only a letter folds: `-` stays `-`.
            let folded = (65...90).contains(byte) ? byte | 0x20 : byte
            if folded != expected[index] { return false }
        }
        return true
    }
}
#endif
