import Foundation

/// Redirects followed inside the mock for a request answered without URLSession, the same way the
/// `URLProtocol` follows them for a session's request: each hop is decided by the engine again (and journalled
/// as its own request, completed with the 3xx), `Location` is resolved by ``Redirects/next(after:status:location:cookie:)``,
/// and the hops' delays add up.
enum RedirectFollowing {
    struct Followed {
        /// The last decision.
        var decision: Engine.Decision
        /// Its journal entry.
        var entry: Int
        /// The request it answers: the first one, or where the redirects led.
        var request: CapturedRequest
        /// The delays of the redirects on the way, added to the final delivery's.
        var delay: TimeInterval
    }

    static func follow(from request: CapturedRequest, engine: Engine, follows: Bool, maximum: Int, jar: CookieJar) -> Followed {
        var current = request
        var (decision, entry) = engine.decide(current)
        var delay: TimeInterval = 0
        var hops = 0
        while follows, case .respond(let response) = decision, response.followsRedirects,
              let location = response.redirectLocation {
            jar.store(response.headers, for: current.url)
            guard hops < maximum else {
                let error = URLError(.httpTooManyRedirects, userInfo: [
                    NSLocalizedDescriptionKey: "HTTPMock: more than \(maximum) redirects, the last from \(current.url.absoluteString) to \(location) (a loop?); raise HTTPMock.maximumRedirects or turn following off",
                ])
                return Followed(decision: .fail(error), entry: entry, request: current, delay: delay)
            }
            guard let next = Redirects.next(after: current, status: response.status.code, location: location,
                                            cookie: { jar.header(for: $0) }) else {
                let error = URLError(.badServerResponse, userInfo: [
                    NSLocalizedDescriptionKey: "HTTPMock: the redirect from \(current.url.absoluteString) has a Location that is not an http(s) URL: \(location)",
                ])
                return Followed(decision: .fail(error), entry: entry, request: current, delay: delay)
            }
            engine.complete(entry, with: .response(status: response.status.code, headers: response.headers, body: Data()))
            hops += 1
            delay += response.delivery.headerSeconds
            current = next
            (decision, entry) = engine.decide(current)
        }
        return Followed(decision: decision, entry: entry, request: current, delay: delay)
    }
}
