/// Finds the stub registered under a ``Stub/key(host:path:conditions:)``, so that registering the same route again
/// feeds the same queue.
///
/// Stubs are listed by the hash of their key and the key is rebuilt from the stub to confirm a match: keeping
/// 100,000 key strings alive would cost more memory than the stubs' patterns.
struct StubKeyIndex {
    private var idsByHash: [Int: StubID] = [:]
    /// The rare keys whose hash another live key already holds.
    private var idsByCollidingKey: [String: StubID] = [:]

    /// The stub registered under `key`, if it is still in `stubs`.
    func id(forKey key: String, in stubs: StubTable) -> StubID? {
        if let id = idsByCollidingKey[key], stubs[id] != nil { return id }
        guard let id = idsByHash[key.hashValue], let stub = stubs[id], Self.key(of: stub) == key else { return nil }
        return id
    }

    mutating func remember(_ key: String, for id: StubID, in stubs: StubTable) {
        let hash = key.hashValue
        if let holder = idsByHash[hash], holder != id, let stub = stubs[holder], Self.key(of: stub) != key {
            idsByCollidingKey[key] = id
        } else {
            idsByHash[hash] = id
        }
    }

    mutating func removeAll(_ doomed: Set<StubID>) {
        idsByHash = idsByHash.filter { !doomed.contains($0.value) }
        idsByCollidingKey = idsByCollidingKey.filter { !doomed.contains($0.value) }
    }

    private static func key(of stub: Stub) -> String? {
        Stub.key(host: stub.host, path: stub.path, conditions: stub.conditions)
    }
}
