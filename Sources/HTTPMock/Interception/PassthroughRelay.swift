import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of the shared passthrough session: hands each task's callbacks to the request that started it, so a
/// streamed answer from the real server (server-sent events, a chunked body) reaches the caller part by part, as it
/// arrives, and its parts land in the journal (and in a recording) with their boundaries.
final class PassthroughRelay: NSObject, URLSessionDataDelegate, Sendable {
    /// What a request does with its upstream task's callbacks.
    struct Handler: Sendable {
        /// The head arrived; return the stream its body goes to, or `nil` to gather it.
        let head: @Sendable (HTTPURLResponse) -> MockStream?
        /// The task completed: the gathered body (when not streamed) and the error, if any.
        let completed: @Sendable (HTTPURLResponse?, Data, (any Error)?) -> Void
    }

    private struct Relay {
        let handler: Handler
        var response: HTTPURLResponse?
        var stream: MockStream?
        var body = Data()
    }

    private let relays = Locked([Int: Relay]())

    /// Routes the callbacks of `task` to `handler`; call before the task is resumed.
    func register(_ task: URLSessionTask, _ handler: Handler) {
        relays.withLock { $0[task.taskIdentifier] = Relay(handler: handler) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let id = dataTask.taskIdentifier
        if let http = response as? HTTPURLResponse, let handler = relays.withLock({ $0[id]?.handler }) {
            let stream = handler.head(http)
            relays.withLock { relays in
                relays[id]?.response = http
                relays[id]?.stream = stream
            }
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let stream: MockStream? = relays.withLock { relays in
            guard let relay = relays[dataTask.taskIdentifier] else { return nil }
            if relay.stream == nil { relays[dataTask.taskIdentifier]?.body.append(data) }
            return relay.stream
        }
        stream?.enqueue(.part(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let relay = relays.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let stream = relay.stream {
            if let error {
                stream.enqueue(.failure(error as? URLError ?? UpstreamError(error)))
            } else {
                stream.enqueue(.end)
            }
        }
        relay.handler.completed(relay.response, relay.body, error)
    }
}

extension HTTPURLResponse {
    /// Whether the body is a stream the caller should get as it arrives: server-sent events, or a body with no
    /// `Content-Length` (chunked, or read until the connection closes).
    package var isStreamedBody: Bool {
        if let type = value(forHTTPHeaderField: "Content-Type"), type.lowercased().hasPrefix("text/event-stream") {
            return true
        }
        return value(forHTTPHeaderField: "Content-Length") == nil && statusCode != 204 && statusCode != 304
            && !(100...199).contains(statusCode)
    }
}
