import Foundation

/// A path and what requests to it get back, inside a ``Host``. Paths nest: `Path("/admin") { Path("/audit") }`
/// is `/admin/audit`.
///
/// ```swift
/// Path("/search", query: ["q": "swift"], matching: .contains) {
///     MockResponse.plaintext("first")
///     MockResponse.plaintext("second")
/// }
/// ```
///
/// Query parameters apply to this path only (nested paths do not inherit them); a method applies to this path
/// and to nested paths that name none.
public struct Path: Sendable {
    let pattern: String
    let method: HTTPMethod?
    let query: QueryParameters?
    let matching: QueryMatching
    let content: [PathContent]

    /// - Parameters:
    ///   - pattern: A path or path pattern, relative to the enclosing path.
    ///   - method: Only requests with this method match. Default: any (or the enclosing path's).
    ///   - query: Query parameters the request must have.
    ///   - matching: How `query` is compared. Default ``QueryMatching/exact``.
    ///   - content: The responses, headers, matchers and nested paths of this path.
    public init(
        _ pattern: String,
        method: HTTPMethod? = nil,
        query: QueryParameters? = nil,
        matching: QueryMatching = .exact,
        @PathBuilder _ content: () -> [PathContent]
    ) {
        self.pattern = pattern
        self.method = method
        self.query = query
        self.matching = matching
        self.content = content()
    }

    /// The same, with the query as a plain `[String: String]`.
    public init(
        _ pattern: String,
        method: HTTPMethod? = nil,
        query: [String: String],
        matching: QueryMatching = .exact,
        @PathBuilder _ content: () -> [PathContent]
    ) {
        self.init(pattern, method: method, query: QueryParameters(query), matching: matching, content)
    }
}

/// What a ``Path`` may contain: responses, ``Headers``, nested paths, and ``Match``es (which apply to this path
/// and to nested paths).
public struct PathContent: Sendable {
    enum Kind: Sendable {
        case response(MockResponse)
        case headers(Headers)
        case path(Path)
        case match(Match)
    }

    let kind: Kind
}

/// Builds the content of a ``Path``.
@resultBuilder
public enum PathBuilder {
    public static func buildExpression(_ response: MockResponse) -> [PathContent] { [PathContent(kind: .response(response))] }
    public static func buildExpression(_ responses: [MockResponse]) -> [PathContent] { responses.map { PathContent(kind: .response($0)) } }
    public static func buildExpression(_ headers: Headers) -> [PathContent] { [PathContent(kind: .headers(headers))] }
    public static func buildExpression(_ path: Path) -> [PathContent] { [PathContent(kind: .path(path))] }
    public static func buildExpression(_ match: Match) -> [PathContent] { [PathContent(kind: .match(match))] }

    /// Refused: a `String` is not a response.
    @available(*, unavailable, message: "a String is not a response: write MockResponse.plaintext(\"…\") (with contentType: \"application/json\" for JSON text)")
    public static func buildExpression(_ text: String) -> [PathContent] { fatalError("unavailable") }
    /// Refused: `Data` is not a response.
    @available(*, unavailable, message: "Data is not a response: write MockResponse(body: data, contentType: \"…\")")
    public static func buildExpression(_ data: Data) -> [PathContent] { fatalError("unavailable") }
    /// Refused: a model value is not a response.
    @available(*, unavailable, message: "a value is not a response: write MockResponse.encodable(value) to send it as JSON")
    public static func buildExpression<Value: Encodable>(_ value: Value) -> [PathContent] { fatalError("unavailable") }
    public static func buildBlock(_ parts: [PathContent]...) -> [PathContent] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [PathContent]?) -> [PathContent] { part ?? [] }
    public static func buildEither(first part: [PathContent]) -> [PathContent] { part }
    public static func buildEither(second part: [PathContent]) -> [PathContent] { part }
    public static func buildArray(_ parts: [[PathContent]]) -> [PathContent] { parts.flatMap { $0 } }
}
