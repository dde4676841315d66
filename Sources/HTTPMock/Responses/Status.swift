extension MockResponse {
    /// An HTTP status code. Use a named constant, ``other(_:)``, or an integer literal.
    ///
    /// ```swift
    /// MockResponse.empty(status: .notFound)
    /// MockResponse.empty(status: .other(503))
    /// MockResponse.empty(status: 418)
    /// ```
    public struct Status: Sendable, Hashable, ExpressibleByIntegerLiteral, CustomStringConvertible {
        public let code: Int

        public init(code: Int) { self.code = code }
        public init(integerLiteral value: Int) { self.init(code: value) }

        /// Any status code by number.
        public static func other(_ code: Int) -> Status { Status(code: code) }

        public static let ok: Status = 200
        public static let created: Status = 201
        public static let accepted: Status = 202
        public static let noContent: Status = 204
        public static let movedPermanently: Status = 301
        public static let found: Status = 302
        public static let seeOther: Status = 303
        public static let notModified: Status = 304
        public static let temporaryRedirect: Status = 307
        public static let permanentRedirect: Status = 308
        public static let badRequest: Status = 400
        public static let unauthorized: Status = 401
        public static let forbidden: Status = 403
        public static let notFound: Status = 404
        public static let methodNotAllowed: Status = 405
        public static let conflict: Status = 409
        public static let gone: Status = 410
        public static let unprocessableEntity: Status = 422
        public static let tooManyRequests: Status = 429
        public static let internalServerError: Status = 500
        public static let notImplemented: Status = 501
        public static let badGateway: Status = 502
        public static let serviceUnavailable: Status = 503
        public static let gatewayTimeout: Status = 504

        public var description: String { String(code) }
    }
}
