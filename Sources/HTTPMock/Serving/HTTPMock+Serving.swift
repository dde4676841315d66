import Foundation

// The two operations through which HTTPMockServer (another module of this package) reaches a mock's engine:
// `package`, so they are no part of the public API. The server decides each request here, as the interception
// layer does, and completes its journal entry when the answer has gone out.

/// A decided request, as a server carries it out over a socket.
package enum ServedAnswer: Sendable {
    /// Send this response.
    case respond(ServedResponse)
    /// Fail the request as the network would: the error says how (a `URLError`, or any error of an unmocked policy).
    case fail(any Error & Sendable)
    /// The unmocked policy is ``UnmockedPolicy/passthrough``: the request was not answered by the mock.
    case passthrough
    /// The unmocked policy is ``UnmockedPolicy/fatalError``: stop the process with this message.
    case crash(String)
}

/// A response as it goes on the wire: no redirect followed, no cookie stored (the client does both).
package struct ServedResponse: Sendable {
    /// Where the body comes from.
    package enum Body: Sendable {
        /// In memory.
        case data(Data)
        /// Read from this file as it is sent, never held whole.
        case file(URL, size: Int)
    }

    /// The status code.
    package var status: Int
    /// The headers the stub gave, `Content-Type` included.
    package var headers: [String: String]
    /// The body.
    package var body: Body
    /// ``NetworkFault/truncatedBody(_:after:)``: the connection drops after this many body bytes.
    package var truncation: Int?
    /// Seconds before the status line goes out.
    package var headerDelay: TimeInterval
    /// The speed of a ``MockResponse/Delivery/throttled(bytesPerSecond:headersAfter:)`` delivery.
    package var bytesPerSecond: Int?
}

extension HTTPMock {
    /// Decides `request` with this mock's stubs and unmocked policy, and journals it, as intercepted requests are.
    /// Redirects are not followed: a server sends them to its client. Complete the returned entry with
    /// ``completeServed(_:with:)``.
    package func decideServed(_ request: CapturedRequest) -> (answer: ServedAnswer, entry: Int) {
        let (decision, entry) = core.engine.decide(request)
        switch decision {
        case .passthrough: return (.passthrough, entry)
        case .fail(let error): return (.fail(error), entry)
        case .crash(let message): return (.crash(message), entry)
        case .respond(let response):
            let body: ServedResponse.Body
            switch response.content {
            case .failure(let error): return (.fail(error), entry)
            case .data(let data): body = .data(data)
            case .dynamic: body = .data(Data())  // resolved by `decide`; never left dynamic
            case .file(let url): body = .file(url, size: ResponseBody.size(of: response))
            }
            var speed: Int?
            if case .throttled(let bytesPerSecond, _) = response.delivery { speed = bytesPerSecond }
            return (.respond(ServedResponse(status: response.status.code, headers: response.headers, body: body,
                                            truncation: response.truncation,
                                            headerDelay: response.delivery.headerSeconds, bytesPerSecond: speed)),
                    entry)
        }
    }

    /// Records what became of the request journaled as `entry`, which wakes waits on it.
    package func completeServed(_ entry: Int, with outcome: JournalEntry.Outcome) {
        core.engine.complete(entry, with: outcome)
    }
}
