import Foundation
import _HTTPMockRegex

extension Match {
    /// The request's full URL (`absoluteString`) contains a match of the regular expression `pattern`.
    /// Anchor it with `^` and `$` to match the whole URL.
    ///
    /// ```swift
    /// .urlRegex(#"^https://api\.example\.com/v[0-9]+/users$"#)
    /// ```
    ///
    /// An invalid expression is refused at registration with an error that quotes it, never treated as
    /// "match everything".
    public static func urlRegex(_ pattern: String, options: NSRegularExpression.Options = []) -> Match {
        Match("url ~ /\(pattern)/") { () throws(HTTPMockError) -> Compiled in
            let regex = try compileRegex(pattern, options: options, role: "URL regular expression")
            return Compiled(condition: Condition(key: "url-regex:\(options.rawValue):\(pattern)", weight: 2,
                                                 summary: "url ~ /\(pattern)/", isUserCode: true) { request in
                let url = request.url.absoluteString
                return regex.containsMatch(in: url)
            }.inBudget())
        }
    }

    /// The request matches an RFC 6570 URI template, on a full URL (`https://api.example.com/users/{id}`) or on
    /// the path alone (`/users/{id}`). The values of its variables reach ``MockResponse/dynamic(lifetime:delivery:_:)`` by name.
    ///
    /// ```swift
    /// try mock.stub(.uriTemplate("/repos/{owner}/{repo}{?page}"), responses: [
    ///     .dynamic { request, captures in .plaintext("\(captures["owner"]!)/\(captures["repo"]!)") },
    /// ])
    /// ```
    ///
    /// Forms: `{var}`, `{+var}` (may contain `/`), `{/var}`, `{.var}`, `{;var}`, `{?a,b}` and `{&c}` (at the
    /// end; optional; other query items are ignored), with `*` and `:n` modifiers. A trailing `/` does not
    /// matter. An invalid template is refused at registration with an error that quotes it.
    public static func uriTemplate(_ template: String) -> Match {
        Match("template \(template)") { () throws(HTTPMockError) -> Compiled in
            let compiled = try URITemplate(template)
            return Compiled(host: compiled.hostHint, path: compiled.pathHint, condition: .uriTemplate(compiled))
        }
    }

    /// The request's URL equals `url`, except for the parts `options` ignore. Host and scheme compare
    /// case-insensitively, a trailing `/` does not matter, and query items compare in any order.
    ///
    /// ```swift
    /// .url("https://example.com/login", options: [.ignoreQuery])   // matches /login?user=ann
    /// ```
    public static func url(_ url: String, options: URLMatchOptions = []) -> Match {
        Match("url \(url)") { () throws(HTTPMockError) -> Compiled in
            let expected = URL(string: url).map { CapturedRequest(url: $0) }
            guard let expected, !expected.host.isEmpty else {
                throw HTTPMockError(.invalidPattern, "invalid URL \"\(url)\" for Match.url: give an absolute URL such as \"https://example.com/path\"")
            }
            let query = expected.queryItems.sorted(by: QueryItem.order)
            let condition = Condition(key: "url:\(options.rawValue):\(url)", weight: 2, summary: "url \(url)\(options.summary)") { request in
                if !options.contains(.ignoreScheme), request.scheme != expected.scheme { return false }
                if request.host != expected.host { return false }
                if !options.contains(.ignorePort), options.contains(.ignoreScheme)
                    ? request.port != expected.port
                    : URLMatchOptions.effectivePort(request) != URLMatchOptions.effectivePort(expected) { return false }
                if !options.contains(.ignorePath), request.pathSegments != expected.pathSegments { return false }
                if !options.contains(.ignoreQuery), !options.contains(.ignorePath), request.queryItems.sorted(by: QueryItem.order) != query { return false }
                return true
            }
            let path = options.contains(.ignorePath) ? nil : try? PathGlob(expected.path)
            return Compiled(host: try? HostGlob(expected.host), path: path?.glob.isExact == true ? path : nil,
                            condition: condition)
        }
    }
}

extension Condition {
    /// The request fits `template`; its variables are captured for dynamic responses.
    static func uriTemplate(_ template: URITemplate) -> Condition {
        Condition(key: "template:\(template.source)", weight: 2, summary: "template \(template.source)",
                  captures: { template.captures(in: $0) ?? [:] },
                  test: { template.matches($0) })
    }
}

/// Parts of a URL that ``Match/url(_:options:)`` ignores.
public struct URLMatchOptions: OptionSet, Sendable, Hashable {
    /// The option bits.
    public let rawValue: Int
    /// Options from their bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Any query matches.
    public static let ignoreQuery = URLMatchOptions(rawValue: 1 << 0)
    /// Any path and any query match: the URL is compared up to its host and port.
    public static let ignorePath = URLMatchOptions(rawValue: 1 << 1)
    /// `http` and `https` both match.
    public static let ignoreScheme = URLMatchOptions(rawValue: 1 << 2)
    /// Any port matches.
    public static let ignorePort = URLMatchOptions(rawValue: 1 << 3)

    var summary: String {
        let names = [(Self.ignoreQuery, "ignoring query"), (.ignorePath, "ignoring path"),
                     (.ignoreScheme, "ignoring scheme"), (.ignorePort, "ignoring port")]
            .filter { contains($0.0) }.map(\.1)
        return names.isEmpty ? "" : " (" + names.joined(separator: ", ") + ")"
    }

    /// The port, or the scheme's default (`https` 443, `http` 80).
    static func effectivePort(_ request: CapturedRequest) -> Int? {
        request.port ?? ["https": 443, "http": 80, "wss": 443, "ws": 80][request.scheme]
    }
}

extension QueryItem {
    static func order(_ lhs: QueryItem, _ rhs: QueryItem) -> Bool {
        (lhs.name, lhs.value ?? "") < (rhs.name, rhs.value ?? "")
    }
}

/// Compiles a user's regular expression, naming it and its role if it is invalid.
func compileRegex(_ pattern: String, options: NSRegularExpression.Options = [], role: String) throws(HTTPMockError) -> NSRegularExpression {
    if pattern.isEmpty {
        throw HTTPMockError(.invalidPattern, "invalid \(role) \"\": an empty expression would match everything; write what to match")
    }
    do {
        return try NSRegularExpression(pattern: pattern, options: options)
    } catch {
        throw HTTPMockError(.invalidPattern, "invalid \(role) \"\(pattern)\": it does not compile (check brackets, parentheses and escapes; write a literal dot as \\.)")
    }
}
