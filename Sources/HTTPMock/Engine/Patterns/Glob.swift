/// One compiled glob: segments of literals, `*` (exactly one segment, or part of one) and `**` (any number of
/// whole segments, zero included). Hosts are segmented on `.`, paths on `/`.
struct Glob: Sendable, Hashable {
    enum Segment: Sendable, Hashable {
        /// Matches exactly this text (hosts are lower-cased before).
        case literal(String)
        /// `*`: any one segment.
        case any
        /// `**`: zero or more segments.
        case anyDepth
        /// A segment with `*` inside it, such as `api-*` or `v*-beta`: the literal pieces in order.
        case partial([String])
    }

    let segments: [Segment]
    /// Wildcard characters in the pattern: `*` counts 1, `**` counts 2.
    let wildcardCount: Int
    /// Literal characters outside the wildcards (separators not counted).
    let literalLength: Int

    var isExact: Bool { wildcardCount == 0 }

    init(segments: [Segment]) {
        self.segments = segments
        var wildcards = 0, literals = 0
        for segment in segments {
            switch segment {
            case .literal(let text): literals += text.count
            case .any: wildcards += 1
            case .anyDepth: wildcards += 2
            case .partial(let pieces):
                wildcards += pieces.count - 1
                literals += pieces.reduce(0) { $0 + $1.count }
            }
        }
        wildcardCount = wildcards
        literalLength = literals
    }

    /// Compiles the segments of a pattern; `describe` names the error.
    static func compile(_ parts: [Substring], fail: (String) -> GlobError) throws(GlobError) -> Glob {
        var segments: [Segment] = []
        for part in parts {
            if !part.utf8.contains(UInt8(ascii: "*")) {
                // No `*` byte, so none of the wildcard cases below can apply.
                segments.append(.literal(String(part)))
            } else if part == "**" {
                // Two `**` in a row match the same as one.
                if segments.last != .anyDepth { segments.append(.anyDepth) }
            } else if part == "*" {
                segments.append(.any)
            } else if part.contains("**") {
                throw fail("\"\(part)\" puts \"**\" inside a segment; \"**\" must stand alone between separators (\"*\" matches part of one segment)")
            } else if part.contains("*") {
                segments.append(.partial(part.split(separator: "*", omittingEmptySubsequences: false).map(String.init)))
            } else {
                segments.append(.literal(String(part)))
            }
        }
        return Glob(segments: segments)
    }

    /// Whether the glob matches these segments.
    func matches(_ input: [String]) -> Bool {
        // One `**` at most: the direct walk is linear. More: a table, so that `**.a.**.b.**` cannot backtrack
        // exponentially (found by fuzzing: a host pattern with 30 `**` took minutes on a long host).
        if segments.lazy.filter({ $0 == .anyDepth }).count < 2 { return Self.match(segments[...], input[...]) }
        return Self.matchByTable(segments, input)
    }

    /// `matches[j]` after step `i`: the segments from `i` on match the input from `j` on. O(segments × input).
    private static func matchByTable(_ pattern: [Segment], _ input: [String]) -> Bool {
        var next = [Bool](repeating: false, count: input.count + 1)
        next[input.count] = true
        for segment in pattern.reversed() {
            var current = [Bool](repeating: false, count: input.count + 1)
            for j in stride(from: input.count, through: 0, by: -1) {
                if case .anyDepth = segment {
                    current[j] = next[j] || (j < input.count && current[j + 1])
                } else {
                    current[j] = j < input.count && next[j + 1] && segment.matches(input[j])
                }
            }
            next = current
        }
        return next[0]
    }

    private static func match(_ pattern: ArraySlice<Segment>, _ input: ArraySlice<String>) -> Bool {
        guard let first = pattern.first else { return input.isEmpty }
        if case .anyDepth = first {
            let rest = pattern.dropFirst()
            if rest.isEmpty { return true }
            return (input.startIndex...input.endIndex).contains { match(rest, input[$0...]) }
        }
        guard let head = input.first, first.matches(head) else { return false }
        return match(pattern.dropFirst(), input.dropFirst())
    }
}

extension Glob.Segment {
    /// Whether this single-segment glob matches one input segment (never called for `**`).
    func matches(_ text: String) -> Bool {
        switch self {
        case .literal(let literal): return literal == text
        case .any: return true
        case .anyDepth: return true
        case .partial(let pieces): return Self.matchPieces(pieces, text)
        }
    }

    /// `pieces` are the literal parts between `*`s: the text must start with the first, end with the last and
    /// contain the middle ones in order between them. A `*` may match nothing, but never a whole empty segment.
    private static func matchPieces(_ pieces: [String], _ text: String) -> Bool {
        guard let first = pieces.first, let last = pieces.last, text.hasPrefix(first) else { return false }
        var rest = text.dropFirst(first.count)
        guard rest.count >= last.count, rest.hasSuffix(last) else { return false }
        rest = rest.dropLast(last.count)
        for piece in pieces.dropFirst().dropLast() where !piece.isEmpty {
            guard let range = rest.range(of: piece) else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }
}
