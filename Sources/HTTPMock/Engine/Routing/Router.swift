/// The index of a mock's stubs: finds every stub whose host and path match a request without scanning them all.
///
/// Routes with an exact host and an exact path (most of them) are found with one hash lookup. The others live in a
/// trie of hosts keyed by reversed labels, where each host node holds a trie of path segments whose leaves list
/// stub identifiers. Not thread-safe: the engine owns it behind a lock.
///
/// The fields read on every request skip the runtime's exclusivity checks (`@exclusivity(unchecked)`): the engine's
/// lock already serialises every access, and the checks cost more than the hash lookups they guard.
final class Router {
    @exclusivity(unchecked) private var hosts = SegmentTrie<SegmentTrie<RouteLeaf>>()
    /// Stubs whose host and path are both exact (without wildcards) are kept here instead of in `hosts`:
    /// host, then the path's segments joined with `/`.
    @exclusivity(unchecked) private var exactRoutes: [String: [String: RouteLeaf]] = [:]
    /// The last host looked up in `hosts`, with its labels reversed: a mock's requests mostly go to a few hosts,
    /// and splitting the host again costs more than the rest of the walk.
    @exclusivity(unchecked) private var lastHostLabels: (host: String, labels: [String])?
    @exclusivity(unchecked) private(set) var stubs = StubTable()
    private var keys = StubKeyIndex()
    /// One shared copy of each host pattern (many stubs name the same host), with its name when it is exact.
    private var internedHosts: [String: SharedHost] = [:]
    private var nextID = 0
    /// How many stubs have a condition that runs the user's code.
    @exclusivity(unchecked) private(set) var userCodeStubs = 0
    /// How many stubs require a scenario state: while none does, a request never looks a scenario up.
    @exclusivity(unchecked) private(set) var scenarioStubs = 0
    /// What each stub that names a scenario says about it (required states, and the moves of every response it
    /// was given, served or not): the scenarios that exist, and their possible states.
    private(set) var scenarioUses: [StubID: ScenarioUse] = [:]

    private static let anyHost = Glob(segments: [.anyDepth])
    private static let anyPath = Glob(segments: [.anyDepth])

    /// Adds `responses` to the stub with this route and these conditions, creating it if it is new.
    @discardableResult
    func add(host: HostGlob?, path: PathGlob?, conditions: [Condition], responses: [MockResponse]) -> StubID {
        let shared = host.map(intern)
        let host = shared?.pattern
        let key = Stub.key(host: host, path: path, conditions: conditions)
        if let key, let id = keys.id(forKey: key, in: stubs) {
            for response in responses { stubs[id]!.queue.append(response) }
            noteScenarios(of: id, conditions: [], responses: responses)
            return id
        }
        let id = StubID(rawValue: nextID)
        nextID += 1
        var stub = Stub(id: id, host: shared, path: path, conditions: conditions)
        for response in responses { stub.queue.append(response) }
        if stub.hasUserCode { userCodeStubs += 1 }
        noteScenarios(of: id, conditions: conditions, responses: responses)
        stubs[id] = stub
        if let key { keys.remember(key, for: id, in: stubs) }
        if let exactHost = shared?.exactName, let segments = path.flatMap(Self.exactSegments) {
            exactRoutes[exactHost, default: [:]][ExactRoute.path(segments), default: RouteLeaf()].append(id)
        } else {
            let hostSegments = Array((host?.glob ?? Self.anyHost).segments.reversed())
            let paths = hosts.node(for: hostSegments) { SegmentTrie<RouteLeaf>() }
            paths.update((path?.glob ?? Self.anyPath).segments, make: RouteLeaf.init) { $0.append(id) }
        }
        return id
    }

    private func noteScenarios(of id: StubID, conditions: [Condition], responses: [MockResponse]) {
        // Most stubs take part in no scenario: asked by position first, without copying each condition.
        guard conditions.indices.contains(where: { conditions[$0].scenario != nil })
              || responses.indices.contains(where: { responses[$0].scenarioMove != nil }) else { return }
        let required = conditions.compactMap(\.scenario)
        let moves = responses.compactMap(\.scenarioMove)
        if !required.isEmpty { scenarioStubs += 1 }
        scenarioUses[id, default: ScenarioUse()].required += required
        scenarioUses[id, default: ScenarioUse()].moves += moves
    }

    /// The literal segments of an exact path that a request's segments can equal once joined: none is empty or
    /// holds a `/` (an encoded slash, `%2F`; such a pattern stays in the trie, which compares segment by segment).
    private static func exactSegments(_ path: PathGlob) -> [String]? {
        var segments: [String] = []
        for segment in path.glob.segments {
            guard case .literal(let text) = segment, !text.isEmpty, !text.utf8.contains(UInt8(ascii: "/")) else { return nil }
            segments.append(text)
        }
        return segments
    }

    private func intern(_ host: HostGlob) -> SharedHost {
        // Patterns built from recorded traffic may share a source text with a differently compiled one: compare all.
        if let shared = internedHosts[host.source], shared.pattern == host { return shared }
        var exactName: String?
        var labels: [String] = []
        for segment in host.glob.segments {
            // As for paths: a label a request's labels could only equal once joined keeps the host in the trie.
            guard case .literal(let text) = segment, !text.isEmpty, !text.utf8.contains(UInt8(ascii: ".")) else {
                labels = []
                break
            }
            labels.append(text)
        }
        if !labels.isEmpty { exactName = labels.joined(separator: ".") }
        let shared = SharedHost(host, exactName: exactName)
        internedHosts[host.source] = shared
        return shared
    }

    /// Stubs whose host and path match, most specific first. Conditions and queues are not checked here.
    func candidates(for request: CapturedRequest) -> [StubID] {
        // Copy out what the walk needs: capturing the whole request in the closures below copies every field of it.
        let segments = request.pathSegments
        let port = request.port
        var found: [StubID] = []
        if let paths = exactRoutes[request.host] {
            paths[ExactRoute.path(segments)]?.appendAll(to: &found)
        }
        hosts.forEachMatch(reversedLabels(of: request.host)) { paths in
            paths.forEachMatch(segments) { leaf in leaf.appendAll(to: &found) }
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
        // Filtered and ranked in place: one array per request.
        found.removeAll { id in
            guard let (wanted, _) = stubs.ranking(id) else { return true }
            return wanted.map { $0 != port } ?? false
        }
        if found.count > 1 {
            let stubs = stubs
            found.sort { stubs.ranking($0)!.specificity > stubs.ranking($1)!.specificity }
        }
        return found
    }

    private func reversedLabels(of host: String) -> [String] {
        if let last = lastHostLabels, last.host == host { return last.labels }
        let labels = HostGlob.reversedLabels(of: host)
        lastHostLabels = (host, labels)
        return labels
    }

    /// Up to `limit` stubs registered for hosts that match the request's host, whatever their path: what a
    /// near-miss report compares first when a mock has too many stubs to compare them all.
    func stubs(onHostOf request: CapturedRequest, limit: Int) -> [StubID] {
        var found: [StubID] = []
        for leaf in exactRoutes[request.host]?.values ?? [:].values {
            guard found.count < limit else { break }
            leaf.appendAll(to: &found)
        }
        hosts.forEachMatch(HostGlob.reversedLabels(of: request.host)) { paths in
            paths.forEachValue { leaf in if found.count < limit { leaf.appendAll(to: &found) } }
        }
        return Array(found.prefix(limit))
    }

    func update(_ id: StubID, _ body: (inout Stub) -> Void) {
        stubs.update(id, body)
    }

    /// Removes the stubs for which `shouldRemove` is true.
    func removeAll(where shouldRemove: (Stub) -> Bool) {
        let doomed = Set(stubs.values.filter(shouldRemove).map(\.id))
        guard !doomed.isEmpty else { return }
        for id in doomed {
            if stubs[id]?.hasUserCode == true { userCodeStubs -= 1 }
            if let use = scenarioUses.removeValue(forKey: id), !use.required.isEmpty { scenarioStubs -= 1 }
            stubs[id] = nil
        }
        keys.removeAll(doomed)
        for host in exactRoutes.keys {
            for index in exactRoutes[host]!.indices { exactRoutes[host]!.values[index].removeAll { doomed.contains($0) } }
            exactRoutes[host] = exactRoutes[host]!.filter { !$0.value.isEmpty }
        }
        exactRoutes = exactRoutes.filter { !$0.value.isEmpty }
        hosts.forEachValue { paths in
            paths.forEachValue { leaf in leaf.removeAll { doomed.contains($0) } }
        }
    }

    /// Takes every stub of `staged`, a router of its own filled off the engine's lock (``Engine/Staging``): its
    /// index, stubs and counts as they are, in one step, leaving `staged` empty. `false`, changing nothing, when this
    /// router has ever issued an identifier: the staged ones start from the first, and an identifier is never used
    /// twice.
    func adopt(_ staged: Router) -> Bool {
        guard nextID == 0 else { return false }
        hosts = staged.hosts
        exactRoutes = staged.exactRoutes
        stubs = staged.stubs
        keys = staged.keys
        internedHosts = staged.internedHosts
        nextID = staged.nextID
        userCodeStubs = staged.userCodeStubs
        scenarioStubs = staged.scenarioStubs
        scenarioUses = staged.scenarioUses
        // `staged` lets go of what it held, so that this router's first change (a hit counted under the engine's
        // lock) copies nothing.
        staged.removeAll()
        return true
    }

    func removeAll() {
        hosts = SegmentTrie()
        exactRoutes = [:]
        stubs = StubTable(firstID: nextID)
        userCodeStubs = 0
        scenarioStubs = 0
        scenarioUses = [:]
        keys = StubKeyIndex()
        internedHosts = [:]
    }
}
