/// A host to match: exact (`api.example.com`), or a glob over its `.`-separated labels
/// (`*.example.com`, `**.example.com`, `api-*.example.com`), optionally with a port (`localhost:8080`).
/// Case-insensitive.
struct HostGlob: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    let source: String
    let glob: Glob
    let port: Int?

    var description: String { source }

    /// Compiles a host pattern.
    /// 
    /// - Throws: ``GlobError`` naming the pattern and what is wrong (empty, `***`, a scheme, a bad port…).
    init(_ source: String) throws(GlobError) {
        func fail(_ reason: String) -> GlobError { GlobError(kind: .host, pattern: source, reason: reason) }
        var text = Substring(source.lowercased())
        // Byte checks first (most hosts are plain ASCII): each slower check below runs only when it could find something.
        let bytes = ASCIIBytes(text)
        if bytes.contains(":"), let schemeEnd = text.range(of: "://") {
            throw fail("give the host alone, without a scheme (did you mean \"\(text[schemeEnd.upperBound...])\"?)")
        }
        if text.isEmpty { throw fail("the host is empty; give a host such as \"api.example.com\" or \"*.example.com\"") }
        if bytes.contains("/", "?", "#", "@"), let bad = text.first(where: { $0 == "/" || $0 == "?" || $0 == "#" || $0 == "@" }) {
            throw fail("\"\(bad)\" cannot appear in a host; give paths and queries separately")
        }
        if !bytes.isPrintableASCII, let bad = text.first(where: { $0.isWhitespace || $0.unicodeScalars.contains { $0.properties.generalCategory == .control } }) {
            throw fail("it contains the character \(bad.debugDescription); remove it")
        }
        var port: Int?
        if bytes.contains(":"), let colon = text.lastIndex(of: ":"), !text.hasPrefix("[") || text[..<colon].hasSuffix("]") {
            let digits = text[text.index(after: colon)...]
            guard let value = Int(digits), (1...65535).contains(value) else {
                throw fail("\"\(digits)\" is not a port number (1-65535)")
            }
            port = value
            text = text[..<colon]
        }
        if bytes.contains("*"), text.contains("***") { throw fail("\"***\" is not a wildcard; use \"*\" for one label or \"**\" for any number") }
        let labels = bytes.isPrintableASCII ? ASCIIBytes.split(text, on: ".") : text.split(separator: ".", omittingEmptySubsequences: false)
        if labels.contains(where: \.isEmpty) { throw fail("it has an empty label (\"..\", or a leading or trailing \".\")") }
        self.source = source
        self.port = port
        self.glob = try Glob.compile(labels, fail: fail)
    }

    /// A host that matches exactly `host` (and `port`, when given). For hosts read from recorded traffic and files.
    init(literalHost host: String, port: Int?) {
        let host = host.lowercased()
        source = port.map { "\(host):\($0)" } ?? host
        self.port = port
        glob = Glob(segments: host.split(separator: ".", omittingEmptySubsequences: false).map { .literal(String($0)) })
    }

    /// Whether `host` (lower-cased) and `port` match.
    func matches(host labels: [String], port requestPort: Int?) -> Bool {
        if let port, port != requestPort { return false }
        return glob.matches(labels)
    }
}

extension HostGlob {
    /// Labels of a request host, most significant first (`api.example.com` → `com`, `example`, `api`),
    /// the order in which the router indexes hosts.
    static func reversedLabels(of host: String) -> [String] {
        var labels = SeparatorSplit.split(host, on: ".", omittingEmptySubsequences: false)
        labels.reverse()
        return labels
    }
}
