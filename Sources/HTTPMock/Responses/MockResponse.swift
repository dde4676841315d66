import Foundation

/// What a mocked request gets back: a status, headers and a body (or a failure), how often it may be served
/// and when it is delivered.
///
/// Build one with a factory such as ``plaintext(_:status:lifetime:delivery:headers:)`` or
/// ``encodable(_:status:lifetime:delivery:headers:encoder:)``, then queue it with
/// ``HTTPMock/addResponses(forPath:host:method:query:matching:responses:)`` or inside a ``Path``.
///
/// ```swift
/// MockResponse.encodable(User(id: 1, name: "Alice"))          // 200, application/json
/// MockResponse.plaintext("down", status: .other(503), lifetime: .multiple(2))
/// MockResponse.empty(status: .notFound, delivery: .delayed(0.5))
/// ```
public struct MockResponse: Sendable {
    /// The HTTP status code.
    public var status: Status
    /// Response headers. `Content-Type` set here wins over the one a factory infers.
    public var headers: [String: String]
    /// How many times the response is served before it leaves its queue. Default ``Lifetime/single``.
    public var lifetime: Lifetime
    /// When the response is delivered. Default ``Delivery/instant``.
    public var delivery: Delivery
    /// Whether a redirect (a 3xx with `Location`) is followed inside the mock, as URLSession would follow a real
    /// one. Default `true`; ``HTTPMock/followsRedirects`` turns following off for a whole mock.
    public var followsRedirects = true

    var content: Content
    /// A problem found while building the response (a missing file, a value that does not encode). A response
    /// that has one is refused when it is registered, with this message.
    var problem: HTTPMockError?
    /// Set by ``NetworkFault/truncatedBody(_:after:)``: the connection drops after this many body bytes.
    var truncation: Int?
    /// Builds the response actually served from the request (templated bodies of mapping files); applied by the
    /// engine when the response is taken from its queue.
    var render: (@Sendable (CapturedRequest) -> MockResponse)?

    enum Content: Sendable {
        case data(Data)
        /// Read when served, so a large file is never held in memory by the registration.
        case file(URL)
        /// The request fails with this error instead of getting a response.
        case failure(any Error & Sendable)
        /// Built from the request and the captured template values when a request is answered.
        case dynamic(@Sendable (CapturedRequest, [String: String]) -> MockResponse)
    }

    /// A response with a raw body.
    ///
    /// - Parameters:
    ///   - body: The body bytes; `nil` or empty for no body.
    ///   - contentType: Written to `Content-Type` unless `headers` already has one.
    public init(
        status: Status = .ok,
        headers: [String: String] = [:],
        body: Data? = nil,
        contentType: String? = nil,
        lifetime: Lifetime = .single,
        delivery: Delivery = .instant
    ) {
        self.init(status: status, headers: headers, content: .data(body ?? Data()), contentType: contentType,
                  lifetime: lifetime, delivery: delivery)
    }

    init(
        status: Status = .ok,
        headers: [String: String],
        content: Content,
        contentType: String?,
        lifetime: Lifetime,
        delivery: Delivery,
        problem: HTTPMockError? = nil
    ) {
        self.status = status
        self.headers = headers
        if let contentType, !headers.keys.contains(where: { $0.caseInsensitiveCompare("Content-Type") == .orderedSame }) {
            self.headers["Content-Type"] = contentType
        }
        self.content = content
        self.lifetime = lifetime
        self.delivery = delivery
        self.problem = problem
    }

    /// The body when it is held in memory; `nil` for file and failure responses.
    public var body: Data? {
        if case .data(let data) = content { return data }
        return nil
    }

    /// Headers of `inherited` that this response does not set itself are added to it.
    func inheriting(_ inherited: [String: String]) -> MockResponse {
        var copy = self
        for (name, value) in inherited
        where !headers.keys.contains(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) {
            copy.headers[name] = value
        }
        return copy
    }
}
