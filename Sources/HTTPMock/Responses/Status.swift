extension MockResponse {
    /// An HTTP status code. Use a named constant, ``other(_:)``, or an integer literal.
    ///
    /// ```swift
    /// MockResponse.empty(status: .notFound)
    /// MockResponse.empty(status: .other(503))
    /// MockResponse.empty(status: 418)
    /// ```
    public struct Status: Sendable, Hashable, ExpressibleByIntegerLiteral, CustomStringConvertible {
        /// The numeric code, such as `404`.
        public let code: Int

        /// A status with this numeric code.
        public init(code: Int) { self.code = code }
        public init(integerLiteral value: Int) { self.init(code: value) }

        /// Any status code by number.
        public static func other(_ code: Int) -> Status { Status(code: code) }

        /// `200 OK`.
        public static let ok: Status = 200
        /// `201 Created`.
        public static let created: Status = 201
        /// `202 Accepted`.
        public static let accepted: Status = 202
        /// `204 No Content`.
        public static let noContent: Status = 204
        /// `301 Moved Permanently`.
        public static let movedPermanently: Status = 301
        /// `302 Found`.
        public static let found: Status = 302
        /// `303 See Other`.
        public static let seeOther: Status = 303
        /// `304 Not Modified`.
        public static let notModified: Status = 304
        /// `307 Temporary Redirect`.
        public static let temporaryRedirect: Status = 307
        /// `308 Permanent Redirect`.
        public static let permanentRedirect: Status = 308
        /// `400 Bad Request`.
        public static let badRequest: Status = 400
        /// `401 Unauthorized`.
        public static let unauthorized: Status = 401
        /// `403 Forbidden`.
        public static let forbidden: Status = 403
        /// `404 Not Found`.
        public static let notFound: Status = 404
        /// `405 Method Not Allowed`.
        public static let methodNotAllowed: Status = 405
        /// `409 Conflict`.
        public static let conflict: Status = 409
        /// `410 Gone`.
        public static let gone: Status = 410
        /// `422 Unprocessable Entity`.
        public static let unprocessableEntity: Status = 422
        /// `429 Too Many Requests`.
        public static let tooManyRequests: Status = 429
        /// `500 Internal Server Error`.
        public static let internalServerError: Status = 500
        /// `501 Not Implemented`.
        public static let notImplemented: Status = 501
        /// `502 Bad Gateway`.
        public static let badGateway: Status = 502
        /// `503 Service Unavailable`.
        public static let serviceUnavailable: Status = 503
        /// `504 Gateway Timeout`.
        public static let gatewayTimeout: Status = 504

        public var description: String { String(code) }
    }
}
