import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The one door through which the package's faces outside URLSession (HTTPMockServer, HTTPMockOpenAPI) reach a
// mock's engine: `package`, so no part of the public API. A face answers a request here, carries the answer out
// its own way (over a socket, as a `ClientTransport`), and completes the journal entry when it is done.

extension HTTPMock {
    /// Whose behaviour an answer has.
    package enum Role: Sendable {
        /// As the mock's ``urlSession`` would answer its caller: stored cookies are sent, redirects are followed
        /// (``followsRedirects``, ``maximumRedirects``), and each hop is journaled as its own request.
        case client
        /// As a server answers on the wire: no cookie added, no redirect followed (the client does both).
        case server
    }

    /// A decided request.
    package enum Answer: Sendable {
        /// Send this response. A ``NetworkFault`` other than a truncated body, a failure response and the
        /// policies' errors are ``fail(_:)`` instead.
        case respond(WireResponse)
        /// Fail the request as the network would, after `after` seconds (the failure response's delay, and those
        /// of the redirects the mock followed first): the error says how (a `URLError`, or any error of an unmocked policy or a failure
        /// response).
        case fail(any Error & Sendable, after: TimeInterval)
        /// The request goes to the real network, as it is given here (redirected and with cookies, for
        /// ``Role/client``); the face sends it and completes the entry with what came back.
        case passthrough(CapturedRequest)
        /// A stub's answer is another server's (a WireMock mapping's `proxyBaseUrl`): send this request, to exactly
        /// its URL, and relay what comes back; complete the entry with it.
        case forward(CapturedRequest)
        /// The unmocked policy is ``UnmockedPolicy/fatalError``: stop the process with this message.
        case crash(String)
    }

    /// Decides `request` with this mock's stubs and unmocked policy, and journals it, as intercepted requests
    /// are. User code (matchers, dynamic responses) runs on the caller's thread, never under the engine's lock.
    /// Complete the returned entry with ``complete(_:with:cookiesFor:)`` once the answer is carried out.
    package func answer(_ request: CapturedRequest, as role: Role) -> (answer: Answer, entry: Int) {
        let engine = core.engine
        guard role == .client else {
            let (decision, entry) = engine.decide(request)
            return (Self.answer(decision, request: request, delay: 0), entry)
        }
        let options = core.options.current
        let jar = CookieJar(storage: options.cookieStorage)
        var request = request
        if request.headers["Cookie"] == nil, let cookie = jar.header(for: request.url) {
            var headers = request.headers
            headers.add("Cookie", cookie)
            request = CapturedRequest(method: request.method, url: request.url, headers: headers, body: request.body)
        }
        var walk = RedirectWalk(current: request)
        let result = walk.follow(engine.decide(request), engine: engine, options: options, jar: jar,
                             decide: { let (decision, entry) = engine.decide($0); return .decided(decision, entry: entry) })
        guard case .decided(let decision, let entry, let answered, let delay) = result else {
            preconditionFailure("a walk whose hops are all decided ends decided")
        }
        return (Self.answer(decision, request: answered, delay: delay), entry)
    }

    /// What ``attemptAnswer(_:)`` got to.
    package enum Attempt: Sendable {
        /// Decided without user code, as ``answer(_:as:)`` with ``Role/server`` would have.
        case answered(Answer, entry: Int)
        /// Deciding runs user code (a custom matcher, a regular expression, a dynamic response, a body
        /// template): call ``finishAnswer(_:)`` where it may run.
        case pending(PendingAnswer)
    }

    /// A decision that waits for user code.
    package struct PendingAnswer: Sendable {
        fileprivate let deferred: Engine.Deferred
        fileprivate let request: CapturedRequest
    }

    /// ``answer(_:as:)`` with ``Role/server``, in two halves for a face that must not run user code where it
    /// runs (a server's event loop): this one decides what needs no user code, under the engine's lock, and
    /// journals it; a request that needs user code comes back pending, nothing journaled yet.
    package func attemptAnswer(_ request: CapturedRequest) -> Attempt {
        switch core.engine.attempt(request) {
        case .decided(let decision, let entry): .answered(Self.answer(decision, request: request, delay: 0), entry: entry)
        case .deferred(let deferred): .pending(PendingAnswer(deferred: deferred, request: request))
        }
    }

    /// Goes on with a pending decision where the caller is (a server's event loop) when what it waits for is only
    /// this package's own bounded work (regular expressions of mapping files and matchers, body templates) and that
    /// work is small: `.answered`, or `.pending` with what is left for ``finishAnswer(_:)`` where user code may
    /// run. No matcher or response a user wrote runs here (the journal's observers are told of an entry, as for
    /// every request decided where it arrives).
    package func continueInPlace(_ pending: PendingAnswer) -> Attempt {
        switch core.engine.attemptInPlace(pending.deferred) {
        case .decided(let decision, let entry): .answered(Self.answer(decision, request: pending.request, delay: 0), entry: entry)
        case .deferred(let deferred): .pending(PendingAnswer(deferred: deferred, request: pending.request))
        }
    }

    /// Runs the user code of a pending decision and finishes it, journaled.
    package func finishAnswer(_ pending: PendingAnswer) -> (answer: Answer, entry: Int) {
        let (decision, entry) = core.engine.finish(pending.deferred)
        return (Self.answer(decision, request: pending.request, delay: 0), entry)
    }

    /// The stubs closest to `request` and how each differs, as a miss would report them; nothing is decided or
    /// journaled (WireMock's `POST /__admin/near-misses/request`).
    package func nearMissReport(for request: CapturedRequest) -> UnmatchedReport {
        core.engine.report(for: request)
    }

    /// Records what became of the request journaled as `entry`, which wakes waits on it. With `url`, the
    /// cookies of a response are stored as the mock's session stores them (for ``Role/client``).
    package func complete(_ entry: Int, with outcome: JournalEntry.Outcome, cookiesFor url: URL? = nil) {
        if let url, case .response(_, let headers, _) = outcome {
            CookieJar(storage: core.options.current.cookieStorage).store(headers, for: url)
        }
        core.engine.complete(entry, with: outcome)
    }

    private static func answer(_ decision: Engine.Decision, request: CapturedRequest, delay: TimeInterval) -> Answer {
        switch decision {
        case .passthrough: return .passthrough(request)
        case .fail(let error): return .fail(error, after: delay)
        case .crash(let message): return .crash(message)
        case .respond(let response):
            if let forwarding = response.forwarding { return .forward(forwarding.request(for: request)) }
            if case .failure(let error) = response.content {
                return .fail(error, after: delay + response.delivery.headerSeconds)
            }
            return .respond(WireResponse(response, url: request.url, extraDelay: delay))
        }
    }
}

// A streamed response (``WireResponse/isStreamed``): the face starts its playback (``WireResponse/playback()``),
// tells the journal when the headers go out, as each part reaches the client, and how the stream ended; the last
// completes the entry (do not also call ``HTTPMock/complete(_:with:cookiesFor:)``).
extension HTTPMock {
    /// The headers of `entry`'s streamed response went out.
    package func beginStream(_ entry: Int, status: Int, headers: [String: String], at date: Date? = nil) {
        core.engine.beginStream(entry, status: status, headers: headers, at: date ?? Date(), relayed: date != nil)
    }

    /// A part of `entry`'s streamed response reached the client.
    package func streamed(_ entry: Int, part: Data) {
        core.engine.streamed(entry, parts: [part])
    }

    /// Parts of `entry`'s streamed response reached the client, in this order.
    package func streamed(_ entry: Int, parts: [Data], at dates: [Date]? = nil) {
        core.engine.streamed(entry, parts: parts, at: dates)
    }

    /// `entry`'s stream ended; the entry is completed.
    package func endStream(_ entry: Int, _ ending: StreamRecord.Ending) {
        core.engine.endStream(entry, ending)
    }
}

// A WebSocket conversation (``WireResponse/Body/webSocket(_:)``): the server tells the journal when it opened, each
// message both ways, and how it closed. Complete the entry with the 101 response when the upgrade goes out.
extension HTTPMock {
    package func beginWebSocket(_ entry: Int) { core.engine.beginWebSocket(entry) }

    package func webSocketMessage(_ entry: Int, _ message: WebSocketMessage, fromClient: Bool) {
        core.engine.webSocketMessage(entry, message, fromClient: fromClient)
    }

    package func endWebSocket(_ entry: Int, code: Int?) { core.engine.endWebSocket(entry, code: code) }
}
