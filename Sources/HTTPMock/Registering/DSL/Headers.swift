/// Response headers for every response in the enclosing ``Host`` or ``Path``.
///
/// ```swift
/// Host("api.example.com") {
///     Headers(["X-Env": "Test"], cascade: true)   // every response under this host, at any depth
///     Headers(["X-API": "v2"])                    // the host's own paths and routes (/admin), not /admin/audit
///     Path("/admin") {
///         Headers(["X-Env": "AdminOnly"])         // responses directly in /admin only
///         MockResponse.empty(status: .unauthorized)
///         Path("/audit") { MockResponse.empty() }
///     }
/// }
/// ```
///
/// In a ``Host``, headers reach the responses of the host's own paths and routes (the ones written directly in
/// it); in a ``Path``, that path's own responses. With `cascade: true` they also reach every path nested deeper.
///
/// Rules: a nearer scope wins over an outer one; in one scope, a later `Headers` wins over an earlier one on the
/// same name; a header set on the response itself wins over all of them. A ``MockResponse/dynamic(lifetime:delivery:_:)``
/// response gets them too: they are added to the response it makes, whose own headers win.
public struct Headers: Sendable {
    /// The headers, by name.
    public let values: [String: String]
    /// Whether the headers also apply to paths nested deeper. Default `false`: this scope's own responses only
    /// (for a ``Host``, the responses of its own paths and routes).
    public let cascade: Bool

    /// Headers for the responses of this scope; with `cascade: true`, of nested paths too.
    public init(_ values: [String: String], cascade: Bool = false) {
        self.values = values
        self.cascade = cascade
    }
}
