import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a request stands while its redirects are followed.
struct RedirectWalk: Sendable {
    /// The request being decided: the original, or where the last redirect pointed.
    var current: CapturedRequest
    var hops = 0
    /// The delays of the redirects on the way (added to the final delivery's).
    var delay: TimeInterval = 0

    /// What a walk ends with.
    enum Result: Sendable {
        /// The last decision and its journal entry, the request it answers, and the redirects' delays.
        case decided(Engine.Decision, entry: Int, request: CapturedRequest, delay: TimeInterval)
        /// A hop needs user code: finish `deferred`, then go on from `walk`.
        case deferred(Engine.Deferred, walk: RedirectWalk)
    }

    /// Follows redirects the mock answers with from `first`, the decision for ``current``: each hop is decided by
    /// `decide` (and journaled as its own request). URLSession cannot follow them for a `URLProtocol` on Linux
    /// (calling `wasRedirectedTo` is a fatal error there), so the mock does, the same way on every platform and
    /// for every face that answers as a client would (the `URLProtocol`, ``HTTPMock/answer(_:as:)``).
    mutating func follow(_ first: (decision: Engine.Decision, entry: Int), engine: Engine, options: InterceptionOptions,
                         jar: CookieJar?, decide: (CapturedRequest) -> Engine.Attempt) -> Result {
        let (follows, maximum) = (options.followsRedirects, options.maximumRedirects)
        var (decision, entry) = first
        while follows, case .respond(let response) = decision, response.followsRedirects,
              let location = response.redirectLocation {
            jar?.store(response.headers, for: current.url)
            guard hops < maximum else {
                let error = URLError(.httpTooManyRedirects, userInfo: [
                    NSLocalizedDescriptionKey: "HTTPMock: more than \(maximum) redirects, the last from \(current.url.absoluteString) to \(location) (a loop?); raise HTTPMock.maximumRedirects or turn following off",
                ])
                return .decided(.fail(error), entry: entry, request: current, delay: delay)
            }
            guard let next = Redirects.next(after: current, status: response.status.code, location: location,
                                            cookie: { jar?.header(for: $0) }) else {
                let error = URLError(.badServerResponse, userInfo: [
                    NSLocalizedDescriptionKey: "HTTPMock: the redirect from \(current.url.absoluteString) has a Location that is not an http(s) URL: \(location)",
                ])
                return .decided(.fail(error), entry: entry, request: current, delay: delay)
            }
            engine.complete(entry, with: .response(status: response.status.code, headers: response.headers, body: Data()))
            hops += 1
            delay += response.delivery.headerSeconds
            current = next
            switch decide(current) {
            case .decided(let made, let madeEntry): (decision, entry) = (made, madeEntry)
            case .deferred(let deferred): return .deferred(deferred, walk: self)
            }
        }
        return .decided(decision, entry: entry, request: current, delay: delay)
    }
}
