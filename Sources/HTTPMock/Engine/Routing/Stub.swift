/// Identifies a stub within one mock. Later registrations have larger identifiers.
public struct StubID: Sendable, Hashable, Comparable, CustomStringConvertible {
    let rawValue: Int
    /// Earlier registrations sort first.
    public static func < (lhs: StubID, rhs: StubID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "#\(rawValue)" }
}

/// A host pattern, interned by the router so that every stub naming it shares one copy.
final class SharedHost: Sendable {
    let pattern: HostGlob
    /// The host's name when the pattern is exact: what exact routes are keyed by.
    let exactName: String?

    init(_ pattern: HostGlob, exactName: String?) {
        self.pattern = pattern
        self.exactName = exactName
    }
}

/// A registered route with its conditions and its queue of responses.
struct Stub: Sendable {
    let id: StubID
    /// `nil`: any host. Held by reference and shared with the other stubs of the same host (8 bytes a stub, not 56).
    private let sharedHost: SharedHost?
    /// `nil`: any host.
    var host: HostGlob? { sharedHost?.pattern }
    /// `nil`: any path.
    let path: PathGlob?
    let conditions: [Condition]
    /// Whether a condition runs the user's code (see ``Condition/isUserCode``).
    let hasUserCode: Bool
    var queue = ResponseQueue()
    var isEnabled = true
    /// How many requests it answered.
    var hits = 0
    /// ``summary``, kept once a request was answered (the journal names the stub on every hit).
    var answeredSummary: String?

    /// Higher wins. See ``Specificity``. Computed once: the router compares it on every request with several
    /// candidates.
    let specificity: Specificity

    init(id: StubID, host sharedHost: SharedHost?, path: PathGlob?, conditions: [Condition]) {
        self.id = id
        self.sharedHost = sharedHost
        let host = sharedHost?.pattern
        self.path = path
        self.conditions = conditions
        hasUserCode = conditions.contains(where: \.isUserCode)
        if conditions.contains(where: \.ranksByRegistration) {
            // WireMock's rule: among equal priorities, the later registration, whatever the patterns.
            specificity = Specificity(precedence: conditions.reduce(0) { $0 + $1.precedence }, byRegistration: true,
                                      wildcards: 0, literals: 0, conditions: 0, id: id)
        } else {
            specificity = Specificity(host: host, path: path, conditions: conditions, id: id)
        }
    }

    /// `api.example.com/users/* [method GET, query q=swift (exact)]`
    var summary: String {
        let route = "\(host?.source ?? "(any host)")\(path?.normalized ?? "/**")"
        return conditions.isEmpty ? route : route + " [" + conditions.map(\.summary).joined(separator: ", ") + "]"
    }

    /// The identity two registrations share when they should feed one queue; `nil` when unique.
    static func key(host: HostGlob?, path: PathGlob?, conditions: [Condition]) -> String? {
        // A condition without a key (most of a WireMock mapping's) makes no key at all: asked first, before the
        // host and path are written out.
        var keys: [String] = []
        keys.reserveCapacity(conditions.count + 2)
        // By position, not a copy of each condition (its strings and closures retained and released).
        for index in conditions.indices {
            guard let key = conditions[index].key else { return nil }
            keys.append(key)
        }
        keys.append(host.map { $0.source.lowercased() } ?? "*")
        keys.append(path?.normalized ?? "**")
        return keys.sorted().joined(separator: "\u{1F}")
    }
}

/// How specific a stub is. When several stubs match a request, the most specific one answers:
///
/// 0. a higher precedence first (0 unless a condition sets one: WireMock's `priority`, see ``Condition/precedence``);
///    then a stub ranked as WireMock ranks (``Condition/wireMockOrder``) before one that is not, and between two
///    such stubs the later registration, skipping 1 to 3;
/// 1. fewer wildcard characters in host and path (`*` counts 1, `**` counts 2; an exact pattern has none);
/// 2. then more literal characters in host and path;
/// 3. then more conditions (a method, query parameters, headers, a body…);
/// 4. then the later registration, so a test can override a broader default registered earlier.
struct Specificity: Comparable, Sendable {
    let precedence: Int
    /// Ranked by registration alone among equal precedences (its pattern fields are then all 0).
    let byRegistration: Bool
    let wildcards: Int
    let literals: Int
    let conditions: Int
    let id: StubID

    static func < (lhs: Specificity, rhs: Specificity) -> Bool {
        if lhs.precedence != rhs.precedence { return lhs.precedence < rhs.precedence }
        if lhs.byRegistration != rhs.byRegistration { return rhs.byRegistration }
        if lhs.wildcards != rhs.wildcards { return lhs.wildcards > rhs.wildcards }
        if lhs.literals != rhs.literals { return lhs.literals < rhs.literals }
        if lhs.conditions != rhs.conditions { return lhs.conditions < rhs.conditions }
        return lhs.id < rhs.id
    }
}

extension Specificity {
    /// A stub's rank by its patterns: fewer wildcards, then more literal characters, then more conditions.
    init(host: HostGlob?, path: PathGlob?, conditions: [Condition], id: StubID) {
        self.init(precedence: conditions.reduce(0) { $0 + $1.precedence }, byRegistration: false,
                  wildcards: (host?.glob.wildcardCount ?? 2) + (path?.glob.wildcardCount ?? 2),
                  literals: (host?.glob.literalLength ?? 0) + (path?.glob.literalLength ?? 0),
                  conditions: conditions.reduce(0) { $0 + $1.weight }, id: id)
    }
}
