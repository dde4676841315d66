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
struct CookieJar {
    let storage: HTTPCookieStorage?
    /// `false` when the request or its session turned cookie handling off.
    let isActive: Bool

    init(task: URLSessionTask?, request: URLRequest, fallback: HTTPCookieStorage?) {
        let configuration = Self.session(of: task)?.configuration
        storage = configuration.map { $0.httpCookieStorage } ?? fallback
        isActive = request.httpShouldHandleCookies && (configuration?.httpShouldSetCookies ?? true)
    }

    /// Stores the cookies of a response's `Set-Cookie` header (several may be joined with commas).
    func store(_ headers: [String: String], for url: URL) {
        guard isActive, let storage,
              headers.keys.contains(where: { $0.caseInsensitiveCompare("Set-Cookie") == .orderedSame }) else { return }
        var fields: [String: String] = [:]
        for (name, value) in headers where name.caseInsensitiveCompare("Set-Cookie") == .orderedSame {
            fields["Set-Cookie"] = fields["Set-Cookie"].map { "\($0), \(value)" } ?? value
        }
        let cookies = HTTPCookie.cookies(withResponseHeaderFields: fields, for: url)
        guard !cookies.isEmpty else { return }
        storage.setCookies(cookies, for: url, mainDocumentURL: nil)
    }

    /// The `Cookie` header for a request to `url`, or `nil` when no stored cookie applies.
    func header(for url: URL) -> String? {
        guard isActive, let cookies = storage?.cookies(for: url), !cookies.isEmpty else { return nil }
        return HTTPCookie.requestHeaderFields(with: cookies)["Cookie"]
    }

    private static func session(of task: URLSessionTask?) -> URLSession? {
        #if canImport(FoundationNetworking)
        guard let task else { return nil }
        var mirror: Mirror? = Mirror(reflecting: task)
        while let current = mirror {
            if let field = current.children.first(where: { $0.label == "session" })?.value {
                let optional = Mirror(reflecting: field)
                if optional.displayStyle == .optional { return optional.children.first?.value as? URLSession }
                return field as? URLSession
            }
            mirror = current.superclassMirror
        }
        #endif
        return nil
    }
}
