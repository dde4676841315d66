import Foundation
import _HTTPMockJSON
import _HTTPMockTemplates

/// A response body with placeholders filled from the request when it is served.
///
/// Placeholders: `{{path.1}}` (the request's path segment at that position, from 0: for `/users/42`, `path.0` is
/// `users` and `path.1` is `42`), `{{path.id}}` (the segment a `{id}` in the mock's path stood for),
/// `{{query.q}}` (the first value of a query parameter), `{{header.Accept}}`, `{{method}}`, `{{host}}`, `{{url}}`.
/// A value the request lacks becomes the empty string. In a `json` body, values are escaped for a JSON string.
///
/// WireMock mapping files write their templates in Handlebars (`{{request.path.[0]}}`); such a template is one
/// part, ``HandlebarsTemplate`` (`BodyTemplate(wireMock:pathNames:place:environmentAccess:)`).
struct BodyTemplate: Sendable {
    enum Part: Sendable {
        case literal(String)
        case pathSegment(Int)
        case query(String)
        case header(String)
        case method, host, url
        /// A whole WireMock (Handlebars) template, rendered for each request.
        case handlebars(HandlebarsTemplate)
    }

    let parts: [Part]
    let escapesForJSON: Bool

    /// Parses `text`; `pathNames` maps `{name}` wildcards of the mock's path to segment positions.
    init(_ text: String, pathNames: [String: Int], escapesForJSON: Bool, place: String) throws(HTTPMockError) {
        var parts: [Part] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            if open.lowerBound > rest.startIndex { parts.append(.literal(String(rest[..<open.lowerBound]))) }
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                throw HTTPMockError(.invalidDefinition, "\(place): a \"{{\" is never closed with \"}}\"")
            }
            let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            parts.append(try Self.part(name, pathNames: pathNames, place: place))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { parts.append(.literal(String(rest))) }
        self.parts = parts
        self.escapesForJSON = escapesForJSON
    }

    private static func part(_ name: String, pathNames: [String: Int], place: String) throws(HTTPMockError) -> Part {
        switch name {
        case "method": return .method
        case "host": return .host
        case "url": return .url
        default: break
        }
        let pieces = name.split(separator: ".", maxSplits: 1).map(String.init)
        if pieces.count == 2 {
            switch pieces[0] {
            case "path":
                if let index = Int(pieces[1]), index >= 0 { return .pathSegment(index) }
                if let index = pathNames[pieces[1]] { return .pathSegment(index) }
                let known = pathNames.keys.sorted().map { "path.\($0)" }.joined(separator: ", ")
                throw HTTPMockError(.invalidDefinition, "\(place): {{\(name)}} names no segment of the mock's path; use a position such as {{path.0}}\(known.isEmpty ? ", or write {\(pieces[1])} in the path" : " or one of \(known)")")
            case "query": return .query(pieces[1])
            case "header": return .header(pieces[1])
            default: break
            }
        }
        throw HTTPMockError(.invalidDefinition, "\(place): {{\(name)}} is not a placeholder; use path.N, path.NAME, query.NAME, header.NAME, method, host or url")
    }

    init(parts: [Part], escapesForJSON: Bool) {
        self.parts = parts
        self.escapesForJSON = escapesForJSON
    }

    /// Whether the text has any placeholder.
    var isTemplated: Bool { parts.contains { if case .literal = $0 { return false } else { return true } } }

    func render(_ request: CapturedRequest) -> Data {
        Data(text(request).utf8)
    }

    /// The text with every placeholder filled from `request`.
    func text(_ request: CapturedRequest) -> String {
        var text = ""
        for part in parts {
            if case .literal(let literal) = part { text += literal; continue }
            let value = Self.value(part, request)
            text += escapesForJSON ? Self.jsonEscaped(value) : value
        }
        return text
    }

    private static func value(_ part: Part, _ request: CapturedRequest) -> String {
        switch part {
        case .literal(let literal): return literal
        case .pathSegment(let index): return request.pathSegments.indices.contains(index) ? request.pathSegments[index] : ""
        case .query(let name): return request.queryValues(for: name).first.flatMap { $0 } ?? ""
        case .header(let name): return request.headers[name] ?? ""
        case .method: return request.method
        case .host: return request.host
        case .url: return request.url.absoluteString
        case .handlebars(let template): return template.render(request)
        }
    }

    /// `value` escaped to stand inside a JSON string (without its quotes).
    private static func jsonEscaped(_ value: String) -> String {
        String(JSONValue.quoted(value).dropFirst().dropLast())
    }
}

/// A mapping file's path: a glob (`*`, `**`) whose whole segments may be named wildcards (`{id}`), which match
/// like `*` and can be used in templates as `{{path.id}}`.
struct NamedPath {
    let pattern: PathGlob
    /// Segment position of each named wildcard.
    let names: [String: Int]

    init(_ source: String, place: String) throws(HTTPMockError) {
        var names: [String: Int] = [:]
        var segments: [String] = []
        var seenAnyDepth = false
        for (index, segment) in source.split(separator: "/", omittingEmptySubsequences: true).enumerated() {
            if segment == "**" { seenAnyDepth = true }
            guard segment.hasPrefix("{") && segment.hasSuffix("}") else {
                if segment.contains("{") || segment.contains("}") {
                    throw HTTPMockError(.invalidDefinition, "\(place): \"\(segment)\" mixes a {name} wildcard with other text; a named wildcard is a whole segment (\"/users/{id}\")")
                }
                segments.append(String(segment))
                continue
            }
            let name = String(segment.dropFirst().dropLast())
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), !name.allSatisfy(\.isNumber) else {
                throw HTTPMockError(.invalidDefinition, "\(place): \"\(segment)\" is not a named wildcard; a name has letters, digits and \"_\" and is not a number")
            }
            if seenAnyDepth {
                throw HTTPMockError(.invalidDefinition, "\(place): the named wildcard {\(name)} comes after \"**\", so its position is not known; move it before \"**\"")
            }
            if names[name] != nil { throw HTTPMockError(.invalidDefinition, "\(place): {\(name)} appears twice in the path") }
            names[name] = index
            segments.append("*")
        }
        do {
            pattern = try PathGlob(source.hasPrefix("/") ? "/" + segments.joined(separator: "/") : segments.joined(separator: "/"))
        } catch {
            throw HTTPMockError(.invalidPattern, "\(place): \(error.description)")
        }
        self.names = names
    }
}
