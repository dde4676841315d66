import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

/// A delegate-based data task, as an app that shows a stream as it arrives drives one: it keeps each piece
/// URLSession hands it, in order, and lets a test wait for a number of pieces or for the end.
final class StreamClient: NSObject, URLSessionDataDelegate, @unchecked Sendable {  // reason: every field is behind `state`'s lock; URLSession's delegate protocols are not Sendable
    struct State {
        var pieces: [Data] = []
        var response: HTTPURLResponse?
        var error: (any Error)?
        var finished = false
        var waiters: [(condition: (State) -> Bool, resume: CheckedContinuation<Void, Never>)] = []
    }

    let state = Locked(State())
    private(set) var session: URLSession!
    private(set) var task: URLSessionDataTask!

    /// Starts `url` through a session of `mock` whose delegate is this client.
    init(mock: HTTPMock, url: String, method: String = "GET", timeout: TimeInterval? = nil) {
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        mock.install(into: configuration)
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        if let timeout { request.timeoutInterval = timeout }
        task = session.dataTask(with: request)
        task.resume()
    }

    var pieces: [String] { state.withLock { $0.pieces.map { String(decoding: $0, as: UTF8.self) } } }
    var error: (any Error)? { state.withLock { $0.error } }
    var response: HTTPURLResponse? { state.withLock { $0.response } }

    /// Waits until the client holds `count` pieces, or the task ended.
    func waitForPieces(_ count: Int) async {
        await wait { $0.pieces.count >= count || $0.finished }
    }

    /// Waits until the task completed (finished or failed).
    func waitForEnd() async {
        await wait { $0.finished }
        session.finishTasksAndInvalidate()
    }

    private func wait(_ condition: @escaping (State) -> Bool) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if condition(state) { return true }
                state.waiters.append((condition, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    private func change(_ update: (inout State) -> Void) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            update(&state)
            var ready: [CheckedContinuation<Void, Never>] = []
            let current = state
            state.waiters.removeAll { waiter in
                guard waiter.condition(current) else { return false }
                ready.append(waiter.resume)
                return true
            }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        change { $0.response = response as? HTTPURLResponse }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        change { $0.pieces.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        change {
            $0.error = error
            $0.finished = true
        }
    }
}
