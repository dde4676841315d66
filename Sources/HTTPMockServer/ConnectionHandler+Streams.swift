#if Server
import Foundation
import HTTPMock
import NIOCore
import NIOHTTP1

/// A streamed body's run on a connection: its playback and the journal entry it reports to.
struct ServerStream {
    let playback: StreamPlayback
    let entry: Int?
    /// The message channel of an event stream kept open (``MockResponse/eventChannel(_:status:lifetime:headers:)``).
    var channel: UUID?
    /// An event was asked for and comes back through the loop: nothing more is asked for until it has been
    /// written, so a part that waited for its time is never overtaken by the next one (the channel can turn
    /// writable meanwhile).
    var awaiting = false
}

// A streamed body (`MockResponse.events`, `.chunks`, `.stream`): the head goes out with chunked transfer encoding
// (HTTP/1.0: a body read until the connection closes), then each part as one chunk, written and flushed when it is
// due, then the chunked body's end; a fault closes the connection without it. The next part is asked for only
// while the channel is writable, so a client that reads slowly holds the stream back instead of growing the
// server's memory.
extension ConnectionHandler {
    func sendStream(_ response: WireResponse, version: HTTPVersion, isHead: Bool, context: ChannelHandlerContext) {
        guard let playback = response.playback() else { return }
        let entry = self.entry
        self.entry = nil  // the stream completes it
        let chunked = version.major == 1 && version.minor >= 1
        // HTTP/1.0 reads the body until the connection closes; a HEAD's head says chunked but no chunk may follow,
        // not even the last one, so its connection closes too.
        if !chunked || isHead { keepAlive = false }
        var (headers, _, _) = ResponseCache.fields(of: response.headers, lines: response.headerLines)
        let hasBody = !(100...199).contains(response.status) && response.status != 204 && response.status != 304
        if chunked && hasBody { headers.add(name: "Transfer-Encoding", value: "chunked") }
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        encoder.nextHead = nil
        // Dated before the head is flushed, as each part is journaled before its flush: no client can have read a
        // byte before the date the journal gives it.
        if let entry {
            settings.mock.beginStream(entry, status: response.status, headers: response.headers, at: playback.relayedAt)
        }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: response.statusLine,
                                                            headers: headers))), promise: nil)
        context.flush()
        stream = ServerStream(playback: playback, entry: entry)
        if let request = channelRequest {
            channelRequest = nil
            stream?.channel = settings.mock.messaging.openEventChannel(playback, request: request)
        }
        guard hasBody, !isHead else {
            if isHead && hasBody {
                stream = nil
                playback.cancel()
                if let entry { settings.mock.endStream(entry, .finished) }
                context.close(promise: nil)
            } else {
                endStream(.finished, context: context)
            }
            return
        }
        pumpStream(context: context)
    }

    /// Writes the parts that are due while the channel takes them; asks for the next one to come back on the loop.
    ///
    /// Parts reach the journal before they are flushed: a flush can make the channel writable at once, and
    /// `channelWritabilityChanged` then writes (and journals) the next parts before the flush returns, so parts
    /// journaled after it would be kept out of the order they went out in.
    func pumpStream(context: ChannelHandlerContext) {
        guard isOpen, let current = stream, !current.awaiting else { return }
        let loop = context.eventLoop
        let bound = NIOLoopBound((self, context), eventLoop: loop)
        var sent: [Data] = []
        defer {
            journal(sent, of: current)
            if !sent.isEmpty { context.flush() }
        }
        while context.channel.isWritable {
            guard let event = current.playback.next(whenDue: { event in
                loop.execute {
                    let (handler, context) = bound.value
                    handler.streamEventCame(event, context: context)
                }
            }) else {
                // Due later (or stalled): it comes back through the handler.
                stream?.awaiting = true
                return
            }
            switch event {
            case .part(let data):
                guard !data.isEmpty else { continue }
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(data: data)))), promise: nil)
                sent.append(data)
                if sent.count == 256 {
                    journal(sent, of: current)
                    sent.removeAll(keepingCapacity: true)
                    context.flush()
                }
            case .end:
                journal(sent, of: current)
                if !sent.isEmpty { context.flush() }
                sent = []
                endStream(.finished, context: context)
                return
            case .failure(let error):
                journal(sent, of: current)
                if !sent.isEmpty { context.flush() }
                sent = []
                endStream(.failed(error), context: context)
                return
            }
        }
        // Not writable: `channelWritabilityChanged` resumes the stream once the client has read.
    }

    /// A part (or the end) came due while the loop waited.
    private func streamEventCame(_ event: StreamEvent, context: ChannelHandlerContext) {
        guard isOpen, let current = stream else { return }
        stream?.awaiting = false
        switch event {
        case .part(let data):
            journal([data], of: current)
            if !data.isEmpty {
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(data: data)))), promise: nil)
            }
            pumpStream(context: context)
        case .end:
            endStream(.finished, context: context)
        case .failure(let error):
            endStream(.failed(error), context: context)
        }
    }

    private func journal(_ parts: [Data], of stream: ServerStream) {
        guard !parts.isEmpty else { return }
        if let entry = stream.entry { settings.mock.streamed(entry, parts: parts, at: stream.playback.arrivals(parts.count)) }
        stream.playback.delivered(parts.count)
    }

    /// Ends the stream: the end of the chunked body (then the next request, or the close), or, after a fault, the
    /// connection closed without it, as a server that dies mid-body.
    private func endStream(_ ending: StreamRecord.Ending, context: ChannelHandlerContext) {
        guard let current = stream else { return }
        stream = nil
        current.playback.cancel()
        if let channel = current.channel { settings.mock.messaging.closeChannel(channel) }
        if let entry = current.entry { settings.mock.endStream(entry, ending) }
        if case .failed = ending {
            keepAlive = false
            // The parts before the fault reach the client first: a close would drop the writes still waiting for
            // the socket. An empty part goes out as nothing, after them, and says when they are written.
            let written = context.eventLoop.makePromise(of: Void.self)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer()))), promise: written)
            written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            return
        }
        let keepAlive = self.keepAlive
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { result in
            self.responding = false
            if case .failure = result { return }
            if keepAlive { self.awaitHead(context: context) } else { context.close(promise: nil) }
        }
    }

    /// The client went away mid-stream: the playback is freed and the journal says so.
    func abandonStream() {
        guard let current = stream else { return }
        stream = nil
        current.playback.cancel()
        if let channel = current.channel { settings.mock.messaging.closeChannel(channel) }
        if let entry = current.entry { settings.mock.endStream(entry, .clientWentAway) }
    }
}
#endif
