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

/// Exact routes (an exact host and an exact path, the route of most stubs) are found with two hash lookups,
/// host then path, instead of a trie walk, and stored without trie nodes.
enum ExactRoute {
    /// The key of an exact path: its segments joined with `/`, without a leading one (`v1/items/3`).
    static func path(_ segments: [String]) -> String {
        guard segments.count > 1 else { return segments.first ?? "" }
        // Copied byte by byte into one string of its final size: `joined` is the costlier half of the lookup.
        let count = segments.reduce(segments.count - 1) { $0 + $1.utf8.count }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var offset = 0
            for (index, segment) in segments.enumerated() {
                if index > 0 {
                    buffer[offset] = UInt8(ascii: "/")
                    offset += 1
                }
                var segment = segment
                offset += segment.withUTF8 { bytes in
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[offset...]).initialize(from: bytes)
                    return bytes.count
                }
            }
            return offset
        }
    }
}
