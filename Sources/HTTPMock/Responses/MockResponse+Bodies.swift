import Foundation

extension MockResponse {
    /// The `Content-Type` header. Setting it replaces the header, whatever the case of its name.
    ///
    /// ```swift
    /// var response = MockResponse(body: pngData)
    /// response.contentType = "image/png"
    /// ```
    public var contentType: String? {
        get { headers.first { $0.key.caseInsensitiveCompare("Content-Type") == .orderedSame }?.value }
        set {
            headers = headers.filter { $0.key.caseInsensitiveCompare("Content-Type") != .orderedSame }
            if let newValue { headers["Content-Type"] = newValue }
        }
    }

    /// A JSON body serialised from any JSON value: a dictionary, an array, or a string, number or boolean;
    /// `Content-Type: application/json`. A value that is not JSON makes the registration fail, naming it.
    ///
    /// ```swift
    /// MockResponse.json([["id": 1], ["id": 2]])
    /// ```
    public static func json(
        _ object: Any,
        status: Status = .ok,
        lifetime: Lifetime = .single,
        delivery: Delivery = .instant,
        headers: [String: String] = [:]
    ) -> MockResponse {
        guard JSONSerialization.isValidJSONObject([object]),
              let wrapped = try? JSONSerialization.data(withJSONObject: [object], options: [.sortedKeys]) else {
            var response = MockResponse(status: status, headers: headers, lifetime: lifetime, delivery: delivery)
            response.problem = .invalidResponse("\(object) is not a JSON value (use strings, numbers, booleans, NSNull, arrays and dictionaries)")
            return response
        }
        // Serialised inside an array so that top-level scalars work everywhere; unwrap the brackets.
        let data = Data(wrapped.dropFirst().dropLast())
        return MockResponse(status: status, headers: headers, content: .data(data), contentType: "application/json",
                            lifetime: lifetime, delivery: delivery)
    }

    /// A text body with the `Content-Type` you choose (default `text/plain; charset=utf-8`).
    ///
    /// ```swift
    /// MockResponse.text("<h1>Hi</h1>", contentType: "text/html; charset=utf-8")
    /// ```
    public static func text(
        _ text: String,
        contentType: String = "text/plain; charset=utf-8",
        status: Status = .ok,
        lifetime: Lifetime = .single,
        delivery: Delivery = .instant,
        headers: [String: String] = [:]
    ) -> MockResponse {
        MockResponse(status: status, headers: headers, content: .data(Data(text.utf8)), contentType: contentType,
                     lifetime: lifetime, delivery: delivery)
    }
}
