/// Responses for requests that meet matchers, in ``HTTPMock/registerResponses(fileID:filePath:line:column:_:)``: at the top level for
/// stubs without a fixed host (a regular expression, a full-URL template), or inside a ``Host``.
///
/// ```swift
/// mock.registerResponses {
///     Route(.urlRegex(#"^https://cdn[0-9]\.example\.com/"#)) {
///         MockResponse.empty(lifetime: .eternal)
///     }
///     Host("api.example.com") {
///         Match.header("Authorization")                 // every route and path of this host
///         Route(.uriTemplate("/users/{id}"), .method(.get)) {
///             MockResponse.dynamic { _, captures in .plaintext("user \(captures["id"]!)") }
///         }
///     }
/// }
/// ```
public struct Route: Sendable {
    let matchers: [Match]
    let responses: [MockResponse]

    /// A route answered when every matcher holds, with these responses in order.
    public init(_ matchers: Match..., @ResponseBuilder responses: () -> [MockResponse]) {
        self.matchers = matchers
        self.responses = responses()
    }
}
