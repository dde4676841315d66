/// The stubs one load of a file or folder registered (a Mockingbird bundle, mapping files, a HAR), so they can be
/// removed again without touching anything else the mock has.
///
/// ```swift
/// let offline = try mock.loadMappings(from: mocksFolder)
/// // …
/// offline.remove()   // the other stubs of `mock` stay
/// ```
public struct LoadedMocks: Sendable {
    /// The file or folder that was loaded.
    public let source: String
    /// How many stubs the load registered (requests that share a route and conditions share one stub).
    public var stubCount: Int { ids.count }

    let ids: Set<StubID>
    /// The stubs this load registered.
    package var stubIDs: Set<StubID> { ids }
    let engine: Engine
    /// The engine slot this load occupies, if loads into it replace each other.
    let slot: String?
    /// The messaging slot of the message stubs this load registered (a WireMock folder's `message-mappings/`).
    var messageSlot: String?

    /// Removes the stubs this load registered, with their remaining responses. Other stubs stay. Removing twice
    /// does nothing.
    ///
    /// A handle removes what it added (this, ``StubHandle/remove()``); the mock clears a whole collection
    /// (``HTTPMock/clearQueues()``, ``HTTPMock/clearQueue(forHost:)``).
    public func remove() {
        engine.removeLoad(ids, slot: slot)
        if let messageSlot { engine.messaging.removeSlot(messageSlot) }
    }

    /// Removes many loads of one mock in one step, as ``remove()`` removes each (HTTPMockServer's admin reset).
    package static func remove(_ loads: [LoadedMocks]) {
        guard let engine = loads.first?.engine else { return }
        engine.removeLoads(loads.map { ($0.ids, $0.slot) })
        for load in loads { if let slot = load.messageSlot { engine.messaging.removeSlot(slot) } }
    }
}

extension Engine {
    /// Registers `definitions` as one load. With a `slot`, the previous load in that slot is replaced in the same
    /// step (no request sees both, or neither).
    func load(_ definitions: [Definition], source: String, slot: String?) throws(HTTPMockError) -> LoadedMocks {
        let ids = Set(try register(definitions, slot: slot))
        return LoadedMocks(source: source, ids: ids, engine: self, slot: slot)
    }
}

extension Condition {
    /// Marks a stub as loaded from `source`. It tests nothing and weighs nothing; it keeps the stub apart from every
    /// other registration (a `nil` key: loads never feed the queue of a stub registered in code) and names the
    /// source in reports (`… [method GET, from bundle.json [3]]`).
    static func loaded(from source: String) -> Condition {
        Condition(key: nil, weight: 0, summary: "from \(source)") { _ in true }
    }
}
