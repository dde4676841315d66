/// The stubs registered for one route. Most routes have one, kept inline without an array.
struct RouteLeaf {
    private var first: StubID?
    private var others: [StubID] = []

    var isEmpty: Bool { first == nil && others.isEmpty }

    mutating func append(_ id: StubID) {
        if isEmpty { first = id } else { others.append(id) }
    }

    mutating func removeAll(where shouldRemove: (StubID) -> Bool) {
        if let id = first, shouldRemove(id) { first = nil }
        others.removeAll(where: shouldRemove)
    }

    func appendAll(to list: inout [StubID]) {
        if let first { list.append(first) }
        list.append(contentsOf: others)
    }
}

/// An exact host and an exact path: the route of most stubs, found with one hash lookup instead of a trie walk
/// (and stored without trie nodes).
struct ExactRoute: Hashable {
    /// Lower-cased, without port: the request's ``CapturedRequest/host``.
    let host: String
    /// Segments joined with `/`, without a leading one: `v1/items/3`.
    let path: String

    init(host: String, pathSegments: [String]) {
        self.host = host
        path = pathSegments.joined(separator: "/")
    }
}
