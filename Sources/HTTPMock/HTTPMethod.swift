/// An HTTP method. Compared upper-cased: `"post"` and `.post` are the same.
public struct HTTPMethod: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method name, upper-cased.
    public let rawValue: String

    /// A method by name; `"post"` becomes `POST`.
    public init(_ rawValue: String) { self.rawValue = rawValue.uppercased() }
    public init(stringLiteral value: String) { self.init(value) }

    /// `GET`.
    public static let get = HTTPMethod("GET")
    /// `HEAD`.
    public static let head = HTTPMethod("HEAD")
    /// `POST`.
    public static let post = HTTPMethod("POST")
    /// `PUT`.
    public static let put = HTTPMethod("PUT")
    /// `PATCH`.
    public static let patch = HTTPMethod("PATCH")
    /// `DELETE`.
    public static let delete = HTTPMethod("DELETE")
    /// `OPTIONS`.
    public static let options = HTTPMethod("OPTIONS")
    /// `TRACE`.
    public static let trace = HTTPMethod("TRACE")
    /// `CONNECT`.
    public static let connect = HTTPMethod("CONNECT")

    public var description: String { rawValue }
}
