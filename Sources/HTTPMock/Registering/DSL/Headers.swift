/// Response headers for every response in the enclosing ``Host`` or ``Path``.
///
/// ```swift
/// Host("api.example.com") {
///     Headers(["X-Env": "Test"], cascade: true)   // every response under this host, at any depth
///     Path("/admin") {
///         Headers(["X-Env": "AdminOnly"])         // responses directly in /admin only
///         MockResponse.empty(status: .unauthorized)
///     }
/// }
/// ```
///
/// Rules: a nearer scope wins over an outer one; in one scope, a later `Headers` wins over an earlier one on the
/// same name; a header set on the response itself wins over all of them.
public struct Headers: Sendable {
    /// The headers, by name.
    public let values: [String: String]
    /// Whether the headers also apply to nested paths. Default `false`: this scope's own responses only.
    public let cascade: Bool

    /// Headers for the responses of this scope; with `cascade: true`, of nested paths too.
    public init(_ values: [String: String], cascade: Bool = false) {
        self.values = values
        self.cascade = cascade
    }
}
