import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock

/// The event every streamed benchmark sends: one server-sent event of about 30 bytes, an LLM's token.
package let streamedEvent = ServerSentEvent("{\"delta\":\"token\"}")

/// The floor of a stream: a bare `URLProtocol` that delivers the head, then `StreamFloorProtocol.events` parts (each
/// the same event, encoded anew) in one pass, then the end; no lookup, no timing, no journal.
package final class StreamFloorProtocol: URLProtocol {
    nonisolated(unsafe) package static var events = 0  // reason: set once by the benchmark before any request, then only read

    package override class func canInit(with request: URLRequest) -> Bool { true }
    package override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    package override func startLoading() {
        let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1",
                                       headerFields: ["Content-Type": "text/event-stream"])!
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        // A fresh buffer for each part, as each chunk read from a socket is.
        for _ in 0..<Self.events { client?.urlProtocol(self, didLoad: streamedEvent.encoded) }
        client?.urlProtocolDidFinishLoading(self)
    }

    package override func stopLoading() {}
}

/// A delegate-based client that counts the parts and bytes of one streamed response, as an app reading events would.
package final class StreamCounter: NSObject, URLSessionDataDelegate, @unchecked Sendable {  // reason: its counters are written on the session's serial delegate queue and read after the completion signal
    private var parts = 0
    private var bytes = 0
    private var failure: (any Error)?
    private let done = DispatchSemaphore(value: 0)
    private var session: URLSession!

    /// A client whose session is built from `configuration`.
    package init(configuration: URLSessionConfiguration) {
        super.init()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
    }

    /// Fetches `url` and returns the number of parts and bytes it received, once the stream ended.
    package func fetch(_ url: URL) async throws -> (parts: Int, bytes: Int) {
        parts = 0
        bytes = 0
        session.dataTask(with: url).resume()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                self.done.wait()
                continuation.resume()
            }
        }
        if let failure { throw failure }
        return (parts, bytes)
    }

    package func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        parts += 1
        bytes += data.count
    }

    package func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        failure = error
        done.signal()
    }

    /// Ends the session.
    package func close() { session.invalidateAndCancel() }
}

/// A mock answering `https://stream.example.com/events` with `count` events, all due at once.
package func streamingMock(events count: Int) -> HTTPMock {
    let mock = HTTPMock()
    mock.addResponses(forPath: "/events", host: "stream.example.com") {
        MockResponse.events(Array(repeating: streamedEvent, count: count), lifetime: .eternal)
    }
    return mock
}

/// A mock answering with `count` events that a producer makes one by one (nothing held for the whole stream).
package func producingMock(events count: Int) -> HTTPMock {
    let mock = HTTPMock()
    mock.addResponses(forPath: "/events", host: "stream.example.com") {
        MockResponse.stream(contentType: "text/event-stream", lifetime: .eternal) { stream in
            for _ in 0..<count { await stream.send(streamedEvent) }
        }
    }
    return mock
}

/// The URL the streaming mocks answer.
package let streamURL = URL(string: "https://stream.example.com/events")!
