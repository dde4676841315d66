import Foundation

/// What a mocked request gets back: a status, headers and a body (or a failure), how often it may be served
/// and when it is delivered.
///
/// Build one with a factory such as ``plaintext(_:contentType:status:lifetime:delivery:headers:)`` or
/// ``encodable(_:status:lifetime:delivery:headers:encoder:)``, then queue it with
/// ``HTTPMock/addResponses(forPath:host:method:query:matching:responses:fileID:filePath:line:column:)`` or inside a ``Path``.
///
/// ```swift
/// MockResponse.encodable(User(id: 1, name: "Alice"))          // 200, application/json
/// MockResponse.plaintext("down", status: .other(503), lifetime: .multiple(2))
/// MockResponse.empty(status: .notFound, delivery: .delayed(0.5))
/// ```
public struct MockResponse: Sendable {
    /// The HTTP status code.
    public var status: Status {
        get { storage.status }
        set { mutate { $0.status = newValue } }
    }
    /// Response headers. `Content-Type` set here wins over the one a factory infers.
    public var headers: [String: String] {
        get { storage.headers }
        set { mutate { $0.headers = newValue } }
    }
    /// How many times the response is served before it leaves its queue. Default ``Lifetime/single``.
    public var lifetime: Lifetime {
        get { storage.lifetime }
        set { mutate { $0.lifetime = newValue } }
    }
    /// When the response is delivered. Default ``Delivery/instant``.
    public var delivery: Delivery {
        get { storage.delivery }
        set { mutate { $0.delivery = newValue } }
    }
    /// Whether a redirect (a 3xx with `Location`) is followed inside the mock, as URLSession would follow a real
    /// one. Default `true`; ``HTTPMock/followsRedirects`` turns following off for a whole mock.
    public var followsRedirects: Bool {
        get { storage.followsRedirects }
        set { mutate { $0.followsRedirects = newValue } }
    }

    /// The reason phrase HTTPMockServer writes on the status line (`HTTP/1.1 404 Gone fishing`), as WireMock's
    /// `statusMessage` sets it; `nil` (the default) for the standard phrase of the status. URLSession has no reason
    /// phrase, so a response served in process does not show it. Tabs, spaces and visible characters only: a
    /// phrase with a line break or another control character is refused when the response is registered.
    public var reasonPhrase: String? {
        get { storage.reasonPhrase }
        set { mutate { $0.reasonPhrase = newValue } }
    }

    /// Headers a file gave several values (WireMock's `"X-A": ["1", "2"]`), or a `Set-Cookie` as written: over HTTP
    /// each value goes on a line of its own, as WireMock sends them. ``headers`` holds the values joined with `, `
    /// (one field, as `HTTPURLResponse` keeps them); a name's lines count only while its ``headers`` value is still
    /// their join.
    package var headerLines: [String: [String]] {
        get { storage.headerLines }
        set { mutate { $0.headerLines = newValue } }
    }

    var content: Content {
        get { storage.content }
        set { mutate { $0.content = newValue } }
    }
    /// A problem found while building the response (a missing file, a value that does not encode, a status
    /// outside 100-599). A response that has one is refused when it is registered, with this message.
    var problem: HTTPMockError? {
        get { storage.problem ?? statusProblem ?? reasonPhraseProblem }
        set { mutate { $0.problem = newValue } }
    }
    /// A status no HTTP response has (URLSession would refuse it), unless the response is a failure.
    private var statusProblem: HTTPMockError? {
        if (100...599).contains(storage.status.code) { return nil }
        if case .failure = storage.content { return nil }
        return .invalidResponse("status \(storage.status.code) is not an HTTP status code; use 100-599 (to make the request fail without a response, use MockResponse.failure)")
    }
    /// A reason phrase that would break the status line (RFC 9112 allows tabs, spaces and visible characters).
    private var reasonPhraseProblem: HTTPMockError? {
        guard let phrase = storage.reasonPhrase, !Self.isReasonPhrase(phrase) else { return nil }
        return .invalidResponse("the reason phrase \(String(reflecting: phrase)) holds a line break or another control character; a status line allows tabs, spaces and visible characters only")
    }

    /// Whether `phrase` may stand on a status line: tabs, spaces, visible characters and bytes above ASCII.
    static func isReasonPhrase(_ phrase: String) -> Bool {
        phrase.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }
    }

    /// Where another server answers instead (``Content/forward(_:)``).
    var forwarding: Forwarding? {
        if case .forward(let forwarding) = storage.content { return forwarding }
        return nil
    }
    /// Set by ``NetworkFault/truncatedBody(_:after:)``: the connection drops after this many body bytes.
    var truncation: Int? {
        get { storage.truncation }
        set { mutate { $0.truncation = newValue } }
    }
    /// Builds the response actually served from the request (templated bodies of mapping files); applied by the
    /// engine when the response is taken from its queue.
    var render: (@Sendable (CapturedRequest) -> MockResponse)? {
        get { storage.render }
        set { mutate { $0.render = newValue } }
    }
    /// Whether ``render`` is this package's own template work alone (no file read, no user code), which a server
    /// may try on its event loop within a small budget (``Engine/attemptInPlace(_:)``).
    var rendersInPlace: Bool {
        get { storage.rendersInPlace }
        set { mutate { $0.rendersInPlace = newValue } }
    }

    /// Where serving this response moves a scenario (``movingScenario(_:to:)``); applied by the engine when it
    /// takes the response from its queue.
    var scenarioMove: ScenarioPoint? {
        get { storage.scenarioMove }
        set { mutate { $0.scenarioMove = newValue } }
    }
    /// Requests sent once the response has been served (WireMock's webhooks); the engine hands them to the
    /// interception layer when the request's journal entry completes.
    var webhooks: [Webhook] {
        get { storage.webhooks }
        set { mutate { $0.webhooks = newValue } }
    }
    /// A dynamic response built by this package's own code (bounded, never blocking), built where the request is
    /// decided rather than on a queue of its own as the user's closures are.
    var isBuiltInPlace: Bool { storage.builtInPlace }

    /// This dynamic response marked as built by the package's own code: HTTPMockOpenAPI's document stubs, whose
    /// answers are made in a few microseconds, skip the hop to a queue of their own that user closures take.
    package func builtInPlace() -> MockResponse {
        var copy = self
        copy.mutate { $0.builtInPlace = true }
        return copy
    }

    /// The fields, shared by copies until one of them changes (copy on write): a response registered for
    /// 100,000 stubs is stored once, not 100,000 times.
    private var storage: Storage

    /// How the response goes out, when a stub's queue serves it more than once (``withWireForm()``): built at its
    /// first serving so that each request does not build it again; any change to the response drops it.
    private(set) var wire: WireForm?

    private final class Storage: @unchecked Sendable {  // reason: only mutated through `mutate`, which copies it first unless this value holds the only reference
        var status: Status
        var headers: [String: String]
        var lifetime: Lifetime
        var delivery: Delivery
        var followsRedirects = true
        var content: Content
        var problem: HTTPMockError?
        var truncation: Int?
        var render: (@Sendable (CapturedRequest) -> MockResponse)?
        var scenarioMove: ScenarioPoint?
        var webhooks: [Webhook] = []
        var builtInPlace = false
        var rendersInPlace = false
        var reasonPhrase: String?
        var headerLines: [String: [String]] = [:]

        init(status: Status, headers: [String: String], lifetime: Lifetime, delivery: Delivery, content: Content,
             problem: HTTPMockError?) {
            self.status = status
            self.headers = headers
            self.lifetime = lifetime
            self.delivery = delivery
            self.content = content
            self.problem = problem
        }

        func copy() -> Storage {
            let copy = Storage(status: status, headers: headers, lifetime: lifetime, delivery: delivery,
                               content: content, problem: problem)
            copy.followsRedirects = followsRedirects
            copy.truncation = truncation
            copy.render = render
            copy.scenarioMove = scenarioMove
            copy.webhooks = webhooks
            copy.builtInPlace = builtInPlace
            copy.rendersInPlace = rendersInPlace
            copy.reasonPhrase = reasonPhrase
            copy.headerLines = headerLines
            return copy
        }
    }

    private mutating func mutate(_ change: (Storage) -> Void) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        change(storage)
        wire = nil
    }

    /// The response with its ``wire`` form, when its body is in memory and served whole as it is: a response a face
    /// hands out again and again (a document's default answer) is then not built again for each request.
    package func withWireForm() -> MockResponse {
        guard wire == nil, storage.truncation == nil, storage.render == nil,
              case .data(let data) = storage.content else { return self }
        var copy = self
        var headers = storage.headers
        if !headers.keys.contains(where: { ASCIICase.equal($0, "content-length") }) {
            headers["Content-Length"] = String(data.count)
        }
        copy.wire = WireForm(headers: headers)
        return copy
    }

    enum Content: Sendable {
        case data(Data)
        /// Read when served, so a large file is never held in memory by the registration.
        case file(URL)
        /// The request fails with this error instead of getting a response.
        case failure(any Error & Sendable)
        /// Built from the request and the captured template values when a request is answered.
        case dynamic(@Sendable (CapturedRequest, [String: String]) -> MockResponse)
        /// Parts delivered over time (``MockResponse/chunks(_:contentType:status:fault:lifetime:headers:)``).
        case stream(StreamSource)
        /// A WebSocket conversation (``MockResponse/webSocket(_:handle:lifetime:)``), served by HTTPMockServer.
        case webSocket(WebSocketConversation)
        /// Another server's answer: the request goes on to it (WireMock's `proxyBaseUrl`).
        case forward(Forwarding)
    }

    /// A response with a raw body.
    ///
    /// - Parameters:
    ///   - status: The HTTP status. Default 200.
    ///   - headers: Response headers.
    ///   - body: The body bytes; `nil` or empty for no body.
    ///   - contentType: Written to `Content-Type` unless `headers` already has one.
    ///   - lifetime: How many requests it answers. Default one.
    ///   - delivery: When it is delivered. Default at once.
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
        var headers = headers
        if let contentType, !headers.keys.contains(where: { $0.caseInsensitiveCompare("Content-Type") == .orderedSame }) {
            headers["Content-Type"] = contentType
        }
        storage = Storage(status: status, headers: headers, lifetime: lifetime, delivery: delivery, content: content,
                          problem: problem)
    }

    /// The body when it is held in memory; `nil` for file, failure and streamed responses.
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
