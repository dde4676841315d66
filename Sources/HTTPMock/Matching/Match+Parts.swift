import Foundation
import _HTTPMockRegex

// Matchers on parts of a request the public words do not reach with a regular expression (a query value, a
// cookie, the path alone, the path and query, a URI template variable). WireMock mapping files use them.

extension Match {
    /// The path equals `path` literally (decoded segments, as requests are compared): a `*` in it is a plain
    /// character. Tested by the router's index, as ``path(_:)`` is.
    static func path(literal path: String) -> Match {
        Match("path \(path)") { () throws(HTTPMockError) -> Compiled in
            Compiled(path: PathGlob(literalSegments: PathNormalization.segments(ofEncodedPath: path)), routeIsTest: true)
        }
    }

    /// The path as the request wrote it (percent-encoded, without the query) contains a match of `pattern`.
    static func path(matching pattern: String) -> Match {
        regexMatch("path ~ /\(pattern)/", key: "path-regex", pattern: pattern, role: "regular expression for the path") { request in
            [RelativeURL(request).path]
        }
    }

    /// The path and query as the request wrote them (`/search?q=swift`) contain a match of `pattern`.
    static func relativeURL(matching pattern: String) -> Match {
        regexMatch("url ~ /\(pattern)/", key: "url-relative-regex", pattern: pattern, role: "regular expression for the URL") { request in
            [RelativeURL(request).text]
        }
    }

    /// The path and query as the request wrote them equal `url` character for character, as WireMock compares its
    /// `url` field: no decoding, no reordering of query items, a trailing `/` kept (an empty query, `/a?`, is `/a`).
    static func relativeURL(equalTo url: String) -> Match {
        let expected = url.hasSuffix("?") ? String(url.dropLast()) : url
        return Match(condition: Condition(key: "url=\(expected)", weight: 2, summary: "url \(expected)") { request in
            let written = RelativeURL(request)
            let path = written.path.isEmpty ? "/" : written.path
            guard let query = written.query, !query.isEmpty else { return path == expected }
            return path + "?" + query == expected
        })
    }

    /// Some value of the query parameter `name` (decoded) contains a match of `pattern`.
    static func query(_ name: String, matching pattern: String) -> Match {
        regexMatch("query \(name) ~ /\(pattern)/", key: "query-regex:\(name)", pattern: pattern,
                   role: "regular expression for query parameter \"\(name)\"") { request in
            request.queryValues(for: name).map { $0 ?? "" }
        }
    }

    /// The request sends the cookie `name` (in its `Cookie` header).
    static func cookie(_ name: String) -> Match {
        Match(condition: Condition(key: "header:cookie:\(name)", summary: "header Cookie has \(name)") {
            !Cookies.values(name, in: $0).isEmpty
        })
    }

    /// The request sends the cookie `name` with the value `value`.
    static func cookie(_ name: String, _ value: String) -> Match {
        Match(condition: Condition(key: "header:cookie:\(name)=\(value)", weight: 2, summary: "header Cookie \(name)=\(value)") {
            Cookies.values(name, in: $0).contains(value)
        })
    }

    /// The request sends the cookie `name` with a value that contains a match of `pattern`.
    static func cookie(_ name: String, matching pattern: String) -> Match {
        regexMatch("header Cookie \(name) ~ /\(pattern)/", key: "header:cookie:\(name)~", pattern: pattern,
                   role: "regular expression for cookie \"\(name)\"") { Cookies.values(name, in: $0) }
    }

    /// The request fits the URI template `template` and its variable `name` holds a value that contains a match of
    /// `pattern` (or any value, when `pattern` is `nil`).
    static func templateVariable(_ name: String, of template: String, matching pattern: String?) -> Match {
        Match("template \(template) \(name) ~ /\(pattern ?? ".*")/") { () throws(HTTPMockError) -> Compiled in
            let compiled = try URITemplate(template)
            let regex = try pattern.map { (pattern) throws(HTTPMockError) in
                try compileRegex(pattern, role: "regular expression for path parameter \"\(name)\"")
            }
            return Compiled(condition: Condition(key: "template:\(template):\(name)~\(pattern ?? "")", weight: 2,
                                                 summary: "template \(template) \(name) ~ /\(pattern ?? ".*")/",
                                                 isUserCode: regex != nil) { request in
                guard let value = compiled.captures(in: request)?[name] else { return false }
                return regex.map { $0.containsMatch(in: value) } ?? true
            }.inBudget())
        }
    }

    /// A regular expression tested on each of the texts `values` reads from a request: it passes when one matches.
    private static func regexMatch(_ description: String, key: String, pattern: String, role: String,
                                   values: @escaping @Sendable (CapturedRequest) -> [String]) -> Match {
        Match(description) { () throws(HTTPMockError) -> Compiled in
            let regex = try compileRegex(pattern, role: role)
            return Compiled(condition: Condition(key: "\(key)~\(pattern)", weight: 2, summary: description, isUserCode: true) { request in
                values(request).contains { regex.containsMatch(in: $0) }
            }.inBudget())
        }
    }
}

/// The path and query of a URL as written (percent-encoded), without scheme, host or fragment: `/search?q=a%20b`.
struct RelativeURL {
    let path: String
    let query: String?

    /// The request's path and query as its client wrote them: a server's request line, else its URL.
    init(_ request: CapturedRequest) {
        guard var target = request.target.map({ Substring($0) }), target.utf8.first == UInt8(ascii: "/") else {
            self.init(request.url)
            return
        }
        // A fragment is no part of what the request asks for (clients do not send one; a URL drops it).
        if let hash = target.utf8.firstIndex(of: UInt8(ascii: "#")) { target = target[..<hash] }
        if let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) {
            self.init(path: String(target[..<mark]), query: String(target[target.utf8.index(after: mark)...]))
        } else {
            self.init(path: String(target), query: nil)
        }
    }

    private init(path: String, query: String?) {
        self.path = path
        self.query = query
    }

    init(_ url: URL) {
        let text = url.absoluteString
        var rest = Substring(text)
        // After `scheme://` and the authority (found on the UTF-8 bytes: `range(of:)` is Foundation's slow search).
        let utf8 = rest.utf8
        var position = utf8.startIndex
        var afterScheme: Substring.Index?
        while position != utf8.endIndex {
            let byte = utf8[position]
            if byte == UInt8(ascii: ":") {
                let next = utf8.index(after: position)
                if next != utf8.endIndex, utf8[next] == UInt8(ascii: "/") {
                    let second = utf8.index(after: next)
                    if second != utf8.endIndex, utf8[second] == UInt8(ascii: "/") { afterScheme = utf8.index(after: second) }
                }
                break
            }
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            position = utf8.index(after: position)
        }
        if afterScheme == nil, let scheme = rest.range(of: "://") { afterScheme = scheme.upperBound }
        if let afterScheme {
            rest = rest[afterScheme...]
            rest = rest[(rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex)...]
        }
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        if let mark = rest.firstIndex(of: "?") {
            self.init(path: String(rest[..<mark]), query: String(rest[rest.index(after: mark)...]))
        } else {
            self.init(path: String(rest), query: nil)
        }
    }

    /// `path?query`, with `/` for an empty path.
    var text: String {
        let shown = path.isEmpty ? "/" : path
        return query.map { shown + "?" + $0 } ?? shown
    }
}

/// The cookies a request sends in its `Cookie` header(s): `a=1; b="2"`.
package enum Cookies {
    /// Every cookie the request sends, name and value, in order (a value in double quotes without them).
    package static func all(in request: CapturedRequest) -> [(name: String, value: String)] {
        var found: [(name: String, value: String)] = []
        var seen = Set<String>()
        for header in request.headers.values(for: "Cookie") {
            for pair in header.split(separator: ";") {
                let pair = pair.trimmingCharacters(in: .whitespaces)
                guard let equals = pair.firstIndex(of: "="), seen.insert(String(pair[..<equals])).inserted else { continue }
                found.append((String(pair[..<equals]), unquoted(pair[pair.index(after: equals)...])))
            }
        }
        return found
    }

    static func values(_ name: String, in request: CapturedRequest) -> [String] {
        var values: [String] = []
        for header in request.headers.values(for: "Cookie") {
            for pair in header.split(separator: ";") {
                let pair = pair.trimmingCharacters(in: .whitespaces)
                guard let equals = pair.firstIndex(of: "="), pair[..<equals] == name else { continue }
                values.append(unquoted(pair[pair.index(after: equals)...]))
            }
        }
        return values
    }

    /// A value in double quotes (`s="a b"`) is what is between them, as Jetty reads it for WireMock.
    private static func unquoted(_ value: Substring) -> String {
        value.count >= 2 && value.first == "\"" && value.last == "\"" ? String(value.dropFirst().dropLast()) : String(value)
    }
}
