/// A trie over segments whose edges are literals, `*`, `**` or partial globs.
///
/// The router keeps one for hosts (labels reversed, so `*.example.com` shares the `com → example` branch with
/// every other `example.com` host) and, under each host, one for paths. A lookup walks only the branches that can
/// match, so its cost depends on the request's length and the number of wildcards on its way, not on how many
/// stubs are registered.
///
/// Memory matters at 100,000 stubs (one node or more each): wildcard edges, which few nodes have, live in one
/// optional box, and values are stored in the node itself.
final class SegmentTrie<Value> {
    // Unchecked exclusivity: the router's owner (the engine's lock) serialises every access.
    @exclusivity(unchecked) private var value: Value?
    @exclusivity(unchecked) private var literals = Literals.none
    @exclusivity(unchecked) private var wildcards: Wildcards?

    /// Literal edges. Most nodes have one, which a dictionary would store in a 128-byte allocation of its own.
    private enum Literals {
        case none
        case one(String, SegmentTrie)
        case many([String: SegmentTrie])

        subscript(text: String) -> SegmentTrie? {
            switch self {
            case .none: nil
            case .one(let key, let node): key == text ? node : nil
            case .many(let nodes): nodes[text]
            }
        }

        var nodes: [SegmentTrie] {
            switch self {
            case .none: []
            case .one(_, let node): [node]
            case .many(let nodes): Array(nodes.values)
            }
        }

        mutating func add(_ text: String, _ node: SegmentTrie) {
            switch self {
            case .none: self = .one(text, node)
            case .one(let key, let existing): self = .many([key: existing, text: node])
            case .many(var nodes):
                self = .none
                nodes[text] = node
                self = .many(nodes)
            }
        }
    }

    private final class Wildcards {
        var any: SegmentTrie?
        var anyDepth: SegmentTrie?
        var partial: [(pieces: Glob.Segment, node: SegmentTrie)] = []
    }

    init() {}

    /// Changes the value stored at the end of `segments`, which starts as `make()` if missing.
    func update<R>(_ segments: [Glob.Segment], make: () -> Value, _ body: (inout Value) -> R) -> R {
        var node = self
        for segment in segments { node = node.child(for: segment) }
        if node.value == nil { node.value = make() }
        return body(&node.value!)
    }

    /// The value stored at the end of `segments`, created by `make` if missing.
    func node(for segments: [Glob.Segment], make: () -> Value) -> Value {
        update(segments, make: make) { $0 }
    }

    /// The value stored at the end of `segments`, if any.
    func existing(for segments: [Glob.Segment]) -> Value? {
        var node = self
        for segment in segments {
            switch segment {
            case .literal(let text): guard let next = node.literals[text] else { return nil }; node = next
            case .any: guard let next = node.wildcards?.any else { return nil }; node = next
            case .anyDepth: guard let next = node.wildcards?.anyDepth else { return nil }; node = next
            case .partial:
                guard let next = node.wildcards?.partial.first(where: { $0.pieces == segment })?.node else { return nil }
                node = next
            }
        }
        return node.value
    }

    private func child(for segment: Glob.Segment) -> SegmentTrie {
        if case .literal(let text) = segment {
            if let next = literals[text] { return next }
            let next = SegmentTrie(); literals.add(text, next); return next
        }
        let wild: Wildcards
        if let existing = wildcards { wild = existing } else { wild = Wildcards(); wildcards = wild }
        switch segment {
        case .literal: preconditionFailure("handled above")
        case .any:
            if let any = wild.any { return any }
            let next = SegmentTrie(); wild.any = next; return next
        case .anyDepth:
            if let anyDepth = wild.anyDepth { return anyDepth }
            let next = SegmentTrie(); wild.anyDepth = next; return next
        case .partial:
            if let next = wild.partial.first(where: { $0.pieces == segment })?.node { return next }
            let next = SegmentTrie(); wild.partial.append((segment, next)); return next
        }
    }

    /// Calls `body` with every value whose pattern matches `input` (a value reached by two routes is reported twice).
    func forEachMatch(_ input: [String], _ body: (Value) -> Void) {
        var visited = Set<Visit>()
        visit(input, from: 0, belowAnyDepth: false, visited: &visited, body)
    }

    /// A node below a `**` entered at an input position. Routes through several `**` reach the same node at the
    /// same position in many ways; walking each only once keeps a lookup polynomial (found by fuzzing: a pattern
    /// with 30 `**` took minutes). A route with one `**` reaches each node once, so only a `**` below another is
    /// recorded, and ordinary lookups allocate nothing.
    private struct Visit: Hashable {
        let node: ObjectIdentifier
        let index: Int
    }

    private func visit(_ input: [String], from index: Int, belowAnyDepth: Bool, visited: inout Set<Visit>,
                       _ body: (Value) -> Void) {
        if index == input.count, let value { body(value) }
        if let wildcards, let anyDepth = wildcards.anyDepth {
            // `**` takes zero or more segments.
            for next in index...input.count
            where !belowAnyDepth || visited.insert(Visit(node: ObjectIdentifier(anyDepth), index: next)).inserted {
                anyDepth.visit(input, from: next, belowAnyDepth: true, visited: &visited, body)
            }
        }
        guard index < input.count else { return }
        let segment = input[index]
        literals[segment]?.visit(input, from: index + 1, belowAnyDepth: belowAnyDepth, visited: &visited, body)
        guard let wildcards else { return }
        wildcards.any?.visit(input, from: index + 1, belowAnyDepth: belowAnyDepth, visited: &visited, body)
        for (pieces, node) in wildcards.partial where pieces.matches(segment) {
            node.visit(input, from: index + 1, belowAnyDepth: belowAnyDepth, visited: &visited, body)
        }
    }

    /// Every stored value, in no particular order, to change or read.
    func forEachValue(_ body: (inout Value) -> Void) {
        if value != nil { body(&value!) }
        literals.nodes.forEach { $0.forEachValue(body) }
        wildcards?.any?.forEachValue(body)
        wildcards?.anyDepth?.forEachValue(body)
        wildcards?.partial.forEach { $0.node.forEachValue(body) }
    }
}
