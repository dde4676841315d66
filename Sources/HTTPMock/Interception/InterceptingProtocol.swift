import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLProtocol` that answers requests from a mock's engine.
///
/// The rules it keeps come from how corelibs Foundation drives a protocol on Linux (see
/// `docs/linux-urlsession.md` in the repository): the client is called only on URLSession's work queue, inside
/// `startLoading`; a delay or a passthrough re-enters through `task.suspend(); task.resume()` instead of calling
/// the client from another thread; nothing is delivered after a cancel; one response, one `didLoad`, one finish.
class InterceptingProtocol: URLProtocol {
    /// The mock that answers for this class. Overridden by each slot class and by the shared-session protocol.
    class func lookupCore() -> MockCore? { nil }

    /// Captured at creation: task-local routing is visible here, never in `startLoading`.
    private var core: MockCore?
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
    }

    /// What reaches the caller.
    enum Plan: Sendable {
        case response(MockResponse)
        case failure(any Error & Sendable)
        case upstream(status: Int, headers: [String: String], body: Data, url: URL?)
    }

    required init(request: URLRequest, cachedResponse: CachedURLResponse?, client: (any URLProtocolClient)?) {
        super.init(request: request, cachedResponse: cachedResponse, client: client)
        core = type(of: self).lookupCore()
    }

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
        let upstream = progress.withLock { progress in
            progress.stopped = true
            return progress.upstreamTask
        }
        upstream?.cancel()
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
        let captured = RequestCapture.capture(request, task: task)
        let (decision, entry) = core.engine.decide(captured)
        progress.withLock { $0.entry = entry }
        switch decision {
        case .respond(let response):
            let delay = response.delivery.seconds
            let timeout = request.timeoutInterval > 0 ? request.timeoutInterval : .infinity
            if delay >= timeout {
                schedule(.failure(URLError(.timedOut, userInfo: [
                    NSLocalizedDescriptionKey: "HTTPMock: the response was delayed \(delay) s, past the request's timeout of \(timeout) s",
                ])), after: timeout)
            } else if delay > 0 {
                schedule(.response(response), after: delay)
            } else {
                deliver(.response(response))
            }
        case .fail(let error):
            deliver(.failure(error))
        case .passthrough:
            passThrough(captured, using: core.passthroughSession)
        case .crash(let message):
            Swift.fatalError(message)
        }
    }

    /// Sends the request to the real network through `session`, which lists no mock, and delivers its answer.
    private func passThrough(_ captured: CapturedRequest, using session: URLSession) {
        var forwarded = request
        forwarded.httpBodyStream = nil
        forwarded.httpBody = captured.body
        let outgoing = forwarded
        let progress = self.progress
        let resume = reentry()
        // Starting a task on another session from inside `startLoading` deadlocks on Linux: hop first.
        DispatchQueue.global().async {
            let upstream = session.dataTask(with: outgoing) { data, response, error in
                let plan: Plan
                if let error {
                    plan = .failure(error as? URLError ?? URLError(.unknown, userInfo: [NSUnderlyingErrorKey: error]))
                } else if let http = response as? HTTPURLResponse {
                    var headers: [String: String] = [:]
                    for (key, value) in http.allHeaderFields { headers["\(key)"] = "\(value)" }
                    plan = .upstream(status: http.statusCode, headers: headers, body: data ?? Data(), url: http.url)
                } else {
                    plan = .failure(URLError(.badServerResponse))
                }
                resume(plan)
            }
            let cancelled = progress.withLock { progress -> Bool in
                progress.upstreamTask = upstream
                return progress.stopped
            }
            if cancelled { upstream.cancel() } else { upstream.resume() }
        }
    }

    private func schedule(_ plan: Plan, after seconds: TimeInterval) {
        let resume = reentry()
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { resume(plan) }
    }

    /// Delivers `plan` to the client. Must run where the client may be called (see ``reentry()``).
    func deliver(_ plan: Plan) {
        guard progress.withLock({ !$0.stopped }) else { return }
        let entry = progress.withLock { $0.entry }
        let outcome: JournalEntry.Outcome
        switch plan {
        case .failure(let error):
            client?.urlProtocol(self, didFailWithError: error)
            outcome = .failure(error)
        case .response(let response):
            if case .failure(let error) = response.content {
                client?.urlProtocol(self, didFailWithError: error)
                outcome = .failure(error)
                break
            }
            do {
                let body = try ResponseBody.data(of: response)
                send(status: response.status.code, headers: response.headers, body: body, url: request.url)
                outcome = .response(status: response.status.code, headers: response.headers, body: body)
            } catch {
                client?.urlProtocol(self, didFailWithError: error)
                outcome = .failure(error)
            }
        case .upstream(let status, let headers, let body, let url):
            send(status: status, headers: headers, body: body, url: url ?? request.url)
            outcome = .response(status: status, headers: headers, body: body)
        }
        if let entry, let core { core.engine.complete(entry, with: outcome) }
    }

    private func send(status: Int, headers: [String: String], body: Data, url: URL?) {
        let isHead = request.httpMethod?.uppercased() == "HEAD"
        var headers = headers
        if !headers.keys.contains(where: { ASCIICase.equal($0, "content-length") }) {
            headers["Content-Length"] = String(body.count)
        }
        let responseURL = url ?? URL(string: "about:blank")!
        guard let response = HTTPURLResponse(url: responseURL, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers) else {
            client?.urlProtocol(self, didFailWithError: URLError(.badServerResponse))
            return
        }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        if !isHead, !body.isEmpty { client?.urlProtocol(self, didLoad: body) }
        client?.urlProtocolDidFinishLoading(self)
    }
}

/// Reads a response's body when it is served.
enum ResponseBody {
    static func data(of response: MockResponse) throws -> Data {
        switch response.content {
        case .data(let data): return data
        case .failure: return Data()
        case .file(let url):
            do {
                return try Data(contentsOf: url, options: .mappedIfSafe)
            } catch {
                throw URLError(.cannotOpenFile, userInfo: [
                    NSLocalizedDescriptionKey: "HTTPMock: the response file \(url.path) could not be read: \(error.localizedDescription)",
                ])
            }
        }
    }
}
