import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension InterceptingProtocol {
    /// Decides `request`, then follows redirects the mock answers with, each hop decided by the engine again
    /// (and journalled as its own request). URLSession cannot follow them for a `URLProtocol` on Linux (calling
    /// `wasRedirectedTo` is a fatal error there), so the mock does, the same way on every platform.
    ///
    /// - Returns: The last decision and its journal entry, the request it answers, and the delays of the
    ///   redirects on the way (added to the final delivery's).
    func followRedirects(from request: CapturedRequest, core: MockCore, options: InterceptionOptions, jar: CookieJar)
        -> (Engine.Decision, Int, CapturedRequest, TimeInterval) {
        let (follows, maximum) = (options.followsRedirects, options.maximumRedirects)
        var current = request
        var (decision, entry) = core.engine.decide(current)
        var delay: TimeInterval = 0
        var hops = 0
        while follows, case .respond(let response) = decision, response.followsRedirects,
              let location = response.redirectLocation {
            jar.store(response.headers, for: current.url)
            guard hops < maximum else {
                let error = URLError(.httpTooManyRedirects, userInfo: [
                    NSLocalizedDescriptionKey: "HTTPMock: more than \(maximum) redirects, the last from \(current.url.absoluteString) to \(location) (a loop?); raise HTTPMock.maximumRedirects or turn following off",
                ])
                return (.fail(error), entry, current, delay)
            }
            guard let next = Redirects.next(after: current, status: response.status.code, location: location,
                                            cookie: { jar.header(for: $0) }) else {
                let error = URLError(.badServerResponse, userInfo: [
                    NSLocalizedDescriptionKey: "HTTPMock: the redirect from \(current.url.absoluteString) has a Location that is not an http(s) URL: \(location)",
                ])
                return (.fail(error), entry, current, delay)
            }
            core.engine.complete(entry, with: .response(status: response.status.code, headers: response.headers, body: Data()))
            hops += 1
            delay += response.delivery.headerSeconds
            current = next
            (decision, entry) = core.engine.decide(current)
        }
        return (decision, entry, current, delay)
    }
}
