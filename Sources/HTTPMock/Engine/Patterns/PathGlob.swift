/// A path to match: exact (`/users/42`) or a glob over its `/`-separated segments (`/users/*`, `/api/**/data`,
/// `/files/*.json`). Leading, trailing and doubled slashes do not matter: `/user`, `user` and `/user/` are one path.
struct PathGlob: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    let source: String
    let glob: Glob

    var description: String { source }

    /// Compiles a path pattern.
    /// 
    /// - Throws: ``GlobError`` naming the pattern and what is wrong (`***`, `?`, a space, a scheme…).
    init(_ source: String) throws(GlobError) {
        func fail(_ reason: String) -> GlobError { GlobError(kind: .path, pattern: source, reason: reason) }
        let bytes = ASCIIBytes(Substring(source))
        if bytes.contains(":"), source.contains("://") {
            throw fail("give the path alone, without scheme and host (register the host separately)")
        }
        if bytes.contains("?", "#"), let mark = source.first(where: { $0 == "?" || $0 == "#" }) {
            throw fail("\"\(mark)\" starts a query or fragment; give query items with `query:` instead")
        }
        if !bytes.isPrintableASCII, let bad = source.first(where: { $0.isWhitespace || $0.unicodeScalars.contains { $0.properties.generalCategory == .control } }) {
            throw fail("it contains the character \(bad.debugDescription); percent-encode it or remove it")
        }
        if bytes.contains("*"), source.contains("***") { throw fail("\"***\" is not a wildcard; use \"*\" for one segment or \"**\" for any number") }
        var parts = bytes.isPrintableASCII
            ? ASCIIBytes.split(Substring(source), on: "/").filter { !$0.isEmpty }
            : source.split(separator: "/", omittingEmptySubsequences: true)
        // Requests' paths are compared decoded, so a pattern's are too: `/caf%C3%A9` is `/café`.
        if bytes.contains("%") {
            parts = parts.map { part in guard part.contains("%"), let decoded = part.removingPercentEncoding else { return part }; return Substring(decoded) }
        }
        self.source = source
        self.glob = try Glob.compile(parts, fail: fail)
    }

    /// A path that matches exactly these (decoded) segments: a `*` in them is a plain character. For paths read
    /// from recorded traffic and files, which are never globs.
    init(literalSegments segments: [String]) {
        source = PathNormalization.path(of: segments)
        glob = Glob(segments: segments.map { .literal($0) })
    }

    /// The normalised form (`/a/b`), which is how two registrations are recognised as the same path. A literal
    /// segment holding a `/` keeps it encoded (`/files/a%2Fb`), so it never reads as two segments.
    var normalized: String {
        guard !glob.segments.isEmpty else { return "/" }
        // Appended into one string: a map and two joins made a string per segment, several times a registration.
        var text = ""
        for segment in glob.segments {
            text.append("/")
            switch segment {
            case .literal(let literal): text.append(PathNormalization.encoded(segment: literal))
            case .any: text.append("*")
            case .anyDepth: text.append("**")
            case .partial(let pieces):
                for (index, piece) in pieces.enumerated() {
                    if index > 0 { text.append("*") }
                    text.append(piece)
                }
            }
        }
        return text
    }

    func matches(_ segments: [String]) -> Bool { glob.matches(segments) }
}
