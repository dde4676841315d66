#if Server
import HTTPMock
import NIOCore
import NIOHTTP1

extension ConnectionHandler {
    /// Relays `request` to the configured proxy and its answer to the client; the journal entry completes with
    /// what the upstream sent (or the error that kept it from answering, with `502 Bad Gateway` to the client).
    ///
    /// With `exactly`, the request goes to its own URL (a stub answered by another server) instead.
    func forward(_ request: CapturedRequest, with forwarder: Forwarder, exactly: Bool = false, version: HTTPVersion, isHead: Bool,
                         context: ChannelHandlerContext) {
        let promise = context.eventLoop.makePromise(of: Forwarder.Reply.self)
        forwarder.forward(request, to: exactly ? request.url : nil) { promise.completeWith($0) }
        promise.futureResult.assumeIsolated().whenComplete { result in
            guard self.isOpen else { return }
            switch result {
            case .success(let reply):
                var headers: [String: String] = [:]
                for (name, value) in reply.headers {
                    headers[name] = headers[name].map { "\($0), \(value)" } ?? value
                }
                let response = reply.parts.map {
                    WireResponse.relayed(status: reply.status, headers: headers, parts: $0, url: request.url)
                } ?? WireResponse(status: reply.status, headers: headers, body: .data(reply.body), url: request.url)
                self.respond(with: response, version: version, isHead: isHead, context: context)
            case .failure(let error):
                self.complete(.failure(error))
                let target = exactly ? "" : " to the proxy \(forwarder.upstream.absoluteString)"
                let text = "HTTPMock: \(request.method) \(request.url.absoluteString) could not be forwarded\(target): \(error.localizedDescription)\n"
                self.sendPlain(.badGateway, text, context: context)
            }
        }
    }
}
#endif
