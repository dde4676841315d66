import Foundation

/// What one registered stub matches and would answer: for checks of stubs against a description of the API
/// (HTTPMockOpenAPI's contract checks). `package`: no part of the public API.
package struct StubContents: Sendable {
    package let id: StubID
    /// The stub as registered (`api.example.com/users/* [method GET]`), as reports name it.
    package let summary: String
    /// The host pattern's text; `nil` for any host.
    package let host: String?
    /// The path pattern, normalised (`/users/*`); `nil` for any path.
    package let path: String?
    /// The methods it answers; `nil` when it does not look at the method.
    package let methods: Set<String>?
    /// Each condition as reports name it (`method GET`, `template /users/{id}`).
    package let conditions: [String]
    /// Its queued responses, the next first.
    package let responses: [MockResponse]
}

extension HTTPMock {
    /// Every stub of this mock with what it would answer, in registration order.
    package var stubContents: [StubContents] { core.engine.stubContents }
}

extension Condition {
    /// The methods a stub with these conditions answers; `nil` when none of them looks at the method.
    static func methods(in conditions: [Condition]) -> Set<String>? {
        for condition in conditions {
            guard let key = condition.key, key.hasPrefix("method:") else { continue }
            return Set(key.dropFirst("method:".count).split(separator: ",").map(String.init))
        }
        return nil
    }
}
