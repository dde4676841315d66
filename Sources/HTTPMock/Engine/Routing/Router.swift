/// The index of a mock's stubs: finds every stub whose host and path match a request without scanning them all.
///
/// Hosts live in a trie keyed by reversed labels; each host node holds a trie of path segments whose leaves list
/// stub identifiers. Not thread-safe: the engine owns it behind a lock.
final class Router {
    private final class Leaf {
        var ids: [StubID] = []
    }

    private var hosts = SegmentTrie<SegmentTrie<Leaf>>()
    private(set) var stubs: [StubID: Stub] = [:]
    private var idsByKey: [String: StubID] = [:]
    private var nextID = 0

    private static let anyHost = Glob(segments: [.anyDepth])
    private static let anyPath = Glob(segments: [.anyDepth])

    /// Adds `responses` to the stub with this route and these conditions, creating it if it is new.
    @discardableResult
    func add(host: HostPattern?, path: PathPattern?, conditions: [Condition], responses: [MockResponse]) -> StubID {
        let key = Stub.key(host: host, path: path, conditions: conditions)
        if let key, let id = idsByKey[key], stubs[id] != nil {
            for response in responses { stubs[id]!.queue.append(response) }
            return id
        }
        let id = StubID(rawValue: nextID)
        nextID += 1
        var stub = Stub(id: id, host: host, path: path, conditions: conditions)
        for response in responses { stub.queue.append(response) }
        stubs[id] = stub
        if let key { idsByKey[key] = id }
        leaf(host: host, path: path).ids.append(id)
        return id
    }

    private func leaf(host: HostPattern?, path: PathPattern?) -> Leaf {
        let hostSegments = (host?.glob ?? Self.anyHost).segments.reversed()
        let paths = hosts.node(for: Array(hostSegments)) { SegmentTrie<Leaf>() }
        return paths.node(for: (path?.glob ?? Self.anyPath).segments) { Leaf() }
    }

    /// Stubs whose host and path match, most specific first. Conditions and queues are not checked here.
    func candidates(for request: CapturedRequest) -> [StubID] {
        // Copy out what the walk needs: capturing the whole request in the closures below copies every field of it.
        let segments = request.pathSegments
        let port = request.port
        var found: [StubID] = []
        hosts.forEachMatch(HostPattern.reversedLabels(of: request.host)) { paths in
            paths.forEachMatch(segments) { leaf in found.append(contentsOf: leaf.ids) }
        }
        if found.count > 1 {
            // A stub reached by two routes (`**` can match in several ways) is listed once.
            found.sort()
            var last: StubID?
            found.removeAll { id in
                defer { last = id }
                return id == last
            }
        }
        var matching: [(id: StubID, specificity: Specificity)] = []
        matching.reserveCapacity(found.count)
        for id in found {
            guard let stub = stubs[id] else { continue }
            if let wanted = stub.host?.port, wanted != port { continue }
            matching.append((id, stub.specificity))
        }
        if matching.count > 1 { matching.sort { $0.specificity > $1.specificity } }
        return matching.map(\.id)
    }

    func update(_ id: StubID, _ body: (inout Stub) -> Void) {
        guard stubs[id] != nil else { return }
        body(&stubs[id]!)
    }

    /// Removes the stubs for which `shouldRemove` is true.
    func removeAll(where shouldRemove: (Stub) -> Bool) {
        let doomed = Set(stubs.values.filter(shouldRemove).map(\.id))
        guard !doomed.isEmpty else { return }
        for id in doomed { stubs[id] = nil }
        idsByKey = idsByKey.filter { !doomed.contains($0.value) }
        hosts.forEachValue { paths in
            paths.forEachValue { leaf in leaf.ids.removeAll { doomed.contains($0) } }
        }
    }

    func removeAll() {
        hosts = SegmentTrie()
        stubs = [:]
        idsByKey = [:]
    }
}
