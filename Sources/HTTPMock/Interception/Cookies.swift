import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The cookie storage of the session a request came from, so that mocked responses set cookies as a real
/// server would.
///
/// URLSession stores `Set-Cookie` only for its built-in HTTP protocol, never for a `URLProtocol`'s responses
/// (measured on Linux; OHHTTPStubs and others store them by hand on Apple platforms too). On Linux the task's
/// session is found by reflection (`URLSessionTask.session` is internal); elsewhere, or if that field is
/// renamed, the storage of the mock's own ``HTTPMock/urlSession`` is used.
///
/// The session is looked up only when a cookie is to be stored or sent, so requests without cookies pay nothing.
struct CookieJar {
    /// Weak: the task owns the protocol that keeps this jar.
    private weak var task: URLSessionTask?
    private let fallback: HTTPCookieStorage?
    private let requestAllows: Bool

    init(task: URLSessionTask?, request: URLRequest, fallback: HTTPCookieStorage?) {
        self.task = task
        self.fallback = fallback
        requestAllows = request.httpShouldHandleCookies
    }

    /// A jar for a request that no `URLSessionTask` carries (``HTTPMock/answer(_:as:)``): it uses
    /// `storage`, the storage of the mock's own session.
    init(storage: HTTPCookieStorage?) {
        task = nil
        fallback = storage
        requestAllows = true
    }

    /// The storage to use, or `nil` when the request or its session turned cookie handling off.
    ///
    /// Never `HTTPCookieStorage.shared` (the storage of `URLSession.shared` and `.default` configurations): it is
    /// process-wide and saved to disk, and mocked cookies must not leak between tests or into the user's jar.
    private var storage: HTTPCookieStorage? {
        guard requestAllows else { return nil }
        guard let configuration = TaskSession.configuration(of: task) else { return fallback }
        guard configuration.httpShouldSetCookies, let storage = configuration.httpCookieStorage,
              storage !== HTTPCookieStorage.shared else { return nil }
        return storage
    }

    /// Whether `headers` hold a `Set-Cookie`: without one there is nothing to store, and no jar to look up.
    static func setsCookies(_ headers: [String: String]) -> Bool {
        headers.keys.contains(where: { ASCIICase.equal($0, "set-cookie") })
    }

    /// Stores the cookies of a response's `Set-Cookie` header (several may be joined with commas).
    func store(_ headers: [String: String], for url: URL) {
        guard Self.setsCookies(headers), let storage else { return }
        var fields: [String: String] = [:]
        for (name, value) in headers where ASCIICase.equal(name, "set-cookie") {
            fields["Set-Cookie"] = fields["Set-Cookie"].map { "\($0), \(value)" } ?? value
        }
        let cookies = HTTPCookie.cookies(withResponseHeaderFields: fields, for: url)
        guard !cookies.isEmpty else { return }
        storage.setCookies(cookies, for: url, mainDocumentURL: nil)
    }

    /// The `Cookie` header for a request to `url`, or `nil` when no stored cookie applies.
    func header(for url: URL) -> String? {
        guard let cookies = storage?.cookies(for: url), !cookies.isEmpty else { return nil }
        return HTTPCookie.requestHeaderFields(with: cookies)["Cookie"]
    }

}
