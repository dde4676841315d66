import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What interception needs from a mock: its engine, and the session that carries passthrough requests.
final class MockCore: Sendable {
    let engine: Engine
    /// The session the user passed for `.passthrough`; `nil`: the shared default one, made when first needed.
    private let customPassthroughSession: URLSession?
    /// How interception follows redirects and keeps cookies.
    let options = Locked(InterceptionOptions())

    init(engine: Engine, passthroughSession: URLSession?) {
        self.engine = engine
        customPassthroughSession = passthroughSession
        WebhookSender.install(on: self)
    }

    /// A session without any mock in it, for `.passthrough`: the user's, or one default session for every mock
    /// (each URLSession holds file descriptors, so a session per mock would limit how many mocks can live).
    var passthroughSession: URLSession { customPassthroughSession ?? SessionFactory.sharedPassthroughSession }
}

/// Per-mock settings of the interception layer.
struct InterceptionOptions {
    /// Follow 3xx responses with a `Location` inside the mock.
    var followsRedirects = true
    /// Hops followed before a request fails with `URLError(.httpTooManyRedirects)`.
    var maximumRedirects = 10
    /// The cookie storage of the mock's own session: where `Set-Cookie` goes when the task's session cannot be
    /// found (Apple platforms), and where cookies for followed redirects come from.
    var cookieStorage: HTTPCookieStorage?
}
