#if Server
import Foundation
import NIOHTTP1

extension HTTPMockServer {
    /// The user and password the admin API requires (``HTTPMockServer/Configuration/adminCredentials``).
    public struct AdminCredentials: Sendable, Hashable {
        /// The user name.
        public var user: String
        /// The password.
        public var password: String

        /// Credentials for HTTP Basic authentication.
        public init(user: String, password: String) {
            self.user = user
            self.password = password
        }

        /// `user:password`, as `--admin-auth` and WireMock's `--admin-api-basic-auth` take them; `nil` without a
        /// `:`, or with an empty user or password.
        public init?(_ text: String) {
            guard let colon = text.firstIndex(of: ":") else { return nil }
            let user = String(text[..<colon]), password = String(text[text.index(after: colon)...])
            guard !user.isEmpty, !password.isEmpty else { return nil }
            self.init(user: user, password: password)
        }

        /// The `Authorization` header value that carries them.
        var header: String { "Basic " + token }

        /// `user:password` in Base64, as the Basic scheme carries them.
        var token: String { Data("\(user):\(password)".utf8).base64EncodedString() }

        /// Whether an `Authorization` header value carries them: the scheme in any case (RFC 9110, 11.1: `basic`,
        /// `BASIC`), then the token exactly, compared in constant time.
        func isCarried(by value: String) -> Bool {
            let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            guard parts.count == 2, parts[0].lowercased() == "basic" else { return false }
            let given = Array(parts[1].trimmingCharacters(in: .whitespaces).utf8), expected = Array(token.utf8)
            guard given.count == expected.count else { return false }
            return zip(given, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
        }
    }
}

/// Who may use the admin API: only its own tool, never a web page. A browser reaches a server on loopback in two
/// ways, and both are refused: a page of another origin sends `Origin` (and `Sec-Fetch-Site`), and a page whose
/// host name was rebound to 127.0.0.1 sends its own name in `Host`. A browser's state-changing request with a body
/// a page could send without asking first (`text/plain`, a form) is refused too. No CORS header is ever sent, so a
/// browser shows a page nothing it read.
enum AdminAccess {
    struct Refusal {
        let status: HTTPResponseStatus
        let message: String
        var headers: [(String, String)] = []
    }

    /// Why `head` may not use the admin API, or `nil` when it may.
    static func refusal(of head: HTTPRequestHead, settings: ConnectionSettings) -> Refusal? {
        let hosts = head.headers["host"]
        if hosts.count > 1 {
            return Refusal(status: .badRequest, message: "HTTPMock admin API: the request has \(hosts.count) Host headers; send one\n")
        }
        if let host = hosts.first {
            guard settings.isAdminHost(host) else {
                return Refusal(status: .forbidden, message: "HTTPMock admin API: Host \(host) is not this server's address, so the request is refused (a web page could reach the admin API through DNS rebinding otherwise). Send it to 127.0.0.1 or localhost, or allow the name with Configuration.adminHosts (httpmock serve --admin-host \(host.split(separator: ":").first.map(String.init) ?? host)).\n")
            }
        } else if head.version.minor >= 1 {
            return Refusal(status: .badRequest, message: "HTTPMock admin API: an HTTP/1.1 request needs a Host header (RFC 9112)\n")
        }
        if let origin = head.headers["origin"].first {
            let own = hosts.first.map { ["http://" + $0.lowercased(), "https://" + $0.lowercased()] } ?? []
            guard own.contains(origin.lowercased()) else {
                return Refusal(status: .forbidden, message: "HTTPMock admin API: requests from a web page of another origin (\(origin)) are refused\n")
            }
        }
        if let site = head.headers["sec-fetch-site"].first?.lowercased(), site != "same-origin", site != "none" {
            return Refusal(status: .forbidden, message: "HTTPMock admin API: a request a browser made for another site (Sec-Fetch-Site: \(site)) is refused\n")
        }
        if let credentials = settings.configuration.adminCredentials {
            guard head.headers["authorization"].contains(where: credentials.isCarried) else {
                return Refusal(status: .unauthorized, message: "HTTPMock admin API: this server requires the admin user and password (HTTP Basic authentication)\n",
                               headers: [("WWW-Authenticate", "Basic realm=\"httpmock admin\", charset=\"UTF-8\"")])
            }
        }
        switch head.method {
        case .GET, .HEAD:
            return nil
        case .OPTIONS:
            return Refusal(status: .forbidden, message: "HTTPMock admin API: no cross-origin access (CORS) is offered\n")
        default:
            // What a page can send without asking first, from a browser. A browser always says it is one (a
            // `User-Agent` of `Mozilla/…`, `Sec-Fetch-*`, `Origin`, `Referer`: headers a page cannot remove), while
            // `curl -d`, which WireMock's documentation uses, sends the form type: tools keep working.
            let type = head.headers["content-type"].first?.lowercased() ?? ""
            let fromBrowser = head.headers["user-agent"].contains { $0.hasPrefix("Mozilla/") }
                || ["origin", "referer", "sec-fetch-mode", "sec-fetch-site", "sec-fetch-dest"].contains { !head.headers[$0].isEmpty }
            if fromBrowser, ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"].contains(where: type.hasPrefix) {
                return Refusal(status: .unsupportedMediaType, message: "HTTPMock admin API: a browser's request must send JSON (Content-Type: application/json), or no body; \(type) is what a web page can send without asking, so it is refused\n")
            }
            return nil
        }
    }
}
#endif
