#if Server
import Foundation
import NIOCore
import NIOHTTP1

// The traffic page (see WebApp.swift): its files at once, its events as a stream that lasts while the page is open.
// Reached from the admin API's door, after its checks.
extension ConnectionHandler {
    func answerWebApp(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let resource = WebApp.resource(head.uri)
        guard head.method == .GET else {
            sendPlain(.methodNotAllowed, "HTTPMock: \(WebApp.root) is read with GET\n", context: context,
                      extraHeaders: [("Allow", "GET")] + WebApp.headers)
            return
        }
        if let (type, body) = WebApp.file(resource) {
            sendPlain(.ok, body, contentType: type, context: context, extraHeaders: WebApp.headers)
            return
        }
        let read: (@Sendable (AdminRequest) -> AdminReply)?
        let mock = settings.mock, mappings = settings.state.mappings
        switch resource {
        case .timeline(let id): read = { _ in WebAppTimeline.reply(id: id, mock: mock) }
        case .stubs: read = { WebAppStubs.stubs($0, mock: mock, mappings: mappings) }
        case .scenarios: read = { WebAppStubs.scenarios($0, mock: mock) }
        default: read = nil
        }
        if let read {
            // Off the event loop, as the admin API's reads.
            let request = AdminRequest(method: "GET", target: head.uri, body: nil)
            AdminAPI.run(request, target: head.uri, on: context.eventLoop) { read(request) }
                .assumeIsolated().whenComplete { result in
                    guard self.isOpen else { return }
                    guard case .success(let reply) = result else {
                        self.keepAlive = false
                        self.sendPlain(.serviceUnavailable, "HTTPMock: the server is stopping\n", context: context)
                        return
                    }
                    self.sendPlain(HTTPResponseStatus(statusCode: reply.status), reply.body, contentType: "application/json",
                                   context: context, extraHeaders: WebApp.headers)
                }
            return
        }
        guard resource == .events else {
            sendPlain(.notFound, "HTTPMock: no file \(head.uri) in the traffic page; it is at \(WebApp.root)\n",
                      context: context, extraHeaders: WebApp.headers)
            return
        }
        guard isOpen, let url = URL(string: "http://127.0.0.1" + WebApp.root + "/events") else { return }
        let response = WebAppFeed.response(for: settings.mock, lifecycle: settings.lifecycle, limits: .standard, url: url)
        sendStream(response, version: head.version, isHead: false, context: context)
    }
}
#endif
