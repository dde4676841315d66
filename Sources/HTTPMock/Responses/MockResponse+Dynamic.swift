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
    /// returned one has none). `make` runs outside the mock's lock, so it may
    /// read the mock's journal; it must not block for long.
    public static func dynamic(
        lifetime: Lifetime = .single,
        delivery: Delivery = .instant,
        _ make: @escaping @Sendable (_ request: CapturedRequest, _ captures: [String: String]) -> MockResponse
    ) -> MockResponse {
        MockResponse(headers: [:], content: .dynamic(make), contentType: nil, lifetime: lifetime, delivery: delivery)
    }

    /// Sends the request's body back, with the request's `Content-Type`.
    ///
    /// ```swift
    /// try mock.stub(.path("/echo"), responses: [.echo(lifetime: .eternal)])
    /// ```
    public static func echo(
        status: Status = .ok,
        lifetime: Lifetime = .single,
        delivery: Delivery = .instant,
        headers: [String: String] = [:]
    ) -> MockResponse {
        dynamic(lifetime: lifetime, delivery: delivery) { request, _ in
            MockResponse(status: status, headers: headers, body: request.body,
                         contentType: request.headers["Content-Type"] ?? "application/octet-stream")
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
        made.lifetime = lifetime
        if made.delivery == .instant { made.delivery = delivery }
        return made
    }
}
