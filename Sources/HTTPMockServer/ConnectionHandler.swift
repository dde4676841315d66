#if Server
import Foundation
import HTTPMock
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOPosix

/// Answers the requests of one connection from the mock's engine. Runs on the connection's event loop, but for
/// the user code of a decision, which runs on the ``DecisionPool``.
///
/// NIO's `HTTPServerPipelineHandler` in front of it hands over one request at a time (a pipelined request waits
/// until the response before it has ended), so at most one request is in flight here.
final class ConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let settings: ConnectionSettings
    /// The connection's encoder, told when a head repeats the last one.
    let encoder: ResponseEncoder

    /// The request being read.
    var head: HTTPRequestHead?
    var body: ByteBuffer?
    /// A 413 went out for this request: the rest of its body is dropped, then the connection closes.
    var refusing = false
    /// A response marked `Connection: close` is being written: nothing that arrives after it is answered.
    var closing = false
    /// That response was written and the connection's output is shut: what still arrives is dropped (a lingering
    /// close) until the connection closes (see ``closeAfterResponse(context:)``).
    var lingering = false
    /// Bytes dropped since a refusal or since the lingering close began.
    var dropped = 0
    /// Closes a lingering connection at the latest ``lingerSeconds`` after its output was shut.
    var lingerTimer: Scheduled<Void>?
    /// Whether the connection stays open after this response.
    var keepAlive = true
    /// Between a request's end and its response's end.
    var responding = false
    /// The journal entry of the request being answered, until it is completed.
    var entry: Int?
    /// A fault that keeps the connection silent: the entry is completed with it when the client gives up.
    var silentFailure: (any Error & Sendable)?
    /// When the connection must have sent a complete request head, or the next bytes of the body it is sending;
    /// `nil` while a request is answered.
    var headDeadline: NIODeadline?
    /// The connection's one read timer (see ConnectionHandler+HeadTimeout.swift), and when it fires.
    var headTimer: Scheduled<Void>?
    var headTimerFiresAt: NIODeadline?
    /// Between a request's head and its end: the deadline is the body's.
    var readingBody = false
    /// When the body being read must be whole (``HTTPMockServer/Configuration/requestBodyTotalTimeout``).
    var bodyDeadline: NIODeadline?
    /// The last request target, `Host` header and default authority, and the URL they made, read.
    private var lastURL: (uri: String, host: String?, authority: String, parts: CapturedRequest.URLParts)?
    /// The client's address (WireMock's `clientIp`), read at the connection's first request: it does not change,
    /// and reading it from the socket and writing it out costs more than the rest of a request's decision.
    private var clientAddress: String??
    /// The last response sent, to send again without building it when the next is the same.
    var lastResponse = ResponseCache()
    /// A delayed status line, or the next slice of a throttled body.
    var pending: Scheduled<Void>?
    /// A streamed body going out (see ConnectionHandler+Streams.swift).
    var stream: ServerStream?
    /// The request a WebSocket or a streamed response answers, for its message channel (see WebSockets/), set only
    /// for those (not on every request: a request the size of this one is not copied for nothing) and taken when read.
    var channelRequest: CapturedRequest?
    /// The head of the request being answered, for a WebSocket upgrade (see WebSockets/).
    var requestHead: HTTPRequestHead?
    var isOpen = true

    /// The header in which the connection's ``MethodTokenRelay`` hands over a method of its own.
    let methodHeader: String?

    init(settings: ConnectionSettings, encoder: ResponseEncoder, methodHeader: String? = nil) {
        self.settings = settings
        self.encoder = encoder
        self.methodHeader = methodHeader
    }

    // MARK: Events

    func channelActive(context: ChannelHandlerContext) {
        awaitHead(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        isOpen = false
        stopHeadTimer()
        pending?.cancel()
        lingerTimer?.cancel()
        abandonStream()
        if let entry {
            self.entry = nil
            let failure = silentFailure ?? URLError(.cancelled, userInfo: [
                NSLocalizedDescriptionKey: "HTTPMock: the client closed the connection before the response was sent",
            ])
            settings.mock.complete(entry, with: .failure(failure))
        }
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if stream != nil, context.channel.isWritable { pumpStream(context: context) }
        context.fireChannelWritabilityChanged()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if refusing || closing {
            drop(part, context: context)
            return
        }
        switch part {
        case .head(var head):
            if head.method == .POST, let relayed = methodHeader, let method = head.headers.first(name: relayed) {
                // A method of its own, handed over by the relay in front of the parser (which knows only a list).
                head.method = HTTPMethod(rawValue: method)
                head.headers.remove(name: relayed)
            }
            readingBody = true
            let now = NIODeadline.now()
            bodyDeadline = now + .seconds(settings.configuration.requestBodyTotalTimeout)
            awaitBody(context: context)
            self.head = head
            body = nil
            refusing = false
            keepAlive = head.isKeepAlive
            let expectsContinue = head.headers.contains(name: "expect")
                && head.headers[canonicalForm: "expect"].contains { $0.lowercased() == "100-continue" }
            if let length = head.headers.first(name: "content-length").flatMap(Int.init),
               length > settings.configuration.maximumBodyBytes {
                // A client waiting for 100 Continue sends no body; any other is cut off after the 413.
                refuseBody(context: context)
                return
            }
            if expectsContinue {
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))),
                                      promise: nil)
            }
        case .body(var chunk):
            awaitBody(context: context)
            if (body?.readableBytes ?? 0) + chunk.readableBytes > settings.configuration.maximumBodyBytes {
                body = nil
                refuseBody(context: context)
                return
            }
            if body == nil { body = chunk } else { body!.writeBuffer(&chunk) }
        case .end:
            readingBody = false
            bodyDeadline = nil
            headDeadline = nil
            guard let head else { return }
            self.head = nil
            serve(head, body: body, context: context)
            body = nil
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !closing else {
            // What a closing connection still receives is not answered.
            context.close(promise: nil)
            return
        }
        guard let parserError = error as? HTTPParserError, !responding else {
            context.close(promise: nil)
            return
        }
        stopHeadTimer()
        keepAlive = false
        if case .invalidMethod = parserError {
            sendPlain(.badRequest, "HTTPMock: the request's method is not one HTTPMockServer can read here: a method of its own (such as FOO) is read on a connection whose requests are plainly framed (a Content-Length or a chunked body without extensions or trailers), and this one was not. Send it on a connection of its own, or framed plainly.\n",
                      context: context)
        } else if case .headerOverflow = parserError {
            sendPlain(.init(statusCode: 431), "HTTPMock: the request's header section is larger than the server's maximumHeaderBytes (\(settings.configuration.maximumHeaderBytes))\n",
                      context: context)
        } else {
            sendPlain(.badRequest, "HTTPMock: the request is not valid HTTP/1.1 (\(parserError))\n", context: context)
        }
    }

    // MARK: Answering

    private func serve(_ head: HTTPRequestHead, body: ByteBuffer?, context: ChannelHandlerContext) {
        responding = true
        // One pass over the headers for what a real server refuses before anything is matched.
        var hosts = 0
        var looped = false
        for (name, value) in head.headers {
            if name.utf8.count == 4, name.lowercased() == "host" { hosts += 1 }
            if name.utf8.count == 3, name.lowercased() == "via", value.contains(settings.state.via) { looped = true }
        }
        // RFC 9112, 3.2: an HTTP/1.1 request has exactly one Host header; a server answers 400 otherwise.
        if head.version.major == 1, head.version.minor >= 1, hosts != 1 {
            keepAlive = false
            let problem = hosts == 0 ? "has no Host header" : "has \(hosts) Host headers"
            sendPlain(.badRequest, "HTTPMock: the request \(problem); an HTTP/1.1 request has exactly one (RFC 9112, 3.2)\n", context: context)
            return
        }
        // A request this server forwarded, come back to it: its proxy points at itself. Forwarding it again would
        // go round for ever.
        if looped {
            keepAlive = false
            sendPlain(HTTPResponseStatus(statusCode: 508), "HTTPMock: \(head.method.rawValue) \(head.uri) came back to this server through its own proxy (a loop): point Configuration.proxy (--proxy) or the recording's target elsewhere\n", context: context)
            return
        }
        if settings.configuration.adminAPI, AdminAPI.handles(head.uri) {
            answerAdmin(head, body: body, context: context)
            return
        }
        guard let parts = urlParts(of: head) else {
            keepAlive = false
            sendPlain(.badRequest, "HTTPMock: the request target \(head.uri) is not a path\n", context: context)
            return
        }
        // A field value without the spaces and tabs around it (RFC 9110, 5.5), as WireMock's Jetty reads it: the
        // parser leaves those after it.
        let headers = HeaderFields(head.headers.map { HeaderFields.Field(name: $0.name, value: Self.trimmed($0.value)) })
        let data = body.flatMap { $0.readableBytes > 0 ? Data(buffer: $0) : nil }
        let decoded: Data?
        do {
            // A body sent gzip is read inflated, as WireMock reads it: every stub, template and the journal see it so.
            decoded = try RequestContentCoding.decoded(data, headers: headers, limit: settings.configuration.maximumBodyBytes)
        } catch {
            sendPlain(error.isTooLarge ? .payloadTooLarge : .badRequest, RequestContentCoding.refusal(error), context: context)
            return
        }
        var request = CapturedRequest(method: head.method.rawValue, parts: parts, headers: headers, body: decoded)
        if decoded != data { request.sentBody = data }
        if clientAddress == nil { clientAddress = .some(context.remoteAddress?.ipAddress) }
        request.clientAddress = clientAddress ?? nil
        if head.uri.utf8.first == UInt8(ascii: "/") { request.target = head.uri }
        var attempt = settings.mock.attemptAnswer(request)
        if case .pending(let pending) = attempt {
            // Regular expressions and templates of mapping files are the package's own: most finish here, within
            // a small budget, without the hop to the decision pool.
            attempt = settings.mock.continueInPlace(pending)
        }
        switch attempt {
        case .answered(let answer, let entry):
            carryOut(answer, entry: entry, for: request, head: head, context: context)
        case .pending(let pending):
            // User code runs on the decision pool, never on this event loop: a slow regular expression or dynamic
            // response holds up its own request only.
            let mock = settings.mock
            DecisionPool.run(on: context.eventLoop) { mock.finishAnswer(pending) }
                .assumeIsolated().whenComplete { result in
                    switch result {
                    case .success(let (answer, entry)):
                        guard self.isOpen else {
                            mock.complete(entry, with: .failure(URLError(.cancelled, userInfo: [
                                NSLocalizedDescriptionKey: "HTTPMock: the client closed the connection before the response was decided",
                            ])))
                            return
                        }
                        self.carryOut(answer, entry: entry, for: request, head: head, context: context)
                    case .failure:
                        context.close(promise: nil)
                    }
                }
        }
    }

    /// Sends what the engine decided for `request`, journaled as `entry`.
    private func carryOut(_ answer: HTTPMock.Answer, entry: Int, for request: CapturedRequest, head: HTTPRequestHead,
                          context: ChannelHandlerContext) {
        self.entry = entry
        requestHead = head
        let isHead = head.method == .HEAD
        switch answer {
        case .respond(let response):
            switch response.body {
            case .webSocket, .stream: channelRequest = request
            default: break
            }
            if response.status == 404, response.headers["X-HTTPMock"] == "unmatched", head.method == .GET,
               head.headers.first(name: "upgrade")?.lowercased() == "websocket", settings.mock.acceptsAnyWebSocket {
                // No stub answered a WebSocket: it opens a plain channel, driven by message stubs and the admin
                // API, as WireMock accepts a WebSocket on any path.
                channelRequest = request
                upgrade(to: WebSocketConversation(script: WebSocketScript(), handle: nil), version: head.version, context: context)
                return
            }
            if response.status == 404, response.headers["X-HTTPMock"] == "unmatched", head.method == .GET,
               let folder = settings.state.mappings.wireMockFolder {
                // No mapping answered: a file of the WireMock folder's __files at this path answers, as WireMock's
                // standalone server serves them (the request stays journaled as unmatched, as there).
                switch WireMockStaticFiles.lookup(request.url, in: folder.appendingPathComponent("__files", isDirectory: true)) {
                case .file(let file, let size, let contentType):
                    respond(with: WireResponse(status: 200, headers: ["Content-Type": contentType], body: .file(file, size: size), url: request.url),
                            version: head.version, isHead: false, context: context)
                    return
                case .folderWithoutIndex:
                    sendPlain(.forbidden, "HTTPMock: \(request.url.path) is a folder of __files with neither index.json nor index.html to serve\n",
                              context: context, journal: true)
                    return
                case .none: break
                }
            }
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
            if let forwarder = settings.state.recorder.forwarder ?? settings.forwarder,
               head.headers.first(name: "upgrade")?.lowercased() == "websocket" {
                relayWebSocket(request, to: forwarder, version: head.version, context: context)
                return
            }
            if let forwarder = settings.state.recorder.forwarder ?? settings.forwarder {
                forward(request, with: forwarder, version: head.version, isHead: isHead, context: context)
                return
            }
            let text = "HTTPMock: \(head.method.rawValue) \(request.url.absoluteString) was not answered: the mock's unmockedPolicy is .passthrough and the server has no proxy to forward it to (Configuration.proxy). Add a stub, set a proxy, or use .notFound.\n"
            sendPlain(.badGateway, text, context: context, journal: true)
        case .forward(let forwarded):
            // A stub answered by another server (a WireMock mapping's proxyBaseUrl): to exactly its URL.
            forward(forwarded, with: settings.state.directForwarder, exactly: true, version: head.version, isHead: isHead, context: context)
        case .crash(let message):
            fatalError(message)
        }
    }

    /// `value` without the spaces and tabs at its ends; itself, without a copy, when it has none.
    static func trimmed(_ value: String) -> String {
        let utf8 = value.utf8
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = utf8.first, let last = utf8.last, isSpace(first) || isSpace(last) else { return value }
        guard let start = utf8.firstIndex(where: { !isSpace($0) }), let end = utf8.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(value[start...end])
    }

    /// The URL `head` is matched as, read; the last one again while the target, the `Host` header and the
    /// default authority repeat (a keep-alive client polling one endpoint): building and reading a URL is most of
    /// what the server itself adds to a request.
    private func urlParts(of head: HTTPRequestHead) -> CapturedRequest.URLParts? {
        let host = head.headers.first(name: "host").map(Self.trimmed)
        let authority = settings.defaultAuthority
        // Compared in place: copying the tuple out would retain each of its strings.
        if lastURL?.uri == head.uri, lastURL?.host == host, lastURL?.authority == authority, let parts = lastURL?.parts {
            return parts
        }
        guard let url = settings.url(uri: head.uri, hostHeader: host, defaultAuthority: authority) else { return nil }
        let parts = CapturedRequest.URLParts(url)
        lastURL = (head.uri, host, authority, parts)
        return parts
    }

    // MARK: Admin API

    /// Answers WireMock's admin API (``HTTPMockServer/Configuration/adminAPI``): nothing is matched or journaled.
    private func answerAdmin(_ head: HTTPRequestHead, body: ByteBuffer?, context: ChannelHandlerContext) {
        if let refusal = AdminAccess.refusal(of: head, settings: settings) {
            sendPlain(refusal.status, refusal.message, context: context, extraHeaders: refusal.headers)
            return
        }
        if WebApp.handles(head.uri) {
            answerWebApp(head, context: context)
            return
        }
        let data = body.flatMap { $0.readableBytes > 0 ? Data(buffer: $0) : nil }
        let request = AdminRequest(method: head.method.rawValue, target: head.uri, body: data)
        let settings = self.settings
        let admin = AdminContext(mock: settings.mock, state: settings.state) { target, host in
            settings.url(uri: target, hostHeader: host, defaultAuthority: settings.defaultAuthority)
        }
        // Off the event loop: importing or resetting thousands of mappings takes a while, and the other connections
        // of this loop are answered meanwhile. Reads and changes run on pools of their own (see AdminAPI.readers).
        let answered: EventLoopFuture<AdminReply>
        if let waiting = MessagingResource.waiting(request, context: admin) {
            // A wait for messages holds no thread while it waits.
            let promise = context.eventLoop.makePromise(of: AdminReply.self)
            Task { promise.succeed(await waiting()) }
            answered = promise.futureResult
        } else {
            answered = AdminAPI.run(request, target: head.uri, on: context.eventLoop) { AdminAPI.answer(request, context: admin) }
        }
        answered.assumeIsolated().whenComplete { result in
                guard self.isOpen else { return }
                guard case .success(let reply) = result else {
                    self.keepAlive = false
                    self.sendPlain(.serviceUnavailable, "HTTPMock: the server is stopping\n", context: context)
                    return
                }
                var then: (() -> Void)?
                if reply.then == .shutdown {
                    self.keepAlive = false
                    let lifecycle = settings.lifecycle
                    then = { Task { await lifecycle.stop() } }
                }
                self.sendPlain(HTTPResponseStatus(statusCode: reply.status), reply.body,
                               contentType: reply.body.isEmpty ? nil : "application/json", context: context, afterSent: then)
            }
    }

    // MARK: Journal and limits

    /// Completes the journal entry of the request being answered, once.
    func complete(_ outcome: JournalEntry.Outcome) {
        guard let entry else { return }
        self.entry = nil
        settings.mock.complete(entry, with: outcome)
    }

    /// Answers `413` at once and stops reading the body: what still comes of it is dropped, and once the response
    /// is written the connection closes (lingering: see ``closeAfterResponse(context:)``).
    private func refuseBody(context: ChannelHandlerContext) {
        refusing = true
        dropped = 0
        keepAlive = false
        readingBody = false
        bodyDeadline = nil
        stopHeadTimer()
        head = nil
        body = nil
        let limit = settings.configuration.maximumBodyBytes
        sendPlain(.payloadTooLarge, "HTTPMock: the request body is larger than the server's maximumBodyBytes (\(limit)); the connection is closed\n",
                  context: context)
    }

    /// What arrives on a connection that refused a body or is closing: dropped, and counted, so a client that
    /// sends on for ever is cut off.
    private func drop(_ part: HTTPServerRequestPart, context: ChannelHandlerContext) {
        switch part {
        case .body(let chunk):
            dropped += chunk.readableBytes
        case .head(let head):
            // Pipelined after a response that closes the connection: never answered.
            dropped += head.uri.utf8.count + 64
        case .end:
            // The request is whole: nothing more is awaited, so a connection whose output is shut closes now.
            if lingering { context.close(promise: nil) }
        }
        if lingering, dropped > Self.lingerBytes { context.close(promise: nil) }
    }
}

extension TimeAmount {
    /// A duration in seconds, to the nanosecond.
    static func seconds(_ seconds: TimeInterval) -> TimeAmount {
        .nanoseconds(Int64((max(0, seconds) * 1_000_000_000).rounded()))
    }
}
#endif
