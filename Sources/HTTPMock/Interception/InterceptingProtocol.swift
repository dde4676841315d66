import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLProtocol` that answers requests from a mock's engine.
///
/// The rules it keeps come from how corelibs Foundation drives a protocol on Linux (see
/// `Sources/HTTPMock/HTTPMock.docc/Articles/Linux.md`): the client is called only on URLSession's work queue, inside
/// `startLoading`; a delay or a passthrough re-enters through `task.suspend(); task.resume()` instead of calling
/// the client from another thread; nothing is delivered after a cancel; one response, one `didLoad`, one finish.
class InterceptingProtocol: URLProtocol {
    /// The mock that answers for this class. Overridden by each slot class and by the shared-session protocol.
    class func lookupCore() -> MockCore? { nil }

    /// Captured at creation: task-local routing is visible here, never in `startLoading`.
    private var core: MockCore?
    /// The mock that answers, for the extensions of this class.
    var currentCore: MockCore? { core }
    /// Shared with timers and passthrough callbacks, which must not touch the protocol itself.
    let progress = Locked(Progress())

    struct Progress {
        var started = false
        var stopped = false
        /// What to deliver when the work queue comes back; `due` once its time has come.
        var pending: Plan?
        var due = false
        var entry: Int?
        var upstreamTask: URLSessionTask?
        var delivered = false
        /// The URL of the response: the request's, or where followed redirects ended.
        var responseURL: URL?
        /// A streamed body going out (``startStream(_:status:headers:url:entry:)``).
        var stream: StreamDelivery?
    }

    /// What reaches the caller.
    enum Plan: Sendable {
        case response(MockResponse)
        case failure(any Error & Sendable)
        case upstream(status: Int, headers: [String: String], body: Data, url: URL?)
        /// The real server's answer is a stream: its head, and the stream its parts arrive on.
        case upstreamStream(status: Int, headers: [String: String], url: URL?, parts: MockStream)
        /// A decision made away from the work queue (user code ran): act on it as ``decide()`` would have.
        case decided(Engine.Decision, entry: Int, request: CapturedRequest, redirectDelay: TimeInterval)
        /// The next event of the streamed body going out, now due.
        case streamed(StreamEvent)
    }

    // Corelibs Foundation declares this initializer `required`; Apple's Foundation does not, so there it is an override.
    #if canImport(FoundationNetworking)
    required init(request: URLRequest, cachedResponse: CachedURLResponse?, client: (any URLProtocolClient)?) {
        super.init(request: request, cachedResponse: cachedResponse, client: client)
        core = type(of: self).lookupCore()
    }
    #else
    override init(request: URLRequest, cachedResponse: CachedURLResponse?, client: (any URLProtocolClient)?) {
        super.init(request: request, cachedResponse: cachedResponse, client: client)
        core = type(of: self).lookupCore()
    }
    #endif

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        enum Step { case nothing, decide, deliver(Plan) }
        let step: Step = progress.withLock { progress in
            if progress.stopped { return .nothing }
            if progress.started {
                guard progress.due, let plan = progress.pending else { return .nothing }
                progress.pending = nil
                progress.due = false
                return .deliver(plan)
            }
            progress.started = true
            return .decide
        }
        switch step {
        case .nothing: return
        case .deliver(let plan): deliver(plan)
        case .decide: decide()
        }
    }

    override func stopLoading() {
        #if canImport(FoundationNetworking)
        // Corelibs also stops the protocol for our own suspend/resume re-entry: that is not a cancel.
        if task?.state == .suspended { return }
        #endif
        let (upstream, unfinished, stream) = progress.withLock { progress in
            progress.stopped = true
            let stream = progress.stream
            progress.stream = nil
            return (progress.upstreamTask, progress.delivered ? nil : progress.entry, stream)
        }
        if let unfinished, let core { core.engine.complete(unfinished, with: .failure(URLError(.cancelled))) }
        if let stream {
            // The caller went away mid-stream: free the playback, and say so in the journal.
            stream.playback.cancel()
            stream.idleTimer?.cancel()
            if let entry = stream.entry { core?.engine.endStream(entry, .clientWentAway) }
        }
        // Cancelling a task of another session from here (URLSession's one work queue) syncs onto that same
        // queue and traps on Linux: hop first, as when starting it.
        if let upstream { DispatchQueue.global().async { upstream.cancel() } }
    }

    private func decide() {
        guard let core else {
            deliver(.failure(URLError(.resourceUnavailable, userInfo: [
                NSLocalizedDescriptionKey: "HTTPMock: no mock answers this session (its HTTPMock was released, or no mock is in scope for URLSession.shared)",
            ])))
            return
        }
        #if canImport(FoundationNetworking)
        if task is URLSessionDownloadTask {
            deliver(.failure(URLError(.unsupportedURL, userInfo: [
                NSLocalizedDescriptionKey: "HTTPMock: download tasks cannot be answered by a URLProtocol on Linux (corelibs Foundation); use data(for:) and write the file yourself",
            ])))
            return
        }
        #endif
        let options = core.options.current
        var captured = RequestCapture.capture(request, task: task)
        #if !canImport(FoundationNetworking)
        // Corelibs adds stored cookies to the request itself; elsewhere add them if the caller set none.
        if captured.headers["Cookie"] == nil, let cookie = cookieJar(options)?.header(for: captured.url) {
            var headers = captured.headers
            headers.add("Cookie", cookie)
            captured = CapturedRequest(method: captured.method, url: captured.url, headers: headers, body: captured.body)
        }
        #endif
        do {
            captured = try RequestContentCoding.decoding(captured, limit: RequestContentCoding.inProcessLimit)
        } catch {
            deliver(.failure(URLError(.cannotDecodeRawData, userInfo: [NSLocalizedDescriptionKey: RequestContentCoding.refusal(error)])))
            return
        }
        let result: RedirectWalk.Result
        switch core.engine.attempt(captured) {
        case .decided(let decision, let entry):
            // Most answers are no redirect to follow: they need no walk.
            guard options.followsRedirects, case .respond(let response) = decision, response.followsRedirects,
                  response.redirectLocation != nil else {
                act(on: decision, entry: entry, request: captured, redirectDelay: 0)
                return
            }
            var walk = RedirectWalk(current: captured)
            result = walk.follow((decision, entry), engine: core.engine, options: options, jar: cookieJar(options),
                                 decide: core.engine.attempt)
        case .deferred(let deferred):
            result = .deferred(deferred, walk: RedirectWalk(current: captured))
        }
        switch result {
        case .decided(let decision, let entry, let request, let delay):
            act(on: decision, entry: entry, request: request, redirectDelay: delay)
        case .deferred(let deferred, let walk):
            decideElsewhere(deferred, from: walk, core: core, options: options, jar: cookieJar(options))
        }
    }

    /// The cookie storage of this request's session, for a redirect to follow, a passthrough or a `Set-Cookie` to
    /// keep: made only then, so the requests that need none (most) pay nothing for it. `nil` without a mock.
    func cookieJar(_ options: InterceptionOptions? = nil) -> CookieJar? {
        guard let core else { return nil }
        return CookieJar(task: task, request: request, fallback: (options ?? core.options.current).cookieStorage)
    }

    /// Finishes a decision that runs user code (matchers, regular expressions, dynamic responses) on a queue of
    /// its own, never on URLSession's work queue: a slow or blocking closure then delays only this request. The
    /// request's timeout applies while it runs; the decision comes back through ``reentry()``.
    private func decideElsewhere(_ deferred: Engine.Deferred, from walk: RedirectWalk, core: MockCore,
                                 options: InterceptionOptions, jar: CookieJar?) {
        let resume = reentry()
        let progress = self.progress
        // The decision and the timeout race: the first to claim answers the caller.
        let settled = Locked(false)
        let claim: @Sendable () -> Bool = {
            settled.withLock { settled in
                defer { settled = true }
                return !settled
            }
        }
        let timeouts = Timeouts(request: request, configuration: TaskSession.configuration(of: task))
        let limit = min(timeouts.idle, timeouts.resource)
        if limit.isFinite {
            DispatchQueue.global().asyncAfter(deadline: .now() + limit) {
                guard claim() else { return }
                resume(.failure(URLError(.timedOut, userInfo: [
                    NSLocalizedDescriptionKey: "HTTPMock: no answer within the request's timeout of \(limit) s: a matcher or dynamic response of this mock was still running",
                ])))
            }
        }
        // A serial queue of its own (so a thread of its own while the closure blocks), not a shared one.
        DispatchQueue(label: "HTTPMock.userCode").async {
            var result = RedirectWalk.Result.deferred(deferred, walk: walk)
            while case .deferred(let pending, var next) = result {
                result = next.follow(core.engine.finish(pending), engine: core.engine, options: options, jar: jar,
                                     decide: core.engine.attempt)
            }
            guard case .decided(let decision, let entry, let request, let delay) = result else { return }
            guard claim() else {
                // The caller already got the timeout: the journal says so too.
                core.engine.complete(entry, with: .failure(URLError(.timedOut)))
                return
            }
            let live = progress.withLock { progress -> Bool in
                guard !progress.stopped else { return false }
                progress.entry = entry
                return true
            }
            guard live else {
                core.engine.complete(entry, with: .failure(URLError(.cancelled)))
                return
            }
            resume(.decided(decision, entry: entry, request: request, redirectDelay: delay))
        }
    }

    /// Carries out a decision, on the work queue.
    private func act(on decision: Engine.Decision, entry: Int, request captured: CapturedRequest, redirectDelay: TimeInterval) {
        guard let core else { return }
        progress.withLock { progress in
            progress.entry = entry
            progress.responseURL = captured.url
        }
        switch decision {
        case .respond(let response) where response.forwarding != nil:
            // Another server answers (a WireMock mapping's proxyBaseUrl): as a passthrough, to the stub's target.
            passThrough(response.forwarding!.request(for: captured), using: core.passthroughSession, jar: cookieJar())
        case .respond(let response):
            let headers = response.delivery.headerSeconds + redirectDelay
            var total = headers
            if case .throttled = response.delivery {
                total = response.delivery.totalSeconds(bodyBytes: ResponseBody.size(of: response)) + redirectDelay
            }
            guard total > 0 else {
                deliver(.response(response))
                return
            }
            // URLSession applies no timeout to a URLProtocol (on Linux): apply the request's and the session's here.
            let timeouts = Timeouts(request: request, configuration: TaskSession.configuration(of: task))
            if let expiry = timeouts.expiry(headers: headers, total: total) {
                schedule(.failure(URLError(.timedOut, userInfo: [
                    NSLocalizedDescriptionKey: "HTTPMock: the response would arrive after \(total) s (headers after \(headers) s), past \(expiry.name)",
                ])), after: expiry.after)
            } else {
                schedule(.response(response), after: total)
            }
        case .fail(let error):
            if redirectDelay > 0 { schedule(.failure(error), after: redirectDelay) } else { deliver(.failure(error)) }
        case .passthrough:
            passThrough(captured, using: core.passthroughSession, jar: cookieJar())
        case .crash(let message):
            Swift.fatalError(message)
        }
    }

    /// Sends the request to the real network through `session`, which lists no mock, and delivers its answer.
    private func passThrough(_ captured: CapturedRequest, using session: URLSession, jar: CookieJar?) {
        var forwarded = request
        forwarded.httpBodyStream = nil
        forwarded.httpBody = captured.bodyAsSent
        if captured.url != request.url {
            // After a followed redirect: the request as redirected.
            forwarded.url = captured.url
            forwarded.httpMethod = captured.method
            forwarded.allHTTPHeaderFields = captured.headers.dictionary
        }
        // The default passthrough session is shared and keeps no cookies: the mock's own jar supplies them.
        if forwarded.value(forHTTPHeaderField: "Cookie") == nil, let cookie = jar?.header(for: captured.url) {
            forwarded.setValue(cookie, forHTTPHeaderField: "Cookie")
        }
        let outgoing = forwarded
        let progress = self.progress
        let resume = reentry()
        // Starting a task on another session from inside `startLoading` deadlocks on Linux: hop first.
        DispatchQueue.global().async {
            let upstream: URLSessionTask
            if session === SessionFactory.sharedPassthroughSession {
                // The default session reports to a delegate: a streamed answer goes on part by part as it arrives.
                let task = session.dataTask(with: outgoing)
                SessionFactory.passthroughRelay.register(task, PassthroughRelay.Handler(
                    head: { http in
                        guard http.isStreamedBody else { return nil }
                        let parts = MockStream(relayedAt: Date())
                        resume(.upstreamStream(status: http.statusCode, headers: Self.fields(of: http), url: http.url,
                                               parts: parts))
                        return parts
                    },
                    completed: { response, body, error in
                        if let response, response.isStreamedBody { return }  // the stream carries the rest
                        resume(Self.plan(data: body, response: response, error: error))
                    }))
                upstream = task
            } else {
                upstream = session.dataTask(with: outgoing) { data, response, error in
                    resume(Self.plan(data: data ?? Data(), response: response, error: error))
                }
            }
            let cancelled = progress.withLock { progress -> Bool in
                progress.upstreamTask = upstream
                return progress.stopped
            }
            if cancelled { upstream.cancel() } else { upstream.resume() }
        }
    }

    /// What the caller gets of the passthrough session's answer.
    private static func plan(data: Data, response: URLResponse?, error: (any Error)?) -> Plan {
        if let error {
            // The caller gets the passthrough session's error as it is, whatever its type.
            return .failure(error as? URLError ?? UpstreamError(error))
        } else if let http = response as? HTTPURLResponse {
            return .upstream(status: http.statusCode, headers: fields(of: http), body: data, url: http.url)
        }
        return .failure(URLError(.badServerResponse))
    }

    private static func fields(of response: HTTPURLResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for (key, value) in response.allHeaderFields { headers["\(key)"] = "\(value)" }
        return headers
    }

    private func schedule(_ plan: Plan, after seconds: TimeInterval) {
        let resume = reentry()
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { resume(plan) }
    }

    /// Delivers `plan` to the client. Must run where the client may be called (see ``reentry()``).
    ///
    /// The journal is completed first, so code that awaits the request sees the outcome in the journal.
    func deliver(_ plan: Plan) {
        if case .decided(let decision, let entry, let captured, let delay) = plan {
            act(on: decision, entry: entry, request: captured, redirectDelay: delay)
            return
        }
        if case .streamed(let event) = plan {
            continueStream(with: event)
            return
        }
        let claimed: (entry: Int?, url: URL?)? = progress.withLock { progress in
            guard !progress.stopped else { return nil }
            progress.delivered = true
            return (progress.entry, progress.responseURL ?? request.url)
        }
        guard let (entry, responseURL) = claimed else { return }
        let wire: Wire
        switch plan {
        case .failure(let error):
            wire = .failure(error)
        case .response(let response):
            if case .failure(let error) = response.content {
                wire = .failure(error)
            } else if case .webSocket = response.content {
                wire = .failure(MockResponse.webSocketUnsupported)
            } else if case .stream(let source) = response.content {
                startStream(source, status: response.status.code, headers: response.headers, url: responseURL,
                            entry: entry)
                return
            } else {
                do {
                    let body = try ResponseBody.data(of: response)
                    if let cut = response.truncation, cut < body.count {
                        var headers = response.headers
                        if !headers.keys.contains(where: { ASCIICase.equal($0, "content-length") }) {
                            headers["Content-Length"] = String(body.count)  // the length promised, not the length sent
                        }
                        wire = .truncated(status: response.status.code, headers: headers,
                                          body: body.prefix(cut), url: responseURL)
                    } else {
                        if let responseURL, response.wire?.setsCookies ?? CookieJar.setsCookies(response.headers) {
                            cookieJar()?.store(response.headers, for: responseURL)
                        }
                        wire = .response(status: response.status.code, headers: response.headers, body: body, url: responseURL,
                                         form: response.wire)
                    }
                } catch {
                    wire = .failure(error as? URLError ?? URLError(.cannotOpenFile))
                }
            }
        case .decided, .streamed:
            return  // handled above
        case .upstreamStream(let status, let headers, let url, let parts):
            startStream(StreamSource(.live(parts)), status: status, headers: headers, url: url ?? responseURL, entry: entry)
            return
        case .upstream(let status, let headers, let body, let url):
            if let url = url ?? responseURL, CookieJar.setsCookies(headers) { cookieJar()?.store(headers, for: url) }
            wire = .response(status: status, headers: headers, body: body, url: url ?? responseURL, form: nil)
        }
        if let entry, let core {
            switch wire {
            case .failure(let error): core.engine.complete(entry, with: .failure(error))
            case .truncated: core.engine.complete(entry, with: .failure(URLError(.networkConnectionLost)))
            case .response(let status, let headers, let body, _, _):
                core.engine.complete(entry, with: .response(status: status, headers: headers, body: body))
            }
        }
        switch wire {
        case .failure(let error): client?.urlProtocol(self, didFailWithError: (error as? UpstreamError)?.error ?? error)
        case .response(let status, let headers, let body, let url, let form):
            send(status: status, headers: headers, form: form, body: body, url: url)
        case .truncated(let status, let headers, let body, let url):
            send(status: status, headers: headers, body: body, url: url, thenFail: URLError(.networkConnectionLost))
        }
    }

    /// Exactly what goes to the client.
    private enum Wire {
        /// `form`: how the response goes out, if its stub's queue keeps it (headers with `Content-Length` already).
        case response(status: Int, headers: [String: String], body: Data, url: URL?, form: WireForm?)
        case failure(any Error & Sendable)
        /// Status, headers and part of the body, then the connection drops.
        case truncated(status: Int, headers: [String: String], body: Data, url: URL?)
    }

    private func send(status: Int, headers: [String: String], form: WireForm? = nil, body: Data, url: URL?,
                      thenFail failure: URLError? = nil) {
        let isHead = ASCIICase.equal(request.httpMethod ?? "GET", "head")
        let responseURL = url ?? URL(string: "about:blank")!
        let made: HTTPURLResponse?
        if let form {
            // A response served again to the same URL goes out as the same (immutable) object.
            made = form.object(for: responseURL) {
                HTTPURLResponse(url: responseURL, statusCode: status, httpVersion: "HTTP/1.1",
                                headerFields: AuthenticationChallenge.deliverable(form.headers, status: status))
            }
        } else {
            var headers = headers
            if !headers.keys.contains(where: { ASCIICase.equal($0, "content-length") }) {
                headers["Content-Length"] = String(body.count)
            }
            made = HTTPURLResponse(url: responseURL, statusCode: status, httpVersion: "HTTP/1.1",
                                   headerFields: AuthenticationChallenge.deliverable(headers, status: status))
        }
        guard let response = made else {
            client?.urlProtocol(self, didFailWithError: URLError(.badServerResponse))
            return
        }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        if !isHead, !body.isEmpty { client?.urlProtocol(self, didLoad: body) }
        if let failure {
            client?.urlProtocol(self, didFailWithError: failure)
        } else {
            client?.urlProtocolDidFinishLoading(self)
        }
    }
}

/// An error of the passthrough session, carried unchanged to the caller.
///
/// The journal keeps this box (its description is the error's); the caller gets the error itself.
struct UpstreamError: Error, CustomStringConvertible, @unchecked Sendable {  // reason: the error is only handed on (to the client and the journal), never mutated; URLSession's callback types it as a plain `any Error`
    let error: any Error

    init(_ error: any Error) { self.error = error }

    var description: String { String(describing: error) }
}
