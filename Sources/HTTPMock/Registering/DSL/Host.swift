/// A host (or host pattern) and the paths it answers, for ``HTTPMock/registerResponses(fileID:filePath:line:column:_:)``.
///
/// ```swift
/// mock.registerResponses {
///     Host("api.example.com") {
///         Headers(["X-Env": "Test"], cascade: true)
///         Path("/user") { MockResponse.encodable(user) }
///     }
///     Host("*.cdn.example.com") {
///         Path("/**") { MockResponse.empty(lifetime: .eternal) }
///     }
/// }
/// ```
public struct Host: Sendable {
    /// `nil` for a ``Route`` written outside any host.
    let pattern: String?
    let content: [HostContent]

    /// A host or host pattern (`api.example.com`, `*.example.com`) and its paths and headers.
    public init(_ pattern: String, @HostBuilder _ content: () -> [HostContent]) {
        self.pattern = pattern
        self.content = content()
    }

    /// A top-level ``Route``: no host of its own.
    init(route: Route) {
        pattern = nil
        content = [HostContent(kind: .route(route))]
    }
}

/// What a ``Host`` may contain: ``Path``s, ``Route``s, ``Headers`` and ``Match``es (which apply to every path
/// and route of the host).
public struct HostContent: Sendable {
    enum Kind: Sendable {
        case headers(Headers)
        case path(Path)
        case route(Route)
        case match(Match)
    }

    let kind: Kind
}

/// Builds the content of a ``Host``.
@resultBuilder
public enum HostBuilder {
    public static func buildExpression(_ headers: Headers) -> [HostContent] { [HostContent(kind: .headers(headers))] }
    public static func buildExpression(_ path: Path) -> [HostContent] { [HostContent(kind: .path(path))] }
    public static func buildExpression(_ route: Route) -> [HostContent] { [HostContent(kind: .route(route))] }
    public static func buildExpression(_ match: Match) -> [HostContent] { [HostContent(kind: .match(match))] }
    public static func buildBlock(_ parts: [HostContent]...) -> [HostContent] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [HostContent]?) -> [HostContent] { part ?? [] }
    public static func buildEither(first part: [HostContent]) -> [HostContent] { part }
    public static func buildEither(second part: [HostContent]) -> [HostContent] { part }
    public static func buildArray(_ parts: [[HostContent]]) -> [HostContent] { parts.flatMap { $0 } }
}

/// Builds the hosts of a registration.
@resultBuilder
public enum RegistrationBuilder {
    public static func buildExpression(_ host: Host) -> [Host] { [host] }
    public static func buildExpression(_ route: Route) -> [Host] { [Host(route: route)] }
    public static func buildBlock(_ parts: [Host]...) -> [Host] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [Host]?) -> [Host] { part ?? [] }
    public static func buildEither(first part: [Host]) -> [Host] { part }
    public static func buildEither(second part: [Host]) -> [Host] { part }
    public static func buildArray(_ parts: [[Host]]) -> [Host] { parts.flatMap { $0 } }
}
