#if Server
import Foundation

/// The traffic page, under `/__admin/webapp` (the path WireMock's GUI add-on is served at): the journal live, the
/// near misses of unmatched requests, every stub of the mock and the scenarios drawn as graphs. One HTML page, its
/// style sheet and its script, written here and kept in the binary; it reads the admin API as any client does, the
/// journal's changes from `/__admin/webapp/events` (see ``WebAppFeed``), and the stubs and scenarios from
/// `/__admin/webapp/stubs` and `/__admin/webapp/scenarios` (see ``WebAppStubs``).
///
/// It is part of the admin API: it answers only when the admin API is on, and behind the same checks (loopback
/// host names, no other origin, `adminCredentials`).
enum WebApp {
    /// The page's path.
    static let root = "/__admin/webapp"

    /// What a path under ``root`` serves.
    enum Resource: Equatable {
        case page
        case script
        case styleSheet
        case events
        /// A request's streamed parts and WebSocket messages (see ``WebAppTimeline``), by serve event id.
        case timeline(id: String)
        /// A page of the mock's stubs (see ``WebAppStubs``).
        case stubs
        /// A page of the scenarios with their moves (see ``WebAppStubs``).
        case scenarios
        case missing
    }

    /// Whether `target` (a request's path and query, as sent) is under ``root``.
    static func handles(_ target: String) -> Bool {
        let path = target.prefix { $0 != "?" && $0 != "#" }
        return path == root || path.hasPrefix(root + "/")
    }

    /// The resource `target` names.
    static func resource(_ target: String) -> Resource {
        let path = String(target.prefix { $0 != "?" && $0 != "#" })
        switch path {
        case root, root + "/", root + "/index.html": return .page
        case root + "/app.js": return .script
        case root + "/app.css": return .styleSheet
        case root + "/events": return .events
        case root + "/stubs": return .stubs
        case root + "/scenarios": return .scenarios
        default:
            let segments = path.dropFirst(root.count).split(separator: "/", omittingEmptySubsequences: false)
            if segments.count == 4, segments[0].isEmpty, segments[1] == "requests", segments[3] == "timeline", !segments[2].isEmpty {
                return .timeline(id: String(segments[2]))
            }
            return .missing
        }
    }

    /// No script but the page's own file, no inline script or style, nothing from another origin, no frames.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The headers every file of the page goes out with, besides its `Content-Type`.
    static let headers: [(String, String)] = [
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
    ]

    /// A file of the page: its type and bytes.
    static func file(_ resource: Resource) -> (type: String, body: Data)? {
        switch resource {
        case .page: ("text/html; charset=utf-8", Data(WebAppPage.html.utf8))
        case .script: ("text/javascript; charset=utf-8", Data(WebAppScript.source.utf8))
        case .styleSheet: ("text/css; charset=utf-8", Data(WebAppPage.css.utf8))
        case .events, .timeline, .stubs, .scenarios, .missing: nil
        }
    }
}
#endif
