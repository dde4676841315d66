import Foundation

extension HTTPMock {
    /// Queues responses for `path` on `host`, served first in, first out.
    ///
    /// ```swift
    /// mock.addResponses(forPath: "/user", host: "api.example.com", responses: [
    ///     .encodable(User(id: 1, name: "Alice")),
    ///     .empty(status: .notFound),
    /// ])
    /// ```
    ///
    /// Registering the same host, path, method and query again appends to the same queue.
    /// An invalid pattern or response registers nothing and is reported (see ``registrationErrors``).
    ///
    /// - Parameters:
    ///   - path: A path or path pattern (`/users/*`, `/api/**/data`).
    ///   - host: A host or host pattern (`*.example.com`).
    ///   - method: Only requests with this method match. Default: any method.
    ///   - query: Query parameters the request must have.
    ///   - matching: How `query` is compared: ``QueryMatching/exact`` (default) or ``QueryMatching/contains``.
    ///   - responses: The responses, served first in, first out.
    ///   - fileID: Where a refusal is reported as a test failure (by HTTPMockTesting); leave the default.
    ///   - filePath: Where a refusal is reported; leave the default.
    ///   - line: Where a refusal is reported; leave the default.
    ///   - column: Where a refusal is reported; leave the default.
    public func addResponses(
        forPath path: String,
        host: String,
        method: HTTPMethod? = nil,
        query: QueryParameters? = nil,
        matching: QueryMatching = .exact,
        responses: [MockResponse],
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        reportingRefusal(at: RegistrationSite(fileID: fileID, filePath: filePath, line: line, column: column)) { () throws(HTTPMockError) in
            try registerRoute(host: host, path: path, method: method, query: query, matching: matching, responses: responses)
        }
    }

    /// Queues responses for `path` on `host`, written as a list in a closure.
    ///
    /// ```swift
    /// mock.addResponses(forPath: "/user", host: "api.example.com") {
    ///     MockResponse.encodable(User(id: 1, name: "Alice"))
    ///     MockResponse.empty(status: .notFound)
    /// }
    /// ```
    public func addResponses(
        forPath path: String,
        host: String,
        method: HTTPMethod? = nil,
        query: QueryParameters? = nil,
        matching: QueryMatching = .exact,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        @ResponseBuilder responses: () -> [MockResponse]
    ) {
        addResponses(forPath: path, host: host, method: method, query: query, matching: matching, responses: responses(),
                     fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Queues responses for `path` on ``defaultDomain``.
    public func addResponses(
        forPath path: String,
        method: HTTPMethod? = nil,
        query: QueryParameters? = nil,
        matching: QueryMatching = .exact,
        responses: [MockResponse],
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        addResponses(forPath: path, host: defaultDomain, method: method, query: query, matching: matching, responses: responses,
                     fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Queues responses for `path` on ``defaultDomain``, written as a list in a closure.
    public func addResponses(
        forPath path: String,
        method: HTTPMethod? = nil,
        query: QueryParameters? = nil,
        matching: QueryMatching = .exact,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        @ResponseBuilder responses: () -> [MockResponse]
    ) {
        addResponses(forPath: path, host: defaultDomain, method: method, query: query, matching: matching, responses: responses(),
                     fileID: fileID, filePath: filePath, line: line, column: column)
    }

    func registerRoute(
        host: String, path: String, method: HTTPMethod?, query: QueryParameters?, matching: QueryMatching,
        responses: [MockResponse]
    ) throws(HTTPMockError) {
        let route = try PathRoute.compile(path)
        let definition = Engine.Definition(
            host: try compile { () throws(GlobError) in try HostGlob(host) },
            path: route.pattern,
            conditions: Self.conditions(method: method, query: query, matching: matching) + route.conditions,
            responses: responses
        )
        try core.engine.register([definition])
    }

    static func conditions(method: HTTPMethod?, query: QueryParameters?, matching: QueryMatching) -> [Condition] {
        var conditions: [Condition] = []
        if let method { conditions.append(.method([method.rawValue])) }
        if let query { conditions.append(.query(query, matching: matching)) }
        return conditions
    }
}

func compile<T>(_ body: () throws(GlobError) -> T) throws(HTTPMockError) -> T {
    do { return try body() } catch { throw .invalidPattern(error) }
}

/// Collects the responses written in a closure, in order. `if`, `if let`, `switch` and `for` work as usual.
///
/// Only ``MockResponse`` values (or arrays of them) belong in the closure. A `String`, `Data` or other value
/// written there is refused with a message naming the factory to use, such as
/// ``MockResponse/plaintext(_:contentType:status:lifetime:delivery:headers:)``.
@resultBuilder
public enum ResponseBuilder {
    /// One response.
    public static func buildExpression(_ response: MockResponse) -> [MockResponse] { [response] }
    /// Several responses, in order.
    public static func buildExpression(_ responses: [MockResponse]) -> [MockResponse] { responses }

    /// Refused: a `String` is not a response.
    @available(*, unavailable, message: "a String is not a response: write MockResponse.plaintext(\"…\") (with contentType: \"application/json\" for JSON text)")
    public static func buildExpression(_ text: String) -> [MockResponse] { fatalError("unavailable") }
    /// Refused: `Data` is not a response.
    @available(*, unavailable, message: "Data is not a response: write MockResponse(body: data, contentType: \"…\")")
    public static func buildExpression(_ data: Data) -> [MockResponse] { fatalError("unavailable") }
    /// Refused: a model value is not a response.
    @available(*, unavailable, message: "a value is not a response: write MockResponse.encodable(value) to send it as JSON")
    public static func buildExpression<Value: Encodable>(_ value: Value) -> [MockResponse] { fatalError("unavailable") }

    public static func buildBlock(_ parts: [MockResponse]...) -> [MockResponse] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [MockResponse]?) -> [MockResponse] { part ?? [] }
    public static func buildEither(first part: [MockResponse]) -> [MockResponse] { part }
    public static func buildEither(second part: [MockResponse]) -> [MockResponse] { part }
    public static func buildArray(_ parts: [[MockResponse]]) -> [MockResponse] { parts.flatMap { $0 } }
}
