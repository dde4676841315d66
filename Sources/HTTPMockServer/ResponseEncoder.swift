#if Server
import NIOCore
import NIOHTTP1

/// Turns the response parts of one connection into bytes, in place of NIO's `HTTPResponseEncoder` and with its
/// framing: a status that has no body (1xx, 204, 304) loses `Content-Length` and `Transfer-Encoding`; a
/// `Content-Length` drops `Transfer-Encoding`; without either, an HTTP/1.1 response is sent chunked
/// (`transfer-encoding: chunked` added) and an HTTP/1.0 one is delimited by the connection's close.
///
/// What it adds: a head the connection sends again (``ResponseCache`` hands out the same head while a stub answers
/// alike) goes out as the bytes it was encoded to the first time, tagged by the connection with ``nextHead``.
final class ResponseEncoder: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = IOData

    /// Set by the connection just before it writes a head: the identity ``ResponseCache`` gave it, so the same head
    /// is encoded once, and the body to send in the same write (the connection then writes no body part; a
    /// chunked head takes none). `nil` (the default, and after every head) encodes the head without keeping it.
    var nextHead: (identity: Int, body: ByteBuffer?)?
    /// The last tagged head, encoded (with its body when it was given one), and whether its body is chunked.
    private var kept: (identity: Int, joined: Bool, bytes: ByteBuffer, chunked: Bool)?
    /// Bodies up to this size are sent in one write with their head.
    static let largestJoinedBody = 16 * 1024
    /// Whether the body parts of the response being sent are framed as chunks.
    private var chunked = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            let tag = nextHead
            nextHead = nil
            if let tag, let kept, kept.identity == tag.identity, kept.joined == (tag.body != nil) {
                chunked = kept.chunked
                context.write(wrapOutboundOut(.byteBuffer(kept.bytes)), promise: promise)
                return
            }
            var (bytes, isChunked) = Self.encode(head, allocator: context.channel.allocator)
            chunked = isChunked
            if isChunked, let body = tag?.body {
                // Not sent by the connection (a chunked body is framed per part), but framed right if it were.
                context.write(wrapOutboundOut(.byteBuffer(bytes)), promise: nil)
                writeBody(.byteBuffer(body), promise: promise, context: context)
                return
            }
            if var body = tag?.body { bytes.writeBuffer(&body) }
            if let tag { kept = (tag.identity, tag.body != nil, bytes, isChunked) }
            context.write(wrapOutboundOut(.byteBuffer(bytes)), promise: promise)
        case .body(let part):
            writeBody(part, promise: promise, context: context)
        case .end(let trailers):
            if chunked {
                var last = context.channel.allocator.buffer(capacity: 8)
                last.writeStaticString("0\r\n")
                if let trailers { Self.write(trailers, to: &last) } else { last.writeStaticString("\r\n") }
                chunked = false
                context.write(wrapOutboundOut(.byteBuffer(last)), promise: promise)
            } else if let promise {
                // Nothing to send, but the promise completes once what came before is written.
                context.write(wrapOutboundOut(.byteBuffer(context.channel.allocator.buffer(capacity: 0))), promise: promise)
            }
        }
    }

    /// A body part, as a chunk when the head said so.
    private func writeBody(_ part: IOData, promise: EventLoopPromise<Void>?, context: ChannelHandlerContext) {
        let size = part.readableBytes
        guard chunked, size > 0 else {
            context.write(wrapOutboundOut(part), promise: promise)
            return
        }
        var frame = context.channel.allocator.buffer(capacity: 24)
        frame.writeString(String(size, radix: 16))
        frame.writeStaticString("\r\n")
        var close = frame
        close.moveReaderIndex(forwardBy: close.readableBytes - 2)
        context.write(wrapOutboundOut(.byteBuffer(frame)), promise: nil)
        context.write(wrapOutboundOut(part), promise: nil)
        context.write(wrapOutboundOut(.byteBuffer(close)), promise: promise)
    }

    /// The status line and header section of `head`, framed, and whether its body is to be chunked.
    static func encode(_ head: HTTPResponseHead, allocator: ByteBufferAllocator) -> (ByteBuffer, chunked: Bool) {
        var headers = head.headers
        let code = head.status.code
        let hasBody = head.status.mayHaveResponseBody
        var chunked = false
        if !hasBody {
            headers.remove(name: "content-length")
            headers.remove(name: "transfer-encoding")
        } else if headers.contains(name: "content-length") {
            headers.remove(name: "transfer-encoding")
        } else if head.version.major == 1 && head.version.minor >= 1 {
            headers.replaceOrAdd(name: "transfer-encoding", value: "chunked")
            chunked = true
        }
        var buffer = allocator.buffer(capacity: 256)
        buffer.writeStaticString("HTTP/")
        buffer.writeString(String(head.version.major))
        buffer.writeStaticString(".")
        buffer.writeString(String(head.version.minor))
        buffer.writeStaticString(" ")
        buffer.writeString(String(code))
        buffer.writeStaticString(" ")
        buffer.writeString(head.status.reasonPhrase)
        buffer.writeStaticString("\r\n")
        write(headers, to: &buffer)
        return (buffer, chunked)
    }

    /// `name: value` lines, then the empty line that ends the section.
    private static func write(_ headers: HTTPHeaders, to buffer: inout ByteBuffer) {
        for (name, value) in headers {
            buffer.writeString(name)
            buffer.writeStaticString(": ")
            buffer.writeString(value)
            buffer.writeStaticString("\r\n")
        }
        buffer.writeStaticString("\r\n")
    }
}
#endif
