/// Why a host or path pattern was refused. The message names the pattern, what is wrong and how to fix it.
public struct PatternError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case host, path
    }

    public let kind: Kind
    public let pattern: String
    public let reason: String

    public var description: String {
        "invalid \(kind.rawValue) pattern \"\(pattern)\": \(reason)"
    }
}
