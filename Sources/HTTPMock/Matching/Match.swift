import Foundation

/// One condition on a request, for ``HTTPMock/stub(_:responses:)-(Match...,[MockResponse])``, ``Route`` and inside ``Host`` / ``Path``.
/// A stub answers only requests that meet all of its matchers.
///
/// ```swift
/// try mock.stub(.method(.post), .uriTemplate("https://api.example.com/users/{id}"), .json(object: ["name": "Ann"]),
///               responses: [.empty(status: .noContent)])
/// ```
///
/// Matchers are checked when they are registered: an invalid regular expression, template or URL throws an
/// ``HTTPMockError`` that names it, and nothing is registered.
public struct Match: Sendable, CustomStringConvertible {
    /// What a matcher compiles to for the engine.
    struct Compiled {
        var host: HostGlob?
        var path: PathGlob?
        /// `true`: `host` and `path` are the whole test. `false`: they only narrow the router's index and
        /// `condition` does the real test.
        var routeIsTest = false
        var condition: Condition?
    }

    let make: @Sendable () throws(HTTPMockError) -> Compiled
    /// A short description, as it appears in reports.
    public let description: String

    init(_ description: String, make: @escaping @Sendable () throws(HTTPMockError) -> Compiled) {
        self.description = description
        self.make = make
    }

    init(condition: Condition) {
        self.init(condition.summary) { Compiled(condition: condition) }
    }

    /// A matcher that fails to register with `error` (used when a factory finds a problem at once).
    static func invalid(_ description: String, _ error: HTTPMockError) -> Match {
        Match(description) { () throws(HTTPMockError) -> Compiled in throw error }
    }
}

extension Match {
    /// The request's method is one of `methods`.
    ///
    /// ```swift
    /// .method(.get, .head)
    /// ```
    public static func method(_ methods: HTTPMethod...) -> Match {
        method(methods)
    }

    /// ``method(_:)-(HTTPMethod...)`` with the methods in an array.
    static func method(_ methods: [HTTPMethod]) -> Match {
        methods.isEmpty
            ? invalid("method", HTTPMockError(.invalidPattern, "Match.method() needs at least one method, such as .method(.get)"))
            : Match(condition: .method(Set(methods.map(\.rawValue))))
    }

    /// The request's host matches `pattern` (`api.example.com`, `*.example.com`, `localhost:8080`).
    public static func host(_ pattern: String) -> Match {
        Match("host \(pattern)") { () throws(HTTPMockError) -> Compiled in
            Compiled(host: try compile { () throws(GlobError) in try HostGlob(pattern) }, routeIsTest: true)
        }
    }

    /// The request's path matches `pattern` (`/users/*`, `/api/**`).
    public static func path(_ pattern: String) -> Match {
        Match("path \(pattern)") { () throws(HTTPMockError) -> Compiled in
            Compiled(path: try compile { () throws(GlobError) in try PathGlob(pattern) }, routeIsTest: true)
        }
    }

    /// The request's query has `parameters`, compared as `matching` says (default: exactly these).
    ///
    /// ```swift
    /// .query(["q": "swift", "page": .any], matching: .contains)
    /// ```
    public static func query(_ parameters: QueryParameters, matching: QueryMatching = .exact) -> Match {
        Match(condition: .query(parameters, matching: matching))
    }

    /// The request passes `test`. `description` names it in reports.
    ///
    /// ```swift
    /// .custom("has a user agent") { $0.headers["User-Agent"] != nil }
    /// ```
    public static func custom(_ description: String = "custom matcher",
                              _ test: @escaping @Sendable (CapturedRequest) -> Bool) -> Match {
        Match(condition: Condition(key: nil, summary: description, isUserCode: true, test: test))
    }

    /// The request does not meet `match`.
    ///
    /// ```swift
    /// .not(.header("Authorization"))      // no Authorization header
    /// .not(.method(.get, .head))          // any method but GET and HEAD
    /// ```
    ///
    /// A host or path inside `not` is tested as a condition, so it does not narrow the router's index.
    public static func not(_ match: Match) -> Match {
        Match("not (\(match.description))") { () throws(HTTPMockError) -> Compiled in
            let inner = try RequestPredicate([match])
            return Compiled(condition: Condition(key: inner.key.map { "not:(" + $0 + ")" }, summary: "not (\(match.description))",
                                                 isUserCode: inner.conditions.contains(where: \.isUserCode)) {
                !inner.matches($0)
            }.inBudget(as: inner.conditions))
        }
    }

    /// The request passes your own ``RequestMatcher``.
    public static func custom(_ matcher: some RequestMatcher) -> Match {
        Match(condition: Condition(key: nil, summary: matcher.matcherDescription, isUserCode: true) { matcher.matches($0) })
    }
}

/// Matchers compiled together: the route for the index, and the conditions.
struct CompiledMatchers {
    var host: HostGlob?
    var path: PathGlob?
    var conditions: [Condition] = []

    /// Compiles `matches` on top of a route the caller already has (a DSL `Host` / `Path`), in which case
    /// route matchers that cannot share the index become conditions.
    init(_ matches: [Match], host: HostGlob? = nil, path: PathGlob? = nil) throws(HTTPMockError) {
        self.host = host
        self.path = path
        var compiled: [Match.Compiled] = []
        for match in matches { compiled.append(try match.make()) }
        // Route tests first, so that hints never push a real test out of the index.
        for item in compiled where item.routeIsTest {
            if let pattern = item.host {
                if self.host == nil { self.host = pattern } else { conditions.append(.host(pattern)) }
            }
            if let pattern = item.path {
                if self.path == nil { self.path = pattern } else { conditions.append(.path(pattern)) }
            }
        }
        for item in compiled where !item.routeIsTest {
            if self.host == nil, let hint = item.host { self.host = hint }
            if self.path == nil, let hint = item.path { self.path = hint }
        }
        conditions += compiled.compactMap(\.condition)
    }
}

extension Condition {
    /// The request's host matches `pattern` (a second host matcher, beyond the one the index uses).
    static func host(_ pattern: HostGlob) -> Condition {
        Condition(key: "host:" + pattern.source.lowercased(), summary: "host \(pattern.source)") { request in
            pattern.matches(host: request.host.split(separator: ".", omittingEmptySubsequences: false).map(String.init),
                            port: request.port)
        }
    }

    /// The request's path matches `pattern` (a second path matcher, beyond the one the index uses).
    static func path(_ pattern: PathGlob) -> Condition {
        Condition(key: "path:" + pattern.normalized, summary: "path \(pattern.source)") { pattern.matches($0.pathSegments) }
    }
}
