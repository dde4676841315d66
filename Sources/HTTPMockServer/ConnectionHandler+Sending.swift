#if Server
import Foundation
import HTTPMock
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOPosix

// Status line, headers and body: at once, trickled at a throttled speed, or streamed from a file; and the
// server's own plain responses.
extension ConnectionHandler {
    /// Sends `response` after its own delay and the admin API's `fixedDelay`.
    func respond(with response: WireResponse, version: HTTPVersion, isHead: Bool, context: ChannelHandlerContext) {
        let delay = response.headerDelay + Double(settings.state.fixedDelayMilliseconds) / 1000
        guard delay > 0 else {
            send(response, version: version, isHead: isHead, context: context)
            return
        }
        pending = context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(delay)) {
            self.send(response, version: version, isHead: isHead, context: context)
        }
    }

    /// Status line, headers and body as the stub gave them: no redirect followed, no cookie stored. A body file is
    /// opened and checked first (see ``BodyFile``), on NIO's thread pool; `file` is it, opened.
    private func send(_ response: WireResponse, version: HTTPVersion, isHead: Bool, context: ChannelHandlerContext,
                      file: BodyFile? = nil) {
        guard isOpen else { return }
        // A stub that answers `Connection: close` closes the connection after its response, as WireMock's does.
        if keepAlive, response.headers.contains(where: { $0.key.utf8.count == 10 && $0.key.lowercased() == "connection" && $0.value.lowercased().contains("close") }) {
            keepAlive = false
        }
        if case .file(let url, _) = response.body, file == nil {
            NIOThreadPool.singleton.runIfActive(eventLoop: context.eventLoop) { try BodyFile.open(url) }
                .assumeIsolated().whenComplete { result in
                    guard self.isOpen else { return }
                    switch result {
                    case .success(let opened):
                        self.send(response, version: version, isHead: isHead, context: context, file: opened)
                    case .failure(let error):
                        let message = (error as? BodyFile.Refusal)?.message ?? "the body file \(url.path) cannot be served: \(error)"
                        self.sendPlain(.internalServerError, "HTTPMock: \(message)\n", context: context, journal: true)
                    }
                }
            return
        }
        if case .stream = response.body {
            sendStream(response, version: version, isHead: isHead, context: context)
            return
        }
        if case .webSocket(let conversation) = response.body {
            upgrade(to: conversation, version: version, context: context)
            return
        }
        let size = file?.size ?? response.bodySize
        let hasBody = !(100...199).contains(response.status) && response.status != 204 && response.status != 304
        if let cut = response.truncation, cut < size {
            sendTruncated(response, at: cut, size: size, file: file, version: version, isHead: isHead, context: context)
            return
        }
        // A HEAD answer sends the stub's own Content-Length when it gives one, as WireMock does (no body follows to
        // contradict it); every other answer the size of the body it sends.
        let advertised = isHead ? ResponseCache.promisedLength(in: response.headers) ?? size : size
        let head = lastResponse.head(of: response, size: advertised, version: version, keepAlive: keepAlive)
        // Without chunks a response's last bytes are its head's or its body's: the promise of that write says when
        // the response is out, and its end writes nothing.
        let sent = lastResponse.isChunked ? nil : context.eventLoop.makePromise(of: Void.self)
        guard hasBody, !isHead, size > 0 else {
            write(head, joining: nil, promise: sent, context: context)
            finish(Self.journaled(response, body: Data()), sent: sent, context: context)
            return
        }
        switch response.body {
        case .data(let data):
            if let speed = response.bytesPerSecond {
                // The body follows on timers: the end's own write says when the response is out.
                write(head, joining: nil, promise: sent, context: context)
                trickle(data, from: 0, bytesPerSecond: speed, context: context) {
                    self.finish(Self.journaled(response, body: data), context: context)
                }
                return
            }
            let buffer = lastResponse.buffer(of: data)
            if sent != nil, size <= ResponseEncoder.largestJoinedBody {
                write(head, joining: buffer, promise: sent, context: context)
            } else {
                write(head, joining: nil, promise: nil, context: context)
                context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: sent)
            }
            finish(Self.journaled(response, body: data), sent: sent, context: context)
        case .stream, .webSocket:
            return  // sent by sendStream and upgrade, above
        case .file(let url, _):
            guard let file else { return }  // opened above
            write(head, joining: nil, promise: sent, context: context)
            if let speed = response.bytesPerSecond, let data = try? file.handle.read(upToCount: size) ?? Data(), data.count == size {
                trickle(data, from: 0, bytesPerSecond: speed, context: context) { self.finish(Self.journaled(response, body: data), context: context) }
            } else {
                stream(file, context: context) {
                    // The journal keeps the file mapped, not read.
                    self.finish(Self.journaled(response, body: (try? Data(contentsOf: url, options: .alwaysMapped)) ?? Data()), context: context)
                }
            }
        }
    }

    /// Writes `head`, with `body` in the same write when given (see ``ResponseEncoder/nextHead``).
    private func write(_ head: HTTPResponseHead, joining body: ByteBuffer?, promise: EventLoopPromise<Void>?,
                       context: ChannelHandlerContext) {
        encoder.nextHead = (lastResponse.identity, body)
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }

    /// What the journal records of `response` once `body` went out.
    private static func journaled(_ response: WireResponse, body: Data) -> JournalEntry.Outcome {
        .response(status: response.status, headers: response.headers, body: body)
    }

    /// ``NetworkFault/truncatedBody(_:after:)``: the head promises the whole body, `cut` bytes of it go out, then
    /// the connection closes, as a real server that dies mid-body.
    private func sendTruncated(_ response: WireResponse, at cut: Int, size: Int, file: BodyFile?, version: HTTPVersion,
                               isHead: Bool, context: ChannelHandlerContext) {
        var (headers, _, promised) = ResponseCache.fields(of: response.headers, lines: response.headerLines)
        headers.add(name: "Content-Length", value: promised ?? String(size))  // the length promised, not sent
        let status = response.statusLine
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))),
                      promise: nil)
        var sent = Data()
        if !isHead, case .data(let data) = response.body {
            sent = data.prefix(cut)
        } else if !isHead, let file, let data = try? file.handle.read(upToCount: cut) {
            sent = data
        }
        complete(.failure(URLError(.networkConnectionLost)))
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(data: sent)))))
            .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    /// Completes the journal entry, then ends the response; the connection then closes or waits for the next
    /// request. The entry is completed first, so a client that has the whole response finds it completed in the
    /// journal.
    ///
    /// The end is what lets NIO's `HTTPServerPipelineHandler` hand over the next pipelined request, and it reads
    /// nothing more from the connection until then. While the bytes queued on the connection stay under its high
    /// water mark (NIO's default, 64 KiB), the end is written at once, in the same flush. Past it (a large body,
    /// or a client that reads nothing while small responses pile up), the end waits until what came before it has
    /// left for the socket (`sent` completes, or an empty part written after it), so a connection queues 64 KiB
    /// and one response at most, however many requests a client pipelines without reading.
    private func finish(_ outcome: JournalEntry.Outcome, sent: EventLoopPromise<Void>? = nil,
                        context: ChannelHandlerContext) {
        guard isOpen else { return }
        complete(outcome)
        guard !context.channel.isWritable else {
            end(context: context)
            return
        }
        let drained: EventLoopFuture<Void>
        if let sent {
            context.flush()
            drained = sent.futureResult
        } else {
            drained = context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer()))))
        }
        drained.assumeIsolated().whenComplete { result in
            guard case .success = result, self.isOpen else {
                self.responding = false
                return
            }
            self.end(context: context)
        }
    }

    /// Writes the end of the response being sent, flushed even when it is no byte: a server that is stopping
    /// closes the connection once that write completes (see ``ServerLifecycle/stop(gracePeriod:)``). Whatever is
    /// needed for the next request is set first: writing the end may hand it over at once.
    private func end(context: ChannelHandlerContext) {
        let keepAlive = self.keepAlive
        responding = false
        guard keepAlive else {
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            return
        }
        awaitHead(context: context)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    /// Sends `data` at `bytesPerSecond`, in twenty slices a second, on timers.
    private func trickle(_ data: Data, from offset: Int, bytesPerSecond: Int, context: ChannelHandlerContext,
                         then done: @escaping () -> Void) {
        guard isOpen else { return }
        guard offset < data.count else { return done() }
        let slice = max(1, bytesPerSecond / 20)
        let end = min(data.count, offset + slice)
        let start = data.startIndex + offset
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(data: data[start..<(data.startIndex + end)])))),
                              promise: nil)
        let wait = Double(end - offset) / Double(bytesPerSecond)
        pending = context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(wait)) {
            self.trickle(data, from: end, bytesPerSecond: bytesPerSecond, context: context, then: done)
        }
    }

    /// Sends a file in 64 KiB chunks read on NIO's thread pool, each after the one before was written: a large
    /// file is never held whole, and a slow client slows the reading. Exactly the size the head promised goes
    /// out: a file cut short while it is sent drops the connection, so the client sees a body shorter than
    /// promised, never a complete response.
    private func stream(_ file: BodyFile, context: ChannelHandlerContext, then done: @escaping () -> Void) {
        streamChunk(of: file, remaining: file.size, context: context, then: done)
    }

    private func streamChunk(of file: BodyFile, remaining: Int, context: ChannelHandlerContext,
                             then done: @escaping () -> Void) {
        guard isOpen else { return }
        guard remaining > 0 else { return done() }
        let handle = file.handle
        NIOThreadPool.singleton.runIfActive(eventLoop: context.eventLoop) { try handle.read(upToCount: min(remaining, 64 * 1024)) ?? Data() }
            .assumeIsolated().whenComplete { result in
                switch result {
                case .success(let chunk) where !chunk.isEmpty:
                    context.writeAndFlush(self.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(data: chunk)))))
                        .assumeIsolated().whenComplete { written in
                            guard case .success = written else { return }
                            self.streamChunk(of: file, remaining: remaining - chunk.count, context: context, then: done)
                        }
                case .success:
                    self.abort(with: BodyFile.Refusal(message: "the body file \(file.path) was cut short while it was sent (\(file.size - remaining) of the \(file.size) bytes promised)"),
                               context: context)
                case .failure(let error):
                    self.abort(with: error, context: context)
                }
            }
    }

    /// The headers are out and the body cannot be read: drop the connection, as a server whose disk failed would.
    private func abort(with error: any Error, context: ChannelHandlerContext) {
        complete(.failure(URLError(.cannotOpenFile, userInfo: [
            NSLocalizedDescriptionKey: (error as? BodyFile.Refusal).map { "HTTPMock: \($0.message)" } ?? "HTTPMock: the response file could not be read: \(error.localizedDescription)",
        ])))
        context.close(promise: nil)
    }

    /// A text response from the server itself; journaled only when `journal` (the request was decided).
    func sendPlain(_ status: HTTPResponseStatus, _ text: String, context: ChannelHandlerContext,
                   journal: Bool = false, extraHeaders: [(String, String)] = []) {
        sendPlain(status, Data(text.utf8), contentType: "text/plain; charset=utf-8", context: context,
                  journal: journal, extraHeaders: extraHeaders)
    }

    /// A response from the server itself; `afterSent` runs once it is flushed. Marked `Connection: close` when the
    /// connection is not kept alive, and then closed once written.
    func sendPlain(_ status: HTTPResponseStatus, _ data: Data, contentType: String?, context: ChannelHandlerContext,
                   journal: Bool = false, extraHeaders: [(String, String)] = [], afterSent: (() -> Void)? = nil) {
        responding = true
        let body = ByteBuffer(data: data)
        var headers = HTTPHeaders()
        if let contentType { headers.add(name: "Content-Type", value: contentType) }
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        for (name, value) in extraHeaders { headers.add(name: name, value: value) }
        if !keepAlive {
            headers.add(name: "Connection", value: "close")
            closing = true
        }
        if journal {
            var journaled: [String: String] = [:]
            if let contentType { journaled["Content-Type"] = contentType }
            for (name, value) in extraHeaders { journaled[name] = value }
            complete(.response(status: Int(status.code), headers: journaled, body: data))
        }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
                      promise: nil)
        if body.readableBytes > 0 { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        let keepAlive = self.keepAlive
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            self.responding = false
            if keepAlive {
                self.awaitHead(context: context)
            } else {
                self.closeAfterResponse(context: context)
            }
            afterSent?()
        }
    }

    /// The most a closing connection reads and drops after its response (a refused body's rest, requests
    /// pipelined after it) before it is cut off.
    static let lingerBytes = 1 << 20
    /// The longest a closing connection waits for its client to read the response and close.
    static let lingerSeconds: TimeInterval = 2

    /// Closes the connection after a response marked `Connection: close`, as a lingering close: the output is shut
    /// at once (the client reads the response, then the end of the stream), what still arrives is dropped, and the
    /// connection closes when the client closes its side, past ``lingerBytes`` dropped, or after ``lingerSeconds``.
    /// Closing outright while the client still sends would reset the connection, and a reset can take the response
    /// with it before the client reads it.
    func closeAfterResponse(context: ChannelHandlerContext) {
        guard isOpen, !lingering else { return }
        lingering = true
        stopHeadTimer()
        readingBody = false
        guard !refusing || dropped <= Self.lingerBytes else {
            context.close(promise: nil)
            return
        }
        let shut = context.eventLoop.makePromise(of: Void.self)
        context.close(mode: .output, promise: shut)
        shut.futureResult.assumeIsolated().whenFailure { _ in context.close(promise: nil) }
        lingerTimer = context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(Self.lingerSeconds)) {
            context.close(promise: nil)
        }
    }
}
#endif
