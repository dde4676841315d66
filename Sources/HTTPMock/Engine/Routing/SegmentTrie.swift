/// A trie over segments whose edges are literals, `*`, `**` or partial globs.
///
/// The router keeps one for hosts (labels reversed, so `*.example.com` shares the `com → example` branch with
/// every other `example.com` host) and, under each host, one for paths. A lookup walks only the branches that can
/// match, so its cost depends on the request's length and the number of wildcards on its way, not on how many
/// stubs are registered.
final class SegmentTrie<Value> {
    private var value: Value?
    private var literal: [String: SegmentTrie] = [:]
    private var any: SegmentTrie?
    private var anyDepth: SegmentTrie?
    private var partial: [(pieces: Glob.Segment, node: SegmentTrie)] = []

    init() {}

    /// The value stored at the end of `segments`, created by `make` if missing.
    func node(for segments: [Glob.Segment], make: () -> Value) -> Value {
        var node = self
        for segment in segments { node = node.child(for: segment) }
        if let value = node.value { return value }
        let value = make()
        node.value = value
        return value
    }

    /// The value stored at the end of `segments`, if any.
    func existing(for segments: [Glob.Segment]) -> Value? {
        var node = self
        for segment in segments {
            switch segment {
            case .literal(let text): guard let next = node.literal[text] else { return nil }; node = next
            case .any: guard let next = node.any else { return nil }; node = next
            case .anyDepth: guard let next = node.anyDepth else { return nil }; node = next
            case .partial: guard let next = node.partial.first(where: { $0.pieces == segment })?.node else { return nil }; node = next
            }
        }
        return node.value
    }

    private func child(for segment: Glob.Segment) -> SegmentTrie {
        switch segment {
        case .literal(let text):
            if let next = literal[text] { return next }
            let next = SegmentTrie(); literal[text] = next; return next
        case .any:
            if let any { return any }
            let next = SegmentTrie(); any = next; return next
        case .anyDepth:
            if let anyDepth { return anyDepth }
            let next = SegmentTrie(); anyDepth = next; return next
        case .partial:
            if let next = partial.first(where: { $0.pieces == segment })?.node { return next }
            let next = SegmentTrie(); partial.append((segment, next)); return next
        }
    }

    /// Calls `body` with every value whose pattern matches `input` (a value reached by two routes is reported twice).
    func forEachMatch(_ input: [String], _ body: (Value) -> Void) {
        var visited = Set<Visit>()
        visit(input, from: 0, visited: &visited, body)
    }

    /// A node below a `**` entered at an input position. Routes through several `**` reach the same node at the
    /// same position in many ways; walking each only once keeps a lookup polynomial (found by fuzzing: a pattern
    /// with 30 `**` took minutes).
    private struct Visit: Hashable {
        let node: ObjectIdentifier
        let index: Int
    }

    private func visit(_ input: [String], from index: Int, visited: inout Set<Visit>, _ body: (Value) -> Void) {
        if index == input.count, let value { body(value) }
        if let anyDepth {
            // `**` takes zero or more segments.
            for next in index...input.count where visited.insert(Visit(node: ObjectIdentifier(anyDepth), index: next)).inserted {
                anyDepth.visit(input, from: next, visited: &visited, body)
            }
        }
        guard index < input.count else { return }
        let segment = input[index]
        literal[segment]?.visit(input, from: index + 1, visited: &visited, body)
        any?.visit(input, from: index + 1, visited: &visited, body)
        for (pieces, node) in partial where pieces.matches(segment) {
            node.visit(input, from: index + 1, visited: &visited, body)
        }
    }

    /// Every stored value, in no particular order.
    func forEachValue(_ body: (Value) -> Void) {
        if let value { body(value) }
        literal.values.forEach { $0.forEachValue(body) }
        any?.forEachValue(body)
        anyDepth?.forEachValue(body)
        partial.forEach { $0.node.forEachValue(body) }
    }
}
