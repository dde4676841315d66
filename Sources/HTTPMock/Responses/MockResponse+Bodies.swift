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
}
