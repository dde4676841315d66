/// A registered stub (or ignore rule), to switch off and on at run time, count, or remove.
///
/// ```swift
/// let maintenance = try mock.stub(.host("api.example.com"), responses: [.empty(status: .serviceUnavailable, lifetime: .eternal)])
/// maintenance.isEnabled = false   // requests fall through to other stubs
/// maintenance.isEnabled = true
/// ```
///
/// A handle from a per-method registration (``HTTPMock/stub(_:byMethod:)``) controls every method's stub.
public struct StubHandle: Sendable {
    let engine: Engine
    /// The stubs (one per method for a per-method registration).
    public let ids: [StubID]
    let isIgnoreRule: Bool

    /// Whether the stub answers. A disabled stub keeps its queue and is skipped as if it did not match.
    public var isEnabled: Bool {
        get { engine.state.withLock { state in ids.contains { table(state).stubs[$0]?.isEnabled == true } } }
        nonmutating set {
            engine.state.withLock { state in
                for id in ids { table(state).update(id) { $0.isEnabled = newValue } }
            }
        }
    }

    /// How many requests the stub answered (for an ignore rule: always 0).
    public var hitCount: Int {
        engine.state.withLock { state in ids.reduce(0) { $0 + (table(state).stubs[$1]?.hits ?? 0) } }
    }

    /// Removes the stub and its queued responses.
    public func remove() {
        let doomed = Set(ids)
        engine.state.withLock { state in table(state).removeAll { doomed.contains($0.id) } }
    }

    private func table(_ state: Engine.State) -> Router { isIgnoreRule ? state.ignored : state.router }
}
