/// Tells a trait applied to a suite (and inherited by its tests) from the same kind of trait applied to one test.
/// Copies of one trait share its membership, and `prepare(for:)`, which runs on the suite before any of its tests,
/// notes it.
final class SuiteMembership: Sendable {
    /// The memberships noted on suites, by identity.
    private static let onSuites = Locked<Set<ObjectIdentifier>>([])

    /// Notes that the trait holding this membership is applied to a suite.
    func noteSuite() { _ = Self.onSuites.withLock { $0.insert(ObjectIdentifier(self)) } }

    /// Whether the trait holding this membership was applied to a suite.
    var isOnSuite: Bool { Self.onSuites.withLock { $0.contains(ObjectIdentifier(self)) } }
}
