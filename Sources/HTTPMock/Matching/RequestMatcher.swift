/// A test a request must pass for a stub to answer it. Conform your own types to match on anything.
///
/// ```swift
/// struct HasAPIKey: RequestMatcher {
///     func matches(_ request: CapturedRequest) -> Bool {
///         request.queryValues(for: "key").first == "secret"
///     }
/// }
/// try mock.stub(.host("api.example.com"), .custom(HasAPIKey()), responses: [.plaintext("ok")])
/// ```
///
/// `matches` is called for every request the stub's route catches, on any thread, while the mock holds its
/// lock: keep it quick and do not call back into the mock from it.
public protocol RequestMatcher: Sendable {
    /// Whether `request` passes. The body is always in `request.body`, however the caller gave it.
    func matches(_ request: CapturedRequest) -> Bool
    /// How the matcher is named in reports (an unmatched request's reason, the journal). Default: the type name.
    var matcherDescription: String { get }
}

extension RequestMatcher {
    /// By default, the conforming type's name.
    public var matcherDescription: String { String(describing: Self.self) }
}
