#if OpenAPI
import Foundation
// Imports HTTPMock for you, as HTTPMockTesting does.
@_exported import HTTPMock
import HTTPTypes
import OpenAPIRuntime

/// A swift-openapi `ClientTransport` answered by an `HTTPMock`, with no `URLSession` in between.
///
/// Hand it to a client that swift-openapi-generator generated, in place of the transport the app uses:
///
/// ```swift
/// let mock = HTTPMock()
/// let client = Client(serverURL: URL(string: "https://api.example.com")!, transport: mock.openAPITransport())
/// ```
///
/// Each request is answered exactly as the mock's `HTTPMock.urlSession` would answer it through
/// `URLSessionTransport`: the same stubs, conditions and queues, redirects followed by the mock
/// (`HTTPMock.followsRedirects`), cookies in the storage of the mock's session, delays, faults and
/// the `UnmockedPolicy`; the request and its outcome land in the mock's journal, so the assertions
/// of HTTPMockTesting work unchanged. What differs is the cost: no session, task or `URLProtocol` is involved.
///
/// How the `HTTPRequest` becomes the `CapturedRequest` that stubs match:
/// - the URL is `baseURL` followed by the request's path and query, as `URLSessionTransport` joins them;
/// - repeated header fields are joined into one (with `, `, or `; ` for `Cookie`), as `URLSessionTransport`
///   joins them into a `URLRequest`, so a stub matches the same headers through either transport;
/// - a streamed body is collected once, whole, before the mock decides.
///
/// And how the answer comes back:
/// - a response becomes an `HTTPResponse` with its status and headers (plus `Content-Length`) and an
///   `HTTPBody` that can be read more than once (empty for `HEAD`);
/// - a streamed response (`MockResponse.events`, `.chunks`, `.stream`) becomes an `HTTPResponse` without
///   `Content-Length` and an `HTTPBody` read once, that yields each part when it is due and the client asks for it
///   (so swift-openapi-runtime's server-sent-events decoding gets each event as it arrives); a fault is thrown
///   from the body; a client that cancels or stops reading frees the stream, and the journal says it went away;
/// - a failure, a `NetworkFault` or the unmocked policy's error is thrown, and the generated client
///   wraps it in its `ClientError` as it wraps any network error. A truncated body throws
///   `URLError(.networkConnectionLost)`, as a buffering transport reports it;
/// - a delay suspends the task without blocking a thread; cancelling the task ends it with
///   `URLError(.cancelled)`. A delay of ``timeout`` or more fails with `URLError(.timedOut)` when the timeout
///   passes;
/// - a request the mock sends to the real network (`UnmockedPolicy.passthrough`, an ignore rule)
///   goes to ``passthrough``; without one it fails with an `HTTPMockError` of code
///   `HTTPMockError.Code.passthroughUnavailable`.
public struct HTTPMockTransport: ClientTransport {
    /// The mock that answers.
    public let mock: HTTPMock
    /// Where requests the mock sends to the real network go (for example a `URLSessionTransport`); `nil`: they
    /// fail with `HTTPMockError.Code.passthroughUnavailable`.
    public var passthrough: (any ClientTransport)?
    /// Seconds before a delayed response fails with `URLError(.timedOut)`. Default 60, `URLRequest`'s default
    /// `timeoutInterval`, which `URLSessionTransport` requests get.
    public var timeout: TimeInterval

    /// A transport answered by `mock`.
    ///
    /// - Parameters:
    ///   - mock: The mock whose stubs answer and whose journal records the requests.
    ///   - passthrough: Where requests the mock sends to the real network go. Default: nowhere (they fail).
    ///   - timeout: Seconds before a delayed response fails with `URLError(.timedOut)`. Default 60.
    public init(mock: HTTPMock, passthrough: (any ClientTransport)? = nil, timeout: TimeInterval = 60) {
        self.mock = mock
        self.passthrough = passthrough
        self.timeout = timeout
    }

    /// Answers `request` from the mock. Called by the generated client; see ``HTTPMockTransport`` for what
    /// each kind of answer becomes.
    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws
        -> (HTTPResponse, HTTPBody?) {
        try Task.checkCancellation()
        let url = try Self.url(of: request, baseURL: baseURL)
        let data: Data? = if let body { try await Data(collecting: body, upTo: .max) } else { nil }
        var captured = CapturedRequest(method: request.method.rawValue, url: url,
                                       headers: Self.headers(of: request.headerFields), body: data)
        do {
            captured = try RequestContentCoding.decoding(captured, limit: RequestContentCoding.inProcessLimit)
        } catch {
            throw URLError(.cannotDecodeRawData, userInfo: [NSLocalizedDescriptionKey: RequestContentCoding.refusal(error)])
        }
        let (answer, entry) = mock.answer(captured, as: .client)
        switch answer {
        case .respond(let response):
            return try await deliver(response, entry: entry, isHead: request.method == .head)
        case .fail(let error, let delay):
            try await wait(delay, entry: entry)
            mock.complete(entry, with: .failure(error))
            throw error
        case .passthrough(let forwarded), .forward(let forwarded):
            // A forward (a stub answered by another server, WireMock's proxyBaseUrl) goes the same way, to its URL.
            return try await passThrough(forwarded, entry: entry, original: (request, data, baseURL, url), operationID: operationID)
        case .crash(let message):
            fatalError(message)
        }
    }

    /// A response after its delays, the journal completed first, as the mock's `URLSession` delivers it; a delay
    /// of ``timeout`` or more fails with `URLError(.timedOut)` when the timeout passes.
    private func deliver(_ response: WireResponse, entry: Int, isHead: Bool) async throws -> (HTTPResponse, HTTPBody?) {
        let delay = response.totalDelay
        let timeout = timeout > 0 ? timeout : .infinity
        if delay >= timeout {
            try await wait(timeout, entry: entry)
            let error = URLError(.timedOut, userInfo: [
                NSLocalizedDescriptionKey: "HTTPMock: the response was delayed \(delay) s, past the transport's timeout of \(timeout) s",
            ])
            mock.complete(entry, with: .failure(error))
            throw error
        }
        try await wait(delay, entry: entry)
        if case .webSocket = response.body {
            mock.complete(entry, with: .failure(MockResponse.webSocketUnsupported))
            throw MockResponse.webSocketUnsupported
        }
        if let playback = response.playback() {
            // A streamed body: the head now, each part when the client reads it and it is due.
            mock.beginStream(entry, status: response.status, headers: response.headers)
            let run = StreamRun(playback: playback, mock: mock, entry: entry)
            let head = Self.response(status: response.status, headers: response.headers)
            if isHead {
                run.end(.finished)
                return (head, HTTPBody())
            }
            return (head, HTTPBody(StreamedBody(run: run), length: .unknown, iterationBehavior: .single))
        }
        let body: Data
        do {
            body = try response.bodyData()
        } catch {
            let failure = error as? URLError ?? URLError(.cannotOpenFile)
            mock.complete(entry, with: .failure(failure))
            throw failure
        }
        if let cut = response.truncation, cut < body.count {
            // Status, headers and part of the body, then the connection drops: a buffered caller sees the failure.
            let lost = URLError(.networkConnectionLost)
            mock.complete(entry, with: .failure(lost))
            throw lost
        }
        mock.complete(entry, with: .response(status: response.status, headers: response.headers, body: body),
                      cookiesFor: response.url)
        var headers = response.headers
        if !headers.keys.contains(where: { $0.lowercased() == "content-length" }) {
            headers["Content-Length"] = String(body.count)
        }
        let delivered = isHead ? Data() : body
        return (Self.response(status: response.status, headers: headers),
                HTTPBody(delivered, length: .known(Int64(delivered.count)), iterationBehavior: .multiple))
    }

    /// Suspends for `seconds` (not at all for 0) without blocking a thread; if the task is cancelled meanwhile,
    /// the entry is completed with `URLError(.cancelled)`, which is thrown, as a cancelled session task fails.
    private func wait(_ seconds: TimeInterval, entry: Int) async throws {
        guard seconds > 0 else { return }
        do {
            try await Task.sleep(nanoseconds: UInt64(min(seconds, 1e9) * 1e9))
        } catch {
            let cancelled = URLError(.cancelled)
            mock.complete(entry, with: .failure(cancelled))
            throw cancelled
        }
    }

    /// Sends a request on to ``passthrough`` and records what came back in the journal.
    private func passThrough(_ forwarded: CapturedRequest, entry: Int,
                             original: (request: HTTPRequest, body: Data?, baseURL: URL, url: URL),
                             operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        guard let passthrough else {
            let error = HTTPMockError(.passthroughUnavailable, "\(forwarded.method) \(forwarded.url.absoluteString) goes to the real network (the passthrough policy, an ignore rule or a proxied stub), but this HTTPMockTransport has no passthrough transport; make it with openAPITransport(passthrough:), or stub the request")
            mock.complete(entry, with: .failure(error))
            throw error
        }
        var request = original.request
        var baseURL = original.baseURL
        if forwarded.url != original.url {
            // After redirects the mock followed: the request as redirected.
            guard var components = URLComponents(url: forwarded.url, resolvingAgainstBaseURL: true) else {
                throw URLError(.badURL)
            }
            let path = components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
            components.percentEncodedPath = ""
            components.percentEncodedQuery = nil
            components.fragment = nil
            guard let base = components.url else { throw URLError(.badURL) }
            baseURL = base
            var fields = HTTPFields()
            for field in forwarded.headers {
                if let name = HTTPField.Name(field.name) { fields.append(HTTPField(name: name, value: field.value)) }
            }
            request = HTTPRequest(method: HTTPRequest.Method(forwarded.method) ?? .get, scheme: nil, authority: nil,
                                  path: path.isEmpty ? "/" : path, headerFields: fields)
        }
        do {
            let (response, body) = try await passthrough.send(request, body: forwarded.bodyAsSent.map { HTTPBody($0) },
                                                              baseURL: baseURL, operationID: operationID)
            let data: Data = if let body { try await Data(collecting: body, upTo: .max) } else { Data() }
            var headers: [String: String] = [:]
            for field in response.headerFields {
                headers[field.name.rawName] = headers[field.name.rawName].map { "\($0), \(field.value)" } ?? field.value
            }
            mock.complete(entry, with: .response(status: response.status.code, headers: headers, body: data), cookiesFor: forwarded.url)
            return (response, HTTPBody(data, length: .known(Int64(data.count)), iterationBehavior: .multiple))
        } catch {
            mock.complete(entry, with: .failure(error))
            throw error
        }
    }

    /// `baseURL` followed by the request's path and query, as `URLSessionTransport` joins them.
    static func url(of request: HTTPRequest, baseURL: URL) throws -> URL {
        let path = request.path ?? ""
        let base = baseURL.absoluteString
        // The common case, a base URL without query or fragment: the two strings joined are the URL.
        if !base.utf8.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }),
           path.isEmpty || path.utf8.first == UInt8(ascii: "/"), let url = URL(string: base + path) {
            return url
        }
        guard var components = URLComponents(string: base), let requestComponents = URLComponents(string: path) else {
            throw URLError(.badURL, userInfo: [NSLocalizedDescriptionKey: "HTTPMock: no URL joins the base URL \(base) and the path \(path)"])
        }
        components.percentEncodedPath += requestComponents.percentEncodedPath
        components.percentEncodedQuery = requestComponents.percentEncodedQuery
        guard let url = components.url else {
            throw URLError(.badURL, userInfo: [NSLocalizedDescriptionKey: "HTTPMock: no URL joins the base URL \(base) and the path \(path)"])
        }
        return url
    }

    /// The request's fields, repeated names joined into one field in the place of the first.
    static func headers(of fields: HTTPFields) -> HeaderFields {
        var joined: [HeaderFields.Field] = []
        joined.reserveCapacity(fields.count)
        var names: [HTTPField.Name] = []
        names.reserveCapacity(fields.count)
        for field in fields {
            if let index = names.firstIndex(of: field.name) {
                joined[index].value += (field.name == .cookie ? "; " : ", ") + field.value
            } else {
                names.append(field.name)
                joined.append(HeaderFields.Field(name: field.name.rawName, value: field.value))
            }
        }
        return HeaderFields(joined)
    }

    /// The `HTTPResponse` of a mocked status and headers, the headers sorted by name.
    static func response(status: Int, headers: [String: String]) -> HTTPResponse {
        var fields = HTTPFields()
        fields.reserveCapacity(headers.count)
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        return HTTPResponse(status: HTTPResponse.Status(code: status), headerFields: fields)
    }
}

extension HTTPMock {
    /// A swift-openapi `ClientTransport` answered by this mock, for a client that swift-openapi-generator
    /// generated.
    ///
    /// ```swift
    /// let client = Client(serverURL: URL(string: "https://api.example.com")!, transport: mock.openAPITransport())
    /// ```
    ///
    /// - Parameters:
    ///   - passthrough: Where requests the mock sends to the real network go (the passthrough policy, ignore
    ///     rules). Default: nowhere; they fail with `HTTPMockError.Code.passthroughUnavailable`.
    ///   - timeout: Seconds before a delayed response fails with `URLError(.timedOut)`. Default 60.
    public func openAPITransport(passthrough: (any ClientTransport)? = nil, timeout: TimeInterval = 60) -> HTTPMockTransport {
        HTTPMockTransport(mock: self, passthrough: passthrough, timeout: timeout)
    }
}
#endif
