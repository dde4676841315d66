/// Why a host or path pattern was refused. The message names the pattern, what is wrong and how to fix it.
struct GlobError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which part of a route the pattern was for.
    enum Kind: String, Sendable {
        case host, path
    }

    /// Whether it was a host or a path pattern.
    let kind: Kind
    /// The pattern as written.
    let pattern: String
    /// What is wrong with it, and how to fix it.
    let reason: String

    var description: String {
        "invalid \(kind.rawValue) pattern \"\(pattern)\": \(reason)"
    }
}
