import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock

/// An app's chat client: posts a question and shows the answer token by token as server-sent events arrive, as an
/// LLM API streams it. It reads the stream through its session's delegate, which works on every platform.
final class ChatClient: NSObject, URLSessionDataDelegate, @unchecked Sendable {  // reason: `state` is behind a lock; URLSession's delegate protocols are not Sendable
    private var session: URLSession!
    private let baseURL: URL
    private let onToken: @Sendable (String) -> Void
    private let state = Locked((reader: ServerSentEventReader(), answer: "",
                                done: nil as CheckedContinuation<Result<String, any Error>, Never>?))

    /// A client that calls `onToken` with each token as it arrives.
    init(baseURL: URL, configuration: URLSessionConfiguration, onToken: @escaping @Sendable (String) -> Void) {
        self.baseURL = baseURL
        self.onToken = onToken
        super.init()
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    /// Asks `question`; returns the whole answer once the stream ends.
    func ask(_ question: String) async throws -> String {
        var request = URLRequest(url: baseURL.appendingPathComponent("v1/chat"))
        request.httpMethod = "POST"
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        request.httpBody = try JSONEncoder().encode(["question": question])
        let result = await withCheckedContinuation { continuation in
            state.withLock { $0.done = continuation }
            session.dataTask(with: request).resume()
        }
        return try result.get()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let tokens = state.withLock { state -> [String] in
            let tokens = state.reader.read(data).compactMap(\.data).filter { $0 != "[DONE]" }
            state.answer += tokens.joined()
            return tokens
        }
        for token in tokens { onToken(token) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, answer) = state.withLock { state in
            defer { state.done = nil }
            return (state.done, state.answer)
        }
        continuation?.resume(returning: error.map { .failure($0) } ?? .success(answer))
        session.finishTasksAndInvalidate()
    }
}
