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
        get { engine.isEnabled(ids, in: registry) }
        nonmutating set { engine.setEnabled(newValue, ids, in: registry) }
    }

    /// How many requests the stub answered (for an ignore rule: always 0).
    public var hitCount: Int {
        engine.hits(ids, in: registry)
    }

    /// Removes the stub (or ignore rule) this handle registered, with its queued responses. Other stubs stay.
    /// Removing twice does nothing.
    ///
    /// A handle removes what it added; the mock clears a whole collection (``HTTPMock/clearQueues()``,
    /// ``HTTPMock/clearQueue(forHost:)``, ``HTTPMock/clearIgnoreRules()``, ``HTTPMock/clearJournal()``).
    public func remove() {
        engine.remove(ids, from: registry)
    }

    private var registry: Engine.Registry { isIgnoreRule ? .ignoreRules : .stubs }
}
