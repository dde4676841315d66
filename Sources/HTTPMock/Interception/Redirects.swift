import Foundation

/// How the mock follows a redirect, as URLSession and browsers do.
enum Redirects {
    /// The request that follows `response` (a 3xx with `Location`) to `previous`, or `nil` if `Location` is not
    /// a URL. The location is resolved against the previous URL.
    ///
    /// `303`, and `301` / `302` after a `POST`, continue as `GET` without a body; other codes keep the method
    /// and body. `Cookie` is rebuilt for the new URL by the caller; `Authorization` is dropped when the host
    /// changes.
    static func next(after previous: CapturedRequest, status: Int, location: String, cookie: (URL) -> String?) -> CapturedRequest? {
        guard let target = URL(string: location, relativeTo: previous.url)?.absoluteURL,
              let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https" || scheme == previous.scheme else {
            return nil
        }
        let becomesGet = (status == 303 && previous.method != "HEAD") || ((status == 301 || status == 302) && previous.method == "POST")
        var headers = HeaderFields()
        let hostChanged = URLComponents(url: target, resolvingAgainstBaseURL: true)?.host?.lowercased() != previous.host
        for field in previous.headers {
            let name = field.name.lowercased()
            if name == "cookie" { continue }
            if hostChanged && name == "authorization" { continue }
            if becomesGet && (name == "content-type" || name == "content-length") { continue }
            headers.add(field.name, field.value)
        }
        if let cookie = cookie(target) { headers.add("Cookie", cookie) }
        var next = CapturedRequest(method: becomesGet ? "GET" : previous.method, url: target, headers: headers,
                                   body: becomesGet ? nil : previous.body)
        if !becomesGet { next.sentBody = previous.sentBody }
        return next
    }
}
