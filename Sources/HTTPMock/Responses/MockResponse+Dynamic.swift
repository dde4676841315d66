import Foundation

extension MockResponse {
    /// A response built when a request arrives, from the request and the values a URI template captured.
    ///
    /// ```swift
    /// try mock.stub(.uriTemplate("/users/{id}"), responses: [
    ///     .dynamic(lifetime: .eternal) { request, captures in
    ///         .encodable(User(id: Int(captures["id"] ?? "") ?? 0, name: "User \(captures["id"] ?? "?")"))
    ///     },
    /// ])
    /// ```
    ///
    /// `captures` holds the variables of the stub's ``Match/uriTemplate(_:)`` (empty without one). The
    /// response you return is delivered as it is (its status, headers, body, delay; its lifetime is not used:
    /// this response's `lifetime` says how often `make` is asked; this response's `delivery` applies when the
    /// returned one has none; headers of this response, such as those of enclosing ``Headers``, are added to the
    /// returned one where it sets none). `make` runs outside the mock's lock, so it may
    /// read the mock's journal; it must not block for long.
    public static func dynamic(
        lifetime: Lifetime = .single,
        delivery: Delivery = .instant,
        _ make: @escaping @Sendable (_ request: CapturedRequest, _ captures: [String: String]) -> MockResponse
    ) -> MockResponse {
        MockResponse(headers: [:], content: .dynamic(make), contentType: nil, lifetime: lifetime, delivery: delivery)
    }

    /// Sends the request's headers and body back, as HTTPStubber's echo does.
    ///
    /// ```swift
    /// try mock.stub(.path("/echo"), responses: [.echo(lifetime: .eternal)])
    /// ```
    ///
    /// The response carries every header of the request the mock could see (a name given several times is sent
    /// once, its values joined with `, `), with `Content-Type` defaulting to `application/octet-stream`; `headers`
    /// given here win over the request's. `Content-Length` is the body's.
    public static func echo(
        status: Status = .ok,
        lifetime: Lifetime = .single,
        delivery: Delivery = .instant,
        headers: [String: String] = [:]
    ) -> MockResponse {
        dynamic(lifetime: lifetime, delivery: delivery) { request, _ in
            var echoed = request.headers.dictionary.filter { !ASCIICase.equal($0.key, "content-length") }
            for (name, value) in headers {
                echoed = echoed.filter { !ASCIICase.equal($0.key, name) }
                echoed[name] = value
            }
            return MockResponse(status: status, headers: echoed, body: request.body,
                                contentType: "application/octet-stream")
        }
    }

    /// Resolves a dynamic response for `request`; other responses come back unchanged.
    func resolved(for request: CapturedRequest, captures: [String: String]) -> MockResponse {
        guard case .dynamic(let make) = content else { return self }
        var made = make(request, captures)
        if case .dynamic = made.content {
            made = .failure(HTTPMockError(.invalidResponse, "response: a dynamic response returned another dynamic response; return a concrete one"))
        }
        if let problem = made.problem { return .failure(problem) }
        if let problem = made.delivery.problem { return .failure(HTTPMockError.invalidResponse(problem)) }
        // Headers given to this response (by `Headers` of the enclosing scopes) reach the one made; its own win.
        if !headers.isEmpty { made = made.inheriting(headers) }
        // Changed only where it differs: a response made once and handed out again keeps its wire form.
        if made.lifetime != lifetime { made.lifetime = lifetime }
        if made.delivery == .instant, delivery != .instant { made.delivery = delivery }
        return made
    }
}
