import Foundation
import _HTTPMockJSON

extension Match {
    /// The body is JSON equal to `value` as `comparison` allows (WireMock's `equalToJson`).
    static func json(_ value: JSONValue, comparison: JSONComparison) -> Match {
        let options = (comparison.ignoresArrayOrder ? " ignoring array order" : "") + (comparison.ignoresExtraElements ? " ignoring extra elements" : "")
        let summary = "json \(value)\(options)"
        return Match(condition: Condition(key: "json:\(value)|\(comparison.ignoresArrayOrder)|\(comparison.ignoresExtraElements)", weight: 2,
                                          summary: summary) { request in
            guard let body = request.body, let actual = JSONValue(data: body) else { return false }
            return comparison.matches(value, actual)
        })
    }

    /// The body is JSON in which `path` selects something that meets `pattern` (WireMock's `matchesJsonPath`).
    static func jsonPath(_ path: JSONPath, _ pattern: WireMockValuePattern?) -> Match {
        let summary = "body json path \(path)" + (pattern == nil ? "" : " (with a value pattern)")
        return Match(summary) { () throws(HTTPMockError) -> Compiled in
            let test = try pattern?.test()
            return Compiled(condition: Condition(key: nil, weight: 2, summary: summary, isUserCode: path.usesRegex || (pattern?.usesRegex ?? false)) { request in
                guard let body = request.body, let json = JSONValue(data: body) else { return false }
                return WireMockJSONPath.holds(path, test, in: json)
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
    /// object; any other path must select something. With a test: the text of a selected value must pass it
    /// (strings as they are, other values as JSON); when nothing is selected, the test gets `nil`.
    static func holds(_ path: JSONPath, _ test: (@Sendable (String?) -> Bool)?, in json: JSONValue) -> Bool {
        let found = path.select(in: json)
        guard let test else {
            guard path.isDefinite else { return !found.isEmpty }
            switch found.first {
            case nil, .null?, .array([])?, .object([:])?: return false
            default: return true
            }
        }
        if found.isEmpty { return test(nil) }
        return found.contains { test(text(of: $0)) }
    }

    static func text(of value: JSONValue) -> String? {
        switch value {
        case .null: nil
        case .string(let text): text
        default: value.description
        }
    }
}
