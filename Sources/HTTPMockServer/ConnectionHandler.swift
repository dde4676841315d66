#if Server
import Foundation
import HTTPMock
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOPosix

/// Answers the requests of one connection from the mock's engine. Runs on the connection's event loop only.
///
/// NIO's `HTTPServerPipelineHandler` in front of it hands over one request at a time (a pipelined request waits
/// until the response before it has ended), so at most one request is in flight here.
final class ConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let settings: ConnectionSettings

    /// The request being read.
    private var head: HTTPRequestHead?
    private var body: ByteBuffer?
    /// A 413 went out for this request: the rest of its body is dropped, then the connection closes.
    private var refusing = false
    /// Whether the connection stays open after this response.
    private var keepAlive = true
    /// Between a request's end and its response's end.
    private var responding = false
    /// The journal entry of the request being answered, until it is completed.
    private var entry: Int?
    /// A fault that keeps the connection silent: the entry is completed with it when the client gives up.
    private var silentFailure: (any Error & Sendable)?
    /// Closes a connection that does not send a complete request head in time.
    private var headTimer: Scheduled<Void>?
    /// A delayed status line, or the next slice of a throttled body.
    private var pending: Scheduled<Void>?
    private var isOpen = true

    init(settings: ConnectionSettings) {
        self.settings = settings
    }

    // MARK: Events

    func channelActive(context: ChannelHandlerContext) {
        armHeadTimer(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        isOpen = false
        headTimer?.cancel()
        pending?.cancel()
        if let entry {
            self.entry = nil
            let failure = silentFailure ?? URLError(.cancelled, userInfo: [
                NSLocalizedDescriptionKey: "HTTPMock: the client closed the connection before the response was sent",
            ])
            settings.mock.complete(entry, with: .failure(failure))
        }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            headTimer?.cancel()
            headTimer = nil
            self.head = head
            body = nil
            refusing = false
            keepAlive = head.isKeepAlive
            let expectsContinue = head.headers[canonicalForm: "expect"].contains { $0.lowercased() == "100-continue" }
            if let length = head.headers.first(name: "content-length").flatMap(Int.init),
               length > settings.configuration.maximumBodyBytes {
                // A client waiting for 100 Continue sends no body: close once the 413 is out.
                refuseBody(context: context, closingNow: expectsContinue)
                return
            }
            if expectsContinue {
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))),
                                      promise: nil)
            }
        case .body(var chunk):
            guard !refusing else { return }
            if (body?.readableBytes ?? 0) + chunk.readableBytes > settings.configuration.maximumBodyBytes {
                body = nil
                refuseBody(context: context, closingNow: false)
                return
            }
            if body == nil { body = chunk } else { body!.writeBuffer(&chunk) }
        case .end:
            if refusing {
                context.close(promise: nil)
                return
            }
            guard let head else { return }
            self.head = nil
            serve(head, body: body, context: context)
            body = nil
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError, !responding else {
            context.close(promise: nil)
            return
        }
        headTimer?.cancel()
        keepAlive = false
        if case .headerOverflow = parserError {
            sendPlain(.init(statusCode: 431), "HTTPMock: the request's header section is larger than the server's maximumHeaderBytes (\(settings.configuration.maximumHeaderBytes))\n",
                      context: context)
        } else {
            sendPlain(.badRequest, "HTTPMock: the request is not valid HTTP/1.1 (\(parserError))\n", context: context)
        }
    }

    // MARK: Answering

    private func serve(_ head: HTTPRequestHead, body: ByteBuffer?, context: ChannelHandlerContext) {
        responding = true
        if settings.configuration.adminAPI, AdminAPI.handles(head.uri) {
            answerAdmin(head, body: body, context: context)
            return
        }
        guard let url = settings.url(uri: head.uri, hostHeader: head.headers.first(name: "host")) else {
            keepAlive = false
            sendPlain(.badRequest, "HTTPMock: the request target \(head.uri) is not a path\n", context: context)
            return
        }
        var headers = HeaderFields()
        for (name, value) in head.headers { headers.add(name, value) }
        let data = body.flatMap { $0.readableBytes > 0 ? Data(buffer: $0) : nil }
        let request = CapturedRequest(method: head.method.rawValue, url: url, headers: headers, body: data)
        let (answer, entry) = settings.mock.answer(request, as: .server)
        self.entry = entry
        let isHead = head.method == .HEAD
        switch answer {
        case .respond(let response):
            respond(with: response, version: head.version, isHead: isHead, context: context)
        case .fail(let error, let delay):
            guard delay > 0 else {
                fail(with: error, version: head.version, context: context)
                return
            }
            pending = context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(delay)) {
                self.fail(with: error, version: head.version, context: context)
            }
        case .passthrough:
            if let forwarder = settings.forwarder {
                forward(request, with: forwarder, version: head.version, isHead: isHead, context: context)
                return
            }
            let text = "HTTPMock: \(head.method.rawValue) \(url.absoluteString) was not answered: the mock's unmockedPolicy is .passthrough and the server has no proxy to forward it to (Configuration.proxy). Add a stub, set a proxy, or use .notFound.\n"
            sendPlain(.badGateway, text, context: context, journal: true)
        case .crash(let message):
            fatalError(message)
        }
    }

    /// Sends `response` after its own delay and the admin API's `fixedDelay`.
    private func respond(with response: WireResponse, version: HTTPVersion, isHead: Bool, context: ChannelHandlerContext) {
        let delay = response.headerDelay + Double(settings.state.fixedDelayMilliseconds) / 1000
        guard delay > 0 else {
            send(response, version: version, isHead: isHead, context: context)
            return
        }
        pending = context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(delay)) {
            self.send(response, version: version, isHead: isHead, context: context)
        }
    }

    /// Relays `request` to the configured proxy and its answer to the client; the journal entry completes with
    /// what the upstream sent (or the error that kept it from answering, with `502 Bad Gateway` to the client).
    private func forward(_ request: CapturedRequest, with forwarder: Forwarder, version: HTTPVersion, isHead: Bool,
                         context: ChannelHandlerContext) {
        let promise = context.eventLoop.makePromise(of: Forwarder.Reply.self)
        forwarder.forward(request) { promise.completeWith($0) }
        promise.futureResult.assumeIsolated().whenComplete { result in
            guard self.isOpen else { return }
            switch result {
            case .success(let reply):
                var headers: [String: String] = [:]
                for (name, value) in reply.headers {
                    headers[name] = headers[name].map { "\($0), \(value)" } ?? value
                }
                let response = WireResponse(status: reply.status, headers: headers, body: .data(reply.body), url: request.url)
                self.respond(with: response, version: version, isHead: isHead, context: context)
            case .failure(let error):
                self.complete(.failure(error))
                let text = "HTTPMock: \(request.method) \(request.url.absoluteString) could not be forwarded to the proxy \(forwarder.upstream.absoluteString): \(error.localizedDescription)\n"
                self.sendPlain(.badGateway, text, context: context)
            }
        }
    }

    /// Answers WireMock's admin API (``HTTPMockServer/Configuration/adminAPI``): nothing is matched or journaled.
    private func answerAdmin(_ head: HTTPRequestHead, body: ByteBuffer?, context: ChannelHandlerContext) {
        let data = body.flatMap { $0.readableBytes > 0 ? Data(buffer: $0) : nil }
        let request = AdminRequest(method: head.method.rawValue, target: head.uri, body: data)
        let reply = AdminAPI.answer(request, context: AdminContext(mock: settings.mock, state: settings.state))
        var then: (() -> Void)?
        if reply.then == .shutdown {
            keepAlive = false
            let lifecycle = settings.lifecycle
            then = { Task { await lifecycle.stop() } }
        }
        sendPlain(HTTPResponseStatus(statusCode: reply.status), reply.body,
                  contentType: reply.body.isEmpty ? nil : "application/json", context: context, afterSent: then)
    }

    /// Status line, headers and body as the stub gave them: no redirect followed, no cookie stored.
    private func send(_ response: WireResponse, version: HTTPVersion, isHead: Bool, context: ChannelHandlerContext) {
        guard isOpen else { return }
        let size: Int
        switch response.body {
        case .data(let data): size = data.count
        case .file(_, let fileSize): size = fileSize
        }
        let status = HTTPResponseStatus(statusCode: response.status)
        let hasBody = !(100...199).contains(response.status) && response.status != 204 && response.status != 304
        var headers = HTTPHeaders()
        var chunked = false
        var promised: String?
        for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) {
            switch name.lowercased() {
            case "transfer-encoding": chunked = chunked || value.lowercased().contains("chunked")
            case "content-length": promised = value
            case "connection": continue
            case "set-cookie":
                // One field per cookie, as servers send them (browsers do not split a joined one).
                for cookie in Self.cookies(in: value) { headers.add(name: name, value: cookie) }
            default: headers.add(name: name, value: value)
            }
        }
        if let cut = response.truncation, cut < size {
            headers.add(name: "Content-Length", value: promised ?? String(size))  // the length promised, not sent
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))),
                          promise: nil)
            var sent = Data()
            if !isHead, case .data(let data) = response.body {
                sent = data.prefix(cut)
            } else if !isHead, case .file(let url, _) = response.body,
                      let data = try? Data(contentsOf: url, options: .alwaysMapped) {
                sent = data.prefix(cut)
            }
            complete(.failure(URLError(.networkConnectionLost)))
            // A real server that dies mid-body: the bytes sent so far, then the connection closes.
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(data: sent)))))
                .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            return
        }
        if chunked && hasBody {
            headers.add(name: "Transfer-Encoding", value: "chunked")
        } else if hasBody || response.status == 304 {
            headers.add(name: "Content-Length", value: String(size))
        }
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))),
                      promise: nil)
        let journaled: @Sendable (Data) -> JournalEntry.Outcome = {
            .response(status: response.status, headers: response.headers, body: $0)
        }
        guard hasBody, !isHead, size > 0 else {
            finish(journaled(Data()), context: context)
            return
        }
        switch response.body {
        case .data(let data):
            if let speed = response.bytesPerSecond {
                trickle(data, from: 0, bytesPerSecond: speed, context: context) { self.finish(journaled(data), context: context) }
            } else {
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(data: data)))), promise: nil)
                finish(journaled(data), context: context)
            }
        case .file(let url, _):
            if let speed = response.bytesPerSecond, let data = try? Data(contentsOf: url, options: .alwaysMapped) {
                trickle(data, from: 0, bytesPerSecond: speed, context: context) { self.finish(journaled(data), context: context) }
            } else {
                stream(url, context: context) {
                    // The journal keeps the file mapped, not read.
                    self.finish(journaled((try? Data(contentsOf: url, options: .alwaysMapped)) ?? Data()), context: context)
                }
            }
        }
    }

    /// The cookies of a `Set-Cookie` value that joins several with commas (as a `[String: String]` must): a comma
    /// starts a new cookie only when a `name=` follows it, so the comma inside `Expires=Wed, 21 Oct 2026 …` stays.
    static func cookies(in value: String) -> [String] {
        var cookies: [String] = []
        var current = ""
        let parts = value.split(separator: ",", omittingEmptySubsequences: false)
        for (index, part) in parts.enumerated() {
            let attribute = part.prefix { $0 != ";" }
            if index > 0, attribute.contains("=") {
                cookies.append(current.trimmingCharacters(in: .whitespaces))
                current = String(part)
            } else {
                current += index > 0 ? "," + part : String(part)
            }
        }
        cookies.append(current.trimmingCharacters(in: .whitespaces))
        return cookies.filter { !$0.isEmpty }
    }

    /// Completes the journal entry, then ends the response; closes the connection or waits for the next request.
    /// The entry is completed first, so a client that has the whole response finds it completed in the journal.
    private func finish(_ outcome: JournalEntry.Outcome, context: ChannelHandlerContext) {
        guard isOpen else { return }
        complete(outcome)
        let keepAlive = self.keepAlive
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { result in
            self.responding = false
            if case .failure = result { return }
            if keepAlive { self.armHeadTimer(context: context) } else { context.close(promise: nil) }
        }
    }

    private func complete(_ outcome: JournalEntry.Outcome) {
        guard let entry else { return }
        self.entry = nil
        settings.mock.complete(entry, with: outcome)
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
    /// file is never held whole, and a slow client slows the reading.
    private func stream(_ url: URL, context: ChannelHandlerContext, then done: @escaping () -> Void) {
        let loop = context.eventLoop
        NIOThreadPool.singleton.runIfActive(eventLoop: loop) { try FileHandle(forReadingFrom: url) }
            .assumeIsolated().whenComplete { result in
                switch result {
                case .success(let handle): self.streamChunk(of: handle, context: context, then: done)
                case .failure(let error): self.abort(with: error, context: context)
                }
            }
    }

    private func streamChunk(of handle: FileHandle, context: ChannelHandlerContext, then done: @escaping () -> Void) {
        guard isOpen else {
            try? handle.close()
            return
        }
        NIOThreadPool.singleton.runIfActive(eventLoop: context.eventLoop) { try handle.read(upToCount: 64 * 1024) ?? Data() }
            .assumeIsolated().whenComplete { result in
                switch result {
                case .success(let chunk) where !chunk.isEmpty:
                    context.writeAndFlush(self.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(data: chunk)))))
                        .assumeIsolated().whenComplete { written in
                            if case .failure = written {
                                try? handle.close()
                            } else {
                                self.streamChunk(of: handle, context: context, then: done)
                            }
                        }
                case .success:
                    try? handle.close()
                    done()
                case .failure(let error):
                    try? handle.close()
                    self.abort(with: error, context: context)
                }
            }
    }

    /// The headers are out and the body cannot be read: drop the connection, as a server whose disk failed would.
    private func abort(with error: any Error, context: ChannelHandlerContext) {
        complete(.failure(URLError(.cannotOpenFile, userInfo: [
            NSLocalizedDescriptionKey: "HTTPMock: the response file could not be read: \(error.localizedDescription)",
        ])))
        context.close(promise: nil)
    }

    // MARK: Faults

    /// Fails the request as the network would, over the socket (see the HTTPMockServer article's table).
    private func fail(with error: any Error & Sendable, version: HTTPVersion, context: ChannelHandlerContext) {
        guard let code = (error as? URLError)?.code else {
            // Not a network failure (an unmocked policy's error): say it in a response, which is all another
            // process can be told.
            complete(.failure(error))
            sendPlain(.internalServerError, "HTTPMock: the request failed: \(error)\n", context: context,
                      extraHeaders: [("X-HTTPMock", "failure")])
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
        guard let encoder = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self) else {
            context.close(promise: nil)
            return
        }
        encoder.writeAndFlush(NIOAny(ByteBuffer(string: "zz\r\nnot a chunk\r\n")))
            .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    // MARK: Plain responses and limits

    private func refuseBody(context: ChannelHandlerContext, closingNow: Bool) {
        refusing = true
        keepAlive = false
        let limit = settings.configuration.maximumBodyBytes
        sendPlain(.payloadTooLarge, "HTTPMock: the request body is larger than the server's maximumBodyBytes (\(limit))\n",
                  context: context, closes: closingNow)
    }

    /// A text response from the server itself; journaled only when `journal` (the request was decided).
    private func sendPlain(_ status: HTTPResponseStatus, _ text: String, context: ChannelHandlerContext,
                           journal: Bool = false, extraHeaders: [(String, String)] = [], closes: Bool = true) {
        sendPlain(status, Data(text.utf8), contentType: "text/plain; charset=utf-8", context: context,
                  journal: journal, extraHeaders: extraHeaders, closes: closes)
    }

    /// A response from the server itself; `afterSent` runs once it is flushed.
    private func sendPlain(_ status: HTTPResponseStatus, _ data: Data, contentType: String?, context: ChannelHandlerContext,
                           journal: Bool = false, extraHeaders: [(String, String)] = [], closes: Bool = true,
                           afterSent: (() -> Void)? = nil) {
        responding = true
        let body = ByteBuffer(data: data)
        var headers = HTTPHeaders()
        if let contentType { headers.add(name: "Content-Type", value: contentType) }
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        for (name, value) in extraHeaders { headers.add(name: name, value: value) }
        if !keepAlive { headers.add(name: "Connection", value: "close") }
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
                self.armHeadTimer(context: context)
            } else if closes {
                context.close(promise: nil)
            }
            afterSent?()
        }
    }

    private func armHeadTimer(context: ChannelHandlerContext) {
        headTimer?.cancel()
        guard isOpen else { return }
        headTimer = context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(settings.configuration.requestHeadTimeout)) {
            context.close(promise: nil)
        }
    }
}

extension TimeAmount {
    /// A duration in seconds, to the nanosecond.
    static func seconds(_ seconds: TimeInterval) -> TimeAmount {
        .nanoseconds(Int64((max(0, seconds) * 1_000_000_000).rounded()))
    }
}
#endif
