import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answering a request straight from the engine, without URLSession: for faces that are not a `URLProtocol`
/// (HTTPMockOpenAPI's `ClientTransport`). Visible to the package's modules only, never to users.
///
/// It does what the `URLProtocol` does for a session's request, in async Swift: redirects followed by the mock
/// (``HTTPMock/followsRedirects``, ``HTTPMock/maximumRedirects``), cookies in the storage of the mock's own
/// ``HTTPMock/urlSession`` (so both faces share them), delays that suspend the task instead of a thread and end
/// when it is cancelled, the timeout, faults and failures as thrown errors, and the journal completed before the
/// caller sees the outcome.
extension HTTPMock {
    /// What a request answered directly gets.
    package enum DirectAnswer: Sendable {
        /// A response, already completed in the journal. `headers` are as delivered (with `Content-Length`);
        /// `body` is empty for `HEAD`; `url` is where followed redirects ended.
        case response(status: Int, headers: [String: String], body: Data, url: URL)
        /// The request goes to the real network: the caller sends `request` (the redirected one, if the mock
        /// followed redirects first) and reports what came back with ``completeDirect(_:with:)``.
        case passthrough(CapturedRequest, entry: Int)
    }

    /// Answers `request` as the mock's session would, without URLSession.
    ///
    /// - Parameter timeout: Seconds before a delayed response fails with `URLError(.timedOut)`, as
    ///   `URLRequest.timeoutInterval` does for a session's request.
    /// - Throws: The failure the request gets (a ``NetworkFault``'s `URLError`, a failure response's error, the
    ///   unmocked policy's error, `URLError(.cancelled)` when the task is cancelled during a delay).
    package func answerDirectly(_ request: CapturedRequest, timeout: TimeInterval) async throws -> DirectAnswer {
        let engine = core.engine
        let options = core.options.current
        let jar = CookieJar(storage: options.cookieStorage)
        var request = request
        if request.headers["Cookie"] == nil, let cookie = jar.header(for: request.url) {
            var headers = request.headers
            headers.add("Cookie", cookie)
            request = CapturedRequest(method: request.method, url: request.url, headers: headers, body: request.body)
        }
        let followed = RedirectFollowing.follow(from: request, engine: engine, follows: options.followsRedirects,
                                                maximum: options.maximumRedirects, jar: jar)
        let entry = followed.entry
        switch followed.decision {
        case .passthrough:
            return .passthrough(followed.request, entry: entry)
        case .crash(let message):
            Swift.fatalError(message)
        case .fail(let error):
            try await wait(followed.delay, entry: entry)
            engine.complete(entry, with: .failure(error))
            throw error
        case .respond(let response):
            let delay = response.delivery.totalSeconds(bodyBytes: ResponseBody.size(of: response)) + followed.delay
            let timeout = timeout > 0 ? timeout : .infinity
            if delay >= timeout {
                try await wait(timeout, entry: entry)
                let error = URLError(.timedOut, userInfo: [
                    NSLocalizedDescriptionKey: "HTTPMock: the response was delayed \(delay) s, past the transport's timeout of \(timeout) s",
                ])
                engine.complete(entry, with: .failure(error))
                throw error
            }
            try await wait(delay, entry: entry)
            return try deliver(response, entry: entry, url: followed.request.url, method: followed.request.method, jar: jar)
        }
    }

    /// Completes the journal entry of a passthrough answer with what the real network gave, and stores its
    /// cookies as the mock's session would.
    package func completeDirect(_ entry: Int, with outcome: JournalEntry.Outcome, url: URL) {
        if case .response(_, let headers, _) = outcome {
            CookieJar(storage: core.options.current.cookieStorage).store(headers, for: url)
        }
        core.engine.complete(entry, with: outcome)
    }

    /// Suspends for `seconds` (nothing at all for 0); if the task is cancelled meanwhile, the entry is completed
    /// with `URLError(.cancelled)`, which is thrown, as a cancelled session task fails.
    private func wait(_ seconds: TimeInterval, entry: Int) async throws {
        guard seconds > 0 else { return }
        do {
            try await Task.sleep(nanoseconds: UInt64(min(seconds, 1e9) * 1e9))
        } catch {
            let cancelled = URLError(.cancelled)
            core.engine.complete(entry, with: .failure(cancelled))
            throw cancelled
        }
    }

    /// The response as it reaches the caller, the journal completed first (as the `URLProtocol` does).
    private func deliver(_ response: MockResponse, entry: Int, url: URL, method: String, jar: CookieJar) throws -> DirectAnswer {
        let engine = core.engine
        if case .failure(let error) = response.content {
            engine.complete(entry, with: .failure(error))
            throw error
        }
        let body: Data
        do {
            body = try ResponseBody.data(of: response)
        } catch {
            let failure = error as? URLError ?? URLError(.cannotOpenFile)
            engine.complete(entry, with: .failure(failure))
            throw failure
        }
        if let cut = response.truncation, cut < body.count {
            // Status, headers and part of the body, then the connection drops: a buffered caller sees the failure.
            let lost = URLError(.networkConnectionLost)
            engine.complete(entry, with: .failure(lost))
            throw lost
        }
        jar.store(response.headers, for: url)
        engine.complete(entry, with: .response(status: response.status.code, headers: response.headers, body: body))
        var headers = response.headers
        if !headers.keys.contains(where: { ASCIICase.equal($0, "content-length") }) {
            headers["Content-Length"] = String(body.count)
        }
        return .response(status: response.status.code, headers: headers, body: method == "HEAD" ? Data() : body, url: url)
    }
}
