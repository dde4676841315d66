#if Server
import Foundation
import HTTPMock
import NIOCore
import NIOHTTP1
import NIOPosix

// A network fault as the socket would show it to the client: silence, a reset, a malformed body, a close.
extension ConnectionHandler {
    /// Fails the request as the network would, over the socket (see the HTTPMockServer article's table).
    func fail(with error: any Error & Sendable, version: HTTPVersion, context: ChannelHandlerContext) {
        guard let code = (error as? URLError)?.code else {
            // Not a network failure (an unmocked policy's error): say it in a response, which is all another
            // process can be told.
            complete(.failure(error))
            sendPlain(.internalServerError, "HTTPMock: the request failed: \(error)\n", context: context,
                      extraHeaders: [("X-HTTPMock", "failure")])
            return
        }
        if let fault = WireFault(error) {
            complete(.failure(error))
            switch fault {
            case .emptyResponse: context.close(promise: nil)
            case .malformedChunk where !keepAlive:
                // A client that asked to close gets a body that ends with the connection, as WireMock's server
                // frames it then: the garbage is that body.
                sendRaw(Array("HTTP/\(version.major).\(version.minor) 200 OK\r\nConnection: close\r\n\r\nzz\r\nnot a chunk\r\n".utf8),
                        context: context)
            case .malformedChunk: sendMalformedChunk(version: version, context: context)
            case .randomData: sendRaw(Self.randomBytes(), context: context)
            }
            return
        }
        switch code {
        case .timedOut:
            // The server never answers: the client's own timeout fires.
            silentFailure = error
        case .networkConnectionLost:
            complete(.failure(error))
            reset(context: context)
        case .badServerResponse, .cannotParseResponse:
            complete(.failure(error))
            sendMalformedChunk(version: version, context: context)
        default:
            // Refused connections, DNS, TLS and offline cannot happen on an accepted loopback connection: the
            // nearest is a connection closed before any byte of a response.
            complete(.failure(error))
            context.close(promise: nil)
        }
    }

    /// Closes with a TCP reset (RST) instead of an orderly close: the client sees "connection reset by peer".
    private func reset(context: ChannelHandlerContext) {
        guard let socket = context.channel as? any SocketOptionProvider else {
            context.close(promise: nil)
            return
        }
        socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    /// A chunked response whose first chunk-size line is not hexadecimal, then the connection closes: the client
    /// fails to parse the body.
    private func sendMalformedChunk(version: HTTPVersion, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Transfer-Encoding", value: "chunked")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: .ok, headers: headers))),
                      promise: nil)
        // Past the response encoder, which would frame the bytes as a valid chunk.
        context.flush()
        sendRaw(Array("zz\r\nnot a chunk\r\n".utf8), context: context)
    }

    /// Writes `bytes` as they are, past the response encoder, then closes the connection in order.
    private func sendRaw(_ bytes: [UInt8], context: ChannelHandlerContext) {
        guard let encoder = try? context.pipeline.syncOperations.context(handlerType: ResponseEncoder.self) else {
            context.close(promise: nil)
            return
        }
        encoder.writeAndFlush(NIOAny(ByteBuffer(bytes: bytes)))
            .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    /// 32 random bytes that cannot begin a status line (the first is never `H`) nor hold a line break, so no client
    /// reads them as a response.
    static func randomBytes() -> [UInt8] {
        var bytes = (0..<32).map { _ in UInt8.random(in: 0x21...0x7E) }
        if bytes[0] == UInt8(ascii: "H") { bytes[0] = UInt8(ascii: "#") }
        return bytes
    }
}
#endif
