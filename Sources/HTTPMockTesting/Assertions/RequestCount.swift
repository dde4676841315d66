/// How many matching requests an assertion expects.
///
/// ```swift
/// HTTPAssertRequested("https://api.example.com/ping", count: .exactly(3))
/// HTTPAssertRequested("https://api.example.com/ping", count: .atMost(2))
/// ```
public enum RequestCount: Sendable, Equatable, CustomStringConvertible {
    /// This many, no more, no fewer.
    case exactly(Int)
    /// This many or more.
    case atLeast(Int)
    /// This many or fewer (zero included).
    case atMost(Int)

    /// No matching request.
    public static let never = RequestCount.exactly(0)
    /// Exactly one matching request.
    public static let once = RequestCount.exactly(1)

    /// Whether `count` requests satisfy the expectation.
    public func accepts(_ count: Int) -> Bool {
        switch self {
        case .exactly(let expected): count == expected
        case .atLeast(let minimum): count >= minimum
        case .atMost(let maximum): count <= maximum
        }
    }

    public var description: String { description(method: nil) }

    /// `exactly 2 POST requests`, `no request`.
    func description(method: String?) -> String {
        let noun = (method.map { "\($0) " } ?? "") + "request"
        switch self {
        case .exactly(0): return "no \(noun)"
        case .exactly(let count): return "exactly \(count) \(noun)\(count == 1 ? "" : "s")"
        case .atLeast(let count): return "at least \(count) \(noun)\(count == 1 ? "" : "s")"
        case .atMost(let count): return "at most \(count) \(noun)\(count == 1 ? "" : "s")"
        }
    }
}
