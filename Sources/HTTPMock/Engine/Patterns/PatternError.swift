/// Why a host or path pattern was refused. The message names the pattern, what is wrong and how to fix it.
public struct PatternError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which part of a route the pattern was for.
    public enum Kind: String, Sendable {
        case host, path
    }

    /// Whether it was a host or a path pattern.
    public let kind: Kind
    /// The pattern as written.
    public let pattern: String
    /// What is wrong with it, and how to fix it.
    public let reason: String

    public var description: String {
        "invalid \(kind.rawValue) pattern \"\(pattern)\": \(reason)"
    }
}
