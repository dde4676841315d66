import Foundation

/// An RFC 6570 URI template compiled for matching requests, with the values its variables captured.
///
/// Supported expressions: `{var}` (simple), `{+var}` (reserved: may span `/`), `{/var}` (path segment),
/// `{.var}` (label), `{;var}` (path parameter), and `{?a,b}` / `{&c}` (query, only at the end), with the
/// `*` (explode) and `:n` (prefix) modifiers. `{#var}` is refused: a fragment never reaches the server.
///
/// A template that starts with `/` is matched against the request's path; one that starts with a scheme
/// (`https://…`) against scheme, host, port and path. The query is never part of the match except through
/// `{?…}` expressions, whose variables are optional (RFC 6570 omits undefined variables) and whose other
/// query items are ignored. A trailing `/` does not matter.
struct URITemplate: Sendable {
    let source: String
    let isFullURL: Bool
    /// Matches the path (or scheme://authority + path), anchored.
    private let regex: NSRegularExpression
    /// For each capture group of `regex`, the variable it fills and the operator it came from.
    private let groups: [(name: String, op: Character?, explode: Bool)]
    /// Variables read from the query by `{?…}` and `{&…}`.
    private let queryVariables: [String]
    /// A route covering every URL the template matches, for the router's index; `nil` for any.
    let hostHint: HostGlob?
    let pathHint: PathGlob?

    /// Characters a simple expansion leaves as they are, and percent-encoded triplets.
    private static let unreserved = "(?:[A-Za-z0-9\\-._~]|%[0-9A-Fa-f]{2})"

    init(_ source: String) throws(HTTPMockError) {
        func fail(_ reason: String) -> HTTPMockError {
            HTTPMockError(.invalidPattern, "invalid URI template \"\(source)\": \(reason)")
        }
        self.source = source
        let text: String
        let pathStart: String.Index
        if source.hasPrefix("/") {
            isFullURL = false
            text = source
            pathStart = text.startIndex
        } else if let schemeEnd = source.range(of: "://"), !source[..<schemeEnd.lowerBound].contains("{"),
                  !source[..<schemeEnd.lowerBound].isEmpty {
            isFullURL = true
            // Scheme and host compare case-insensitively: lower-case the literal text before the path.
            let start = Self.firstSlash(in: source, from: schemeEnd.upperBound)
            text = Self.lowercasingLiterals(source[..<start]) + source[start...]
            pathStart = text.index(text.startIndex, offsetBy: source.distance(from: source.startIndex, to: start))
        } else {
            throw fail("start it with \"/\" to match a path, or with a scheme such as \"https://\" to match a full URL")
        }
        let parts = try URITemplateParser.parse(text, fail: fail)

        var pattern = "^"
        var groups: [(name: String, op: Character?, explode: Bool)] = []
        var queryVariables: [String] = []
        var inQuery = false
        for (index, part) in parts.enumerated() {
            switch part {
            case .literal(var literal):
                if inQuery { throw fail("\"\(literal)\" follows a query expression; {?…} and {&…} must come last") }
                if literal.contains("?") {
                    throw fail("a literal \"?\" starts a query; match query items with {?name} or a separate .query matcher")
                }
                let isLast = index == parts.count - 1 || parts[(index + 1)...].allSatisfy(\.isQueryExpression)
                if isLast, literal.hasSuffix("/") { literal.removeLast() }
                pattern += NSRegularExpression.escapedPattern(for: literal)
            case .expression(let op, let variables):
                if op == "?" || op == "&" {
                    inQuery = true
                    queryVariables += variables.map(\.name)
                    continue
                }
                if inQuery { throw fail("{\(op.map(String.init) ?? "")…} follows a query expression; {?…} and {&…} must come last") }
                pattern += Self.regex(op: op, variables: variables)
                groups += variables.map { (name: $0.name, op: op, explode: $0.explode) }
            }
        }
        pattern += "/?$"
        do {
            regex = try NSRegularExpression(pattern: pattern)
        } catch {
            throw fail("it could not be compiled (\(error.localizedDescription))")
        }
        self.groups = groups
        self.queryVariables = queryVariables
        let pathTemplate = String(text[pathStart...])
        hostHint = isFullURL ? Self.hostHint(source) : nil
        pathHint = Self.pathHint(pathTemplate)
    }

    /// The regular expression for one expression's variables.
    private static func regex(op: Character?, variables: [URITemplateParser.Variable]) -> String {
        let u = unreserved
        // Lazy, so that a following literal or `{.ext}` gets its part (`{name}{.ext}` on `a.pdf`: name `a`).
        func count(_ variable: URITemplateParser.Variable, atLeastOne: Bool = false) -> String {
            if let prefix = variable.prefix { return "{\(atLeastOne ? 1 : 0),\(prefix)}?" }
            return atLeastOne ? "+?" : "*?"
        }
        switch op {
        case "+":
            if variables.count == 1 { return "([^?#]\(count(variables[0])))" }
            return variables.enumerated().map { index, variable in
                let group = "([^?#,]\(count(variable)))"
                return index == 0 ? group : "(?:,\(group))?"
            }.joined()
        case "/", ".":
            let separator = NSRegularExpression.escapedPattern(for: String(op!))
            return variables.map { variable in
                variable.explode ? "((?:\(separator)\(u)*)*)" : "(?:\(separator)(\(u)\(count(variable))))?"
            }.joined()
        case ";":
            return variables.map { variable in
                "(?:;\(NSRegularExpression.escapedPattern(for: variable.name))(?:=(\(u)\(count(variable))))?)?"
            }.joined()
        default:
            if variables.count == 1 {
                if variables[0].explode { return "((?:\(u)|,)+)" }
                return "(\(u)\(count(variables[0], atLeastOne: true)))"
            }
            return variables.enumerated().map { index, variable in
                let group = variable.explode ? "((?:\(u)|,)*)" : "(\(u)\(count(variable)))"
                return index == 0 ? group : "(?:,\(group))?"
            }.joined()
        }
    }

    /// The values of the template's variables in `request`, or `nil` when the template does not match it.
    /// Values are percent-decoded; a variable the request does not define is absent.
    func captures(in request: CapturedRequest) -> [String: String]? {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: true)
        var subject = components?.percentEncodedPath ?? request.url.path
        if isFullURL {
            let host = request.host.contains(":") ? "[\(request.host)]" : request.host
            subject = "\(request.scheme)://\(host)\(request.port.map { ":\($0)" } ?? "")" + subject
        }
        let range = NSRange(subject.startIndex..., in: subject)
        guard let match = regex.firstMatch(in: subject, range: range) else { return nil }
        var values: [String: String] = [:]
        for (index, group) in groups.enumerated() {
            let captured = match.range(at: index + 1)
            guard captured.location != NSNotFound, let range = Range(captured, in: subject) else { continue }
            var raw = String(subject[range])
            if group.explode, let op = group.op, op == "/" || op == ".", raw.first == op { raw.removeFirst() }
            if group.explode, let op = group.op, op == "/" || op == "." { raw = raw.replacingOccurrences(of: String(op), with: ",") }
            values[group.name] = raw.removingPercentEncoding ?? raw
        }
        for name in queryVariables {
            let found = request.queryValues(for: name)
            if !found.isEmpty { values[name] = found.map { $0 ?? "" }.joined(separator: ",") }
        }
        return values
    }

    func matches(_ request: CapturedRequest) -> Bool { captures(in: request) != nil }
}

extension URITemplate {
    /// The index of the first `/` at or after `start` that is not inside `{…}`; the end if there is none.
    static func firstSlash(in text: String, from start: String.Index) -> String.Index {
        var depth = 0
        var index = start
        while index < text.endIndex {
            switch text[index] {
            case "{": depth += 1
            case "}": depth = max(0, depth - 1)
            case "/" where depth == 0: return index
            default: break
            }
            index = text.index(after: index)
        }
        return text.endIndex
    }

    private static func lowercasingLiterals(_ text: Substring) -> String {
        var result = ""
        var depth = 0
        for character in text {
            if character == "{" { depth += 1 }
            result.append(depth == 0 ? Character(character.lowercased()) : character)
            if character == "}" { depth = max(0, depth - 1) }
        }
        return result
    }

    /// The host of a full-URL template, when it is written without expressions.
    private static func hostHint(_ source: String) -> HostGlob? {
        guard let schemeEnd = source.range(of: "://") else { return nil }
        var authority = source[schemeEnd.upperBound..<firstSlash(in: source, from: schemeEnd.upperBound)]
        guard !authority.contains("{"), !authority.contains("*") else { return nil }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if !authority.hasPrefix("["), let colon = authority.lastIndex(of: ":") { authority = authority[..<colon] }
        return try? HostGlob(authority.lowercased())
    }

    /// Literal leading segments of the path, `*` for a segment that is one simple variable, then `**` for the rest.
    private static func pathHint(_ template: String) -> PathGlob? {
        var path = Substring(template)
        if let query = [template.range(of: "{?"), template.range(of: "{&")].compactMap({ $0?.lowerBound }).min() {
            path = template[..<query]
        }
        var pieces: [Substring] = []
        var depth = 0
        var start = path.startIndex
        for index in path.indices {
            switch path[index] {
            case "{": depth += 1
            case "}": depth -= 1
            case "/" where depth == 0:
                pieces.append(path[start..<index])
                start = path.index(after: index)
            default: break
            }
        }
        pieces.append(path[start...])
        var segments: [String] = []
        for piece in pieces where !piece.isEmpty {
            if !piece.contains(where: { "{}*".contains($0) }) {
                segments.append(piece.removingPercentEncoding ?? String(piece))
                continue
            }
            let inner = piece.dropFirst().dropLast()
            if piece.first == "{", piece.last == "}", !inner.isEmpty,
               inner.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
                segments.append("*")
                continue
            }
            segments.append("**")
            break
        }
        return try? PathGlob("/" + segments.joined(separator: "/"))
    }
}
