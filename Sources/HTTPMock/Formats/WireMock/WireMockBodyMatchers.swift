import Foundation
import _HTTPMockJSON
import _HTTPMockTemplates

extension Match {
    /// The body is JSON equal to `value` as `comparison` allows (WireMock's `equalToJson`).
    static func json(_ value: JSONValue, comparison: JSONComparison) -> Match {
        let options = (comparison.ignoresArrayOrder ? " ignoring array order" : "") + (comparison.ignoresExtraElements ? " ignoring extra elements" : "")
        let summary = "json \(value)\(options)"
        return Match(condition: Condition(key: "json:\(value)|\(comparison.ignoresArrayOrder)|\(comparison.ignoresExtraElements)", weight: 2,
                                          summary: summary) { request in
            guard let actual = request.wireMockJSON else { return false }
            return comparison.matches(value, actual)
        })
    }

    /// The body is JSON in which `path` selects something that meets `pattern` (WireMock's `matchesJsonPath`).
    static func jsonPath(_ path: JSONPath, _ pattern: WireMockValuePattern?) -> Match {
        let summary = "body json path \(path)" + (pattern == nil ? "" : " (with a value pattern)")
        return Match(summary) { () throws(HTTPMockError) -> Compiled in
            let test = try pattern?.test()
            return Compiled(condition: Condition(key: nil, weight: 2, summary: summary, isUserCode: path.usesRegex || (pattern?.usesRegex ?? false)) { request in
                guard let bytes = request.wireMockJSONBytes, let json = JSONValue.permissive(bytes) else {
                    return false
                }
                return WireMockJSONPath.holds(path, pattern, test, in: json, text: bytes)
            })
        }
    }
}

extension Match {
    /// The body is `multipart/…` and one of its parts (every part, with `every`) meets all of `matches`, each
    /// tested on the part as if it were the request: its headers and its body (WireMock's `multipartPatterns`).
    static func multipart(every: Bool, meeting matches: [Match]) -> Match {
        let summary = "multipart body: \(every ? "every part" : "a part") meets \(matches.map(\.description).joined(separator: ", "))"
        return Match(summary) { () throws(HTTPMockError) -> Compiled in
            var tests: [Condition] = []
            for match in matches {
                if let condition = try match.make().condition { tests.append(condition) }
            }
            let conditions = tests
            return Compiled(condition: Condition(key: nil, weight: 2, summary: summary, isUserCode: conditions.contains(where: \.isUserCode)) { request in
                guard let parts = MultipartBody.parts(of: request), !parts.isEmpty else { return false }
                let meets = { (part: MultipartBody.Part) -> Bool in
                    let probe = CapturedRequest(method: request.method, url: request.url, headers: part.headers, body: part.body)
                    return conditions.allSatisfy { $0.test(probe) }
                }
                return every ? parts.allSatisfy(meets) : parts.contains(where: meets)
            })
        }
    }
}

extension WireMockValuePattern {
    /// Whether testing it runs a regular expression or another test that may be slow (such a test runs outside the
    /// engine's lock).
    var usesRegex: Bool {
        switch self {
        case .regex: true
        case .not(let inner): inner.usesRegex
        case .all(let parts), .any(let parts): parts.contains(where: \.usesRegex)
        case .jsonPath(_, let inner): inner?.usesRegex ?? false
        case .test(_, _, let heavy): heavy
        case .multiple: true
        case .equal, .present, .json, .bytes: false
        }
    }
}

/// WireMock's reading of `matchesJsonPath`.
enum WireMockJSONPath {
    /// Without a test: a definite path (`$.a.b`) must select a value that is not null, an empty array or an empty
    /// object; any other path must select something. With a test, what the path selects is given to it as WireMock
    /// 2.35.1 gives it (``texts(_:_:in:text:)``), and one text passing it is enough.
    static func holds(_ path: JSONPath, _ pattern: WireMockValuePattern?, _ test: (@Sendable (String?) -> Bool)?,
                      in json: JSONValue, text: Data) -> Bool {
        guard let test else {
            let found = path.select(in: json)
            guard path.isDefinite else { return !found.isEmpty }
            switch found.first {
            case nil, .null?, .array([])?, .object([:])?: return false
            default: return true
            }
        }
        let texts = texts(path, pattern, in: json, text: text)
        // Nothing selected (or only null): WireMock gives `absent` a missing value, and other patterns nothing.
        if texts.isEmpty { return isAbsent(pattern) && test(nil) }
        return texts.contains { $0.map(test) ?? false }
    }

    /// What a value pattern is given of what `path` selects, as WireMock 2.35.1 gives it: for `equalToJson`, one JSON
    /// text of it all (one value, `null` when there is none, or the list a path that is not definite selects);
    /// otherwise an object's indented JSON as WireMock's Jackson writes it, or the text of each element of a list
    /// (a definite path's list, or what another path selects), or of the value, as Java's `String.valueOf` writes
    /// it (`10.0`, `1.0E-5`, `{k=v}`); none for null or nothing. A null element gives `nil` (WireMock fails there).
    static func texts(_ path: JSONPath, _ pattern: WireMockValuePattern?, in json: JSONValue, text: Data) -> [String?] {
        let found = path.select(in: json)
        // One value where the path names one (or ends in a function of what it selects), a list otherwise.
        let single = path.isDefinite || path.withoutFinalFunction != path
        let asJSON: Bool = if case .json? = pattern { true } else { false }
        // Re-read as WireMock reads it only where it shows: objects' key order, numbers' spelling, a list's order.
        var values = found.map(TemplateJSON.value)
        let plain = asJSON ? single || found.count < 2 : found.allSatisfy(Self.isPlain)
        if !plain, let exact = TemplateJSON.matcherSelection(path, in: String(decoding: text, as: UTF8.self)) { values = exact }
        if asJSON {
            guard single else { return [TemplateValue.array(values, json: true).jacksonText] }
            return [(values.first ?? .null).jacksonText]
        }
        var elements = values
        if single {
            switch values.first {
            case nil, .null?: return []
            case .object?: return [values[0].jacksonText]
            case .array(let items, _)?: elements = items
            default: break
            }
        }
        return elements.map { element in if case .null = element { nil } else { element.javaString } }
    }

    /// Whether `value` reads the same from the matcher's JSON as from WireMock's: text, whole numbers below 64 bits,
    /// truth values, null and lists of them.
    private static func isPlain(_ value: JSONValue) -> Bool {
        switch value {
        case .null, .bool, .int, .string: true
        case .array(let items): items.allSatisfy(isPlain)
        case .double, .decimal, .object: false
        }
    }

    /// Whether the pattern is `absent`, which WireMock gives a missing value when nothing is selected.
    private static func isAbsent(_ pattern: WireMockValuePattern?) -> Bool {
        if case .not(.present)? = pattern { true } else { false }
    }
}
