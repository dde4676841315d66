import Foundation

extension MockResponse {
    /// A redirect to `location` (absolute, or relative to the request's URL).
    ///
    /// The mock follows it as URLSession follows a real one: the next request goes to `location` and is
    /// answered by the mock's stubs, and the caller gets the final response, whose `url` is the final URL. A
    /// `303`, and a `301` or `302` to a `POST`, continue as `GET` without a body; `307` and `308` keep the method
    /// and body. After ``HTTPMock/maximumRedirects`` hops the request fails with
    /// `URLError(.httpTooManyRedirects)`. Set `follow: false` (or ``HTTPMock/followsRedirects``) to deliver the
    /// 3xx itself.
    ///
    /// ```swift
    /// mock.addResponses(forPath: "/old", host: "example.com", responses: [.redirect(to: "/new")])
    /// ```
    public static func redirect(
        to location: String,
        status: Status = .found,
        follow: Bool = true,
        lifetime: Lifetime = .single,
        delivery: Delivery = .instant,
        headers: [String: String] = [:]
    ) -> MockResponse {
        var response = MockResponse(status: status, headers: headers, content: .data(Data()), contentType: nil,
                                    lifetime: lifetime, delivery: delivery)
        response.headers["Location"] = location
        response.followsRedirects = follow
        if !(300...399).contains(status.code) {
            response.problem = .invalidResponse("redirect to \"\(location)\" has status \(status.code); use a 3xx status such as .found (302)")
        } else if location.isEmpty || URL(string: location) == nil {
            response.problem = .invalidResponse("redirect location \"\(location)\" is not a URL; give an absolute URL or a path such as \"/next\"")
        }
        return response
    }

    /// The `Location` a followed redirect goes to, if this is one.
    var redirectLocation: String? {
        guard (300...399).contains(status.code), status.code != 304 else { return nil }
        return headers.first { $0.key.caseInsensitiveCompare("Location") == .orderedSame }?.value
    }
}
