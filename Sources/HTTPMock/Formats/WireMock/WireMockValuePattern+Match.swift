import Foundation

/// The part of a request a value pattern tests, in the words of ``Match``: is it there, does it equal a text,
/// does it contain a match of a regular expression.
struct WireMockPart {
    /// `header "Accept"`, for messages.
    let name: String
    let present: Match
    let equal: @Sendable (String) -> Match
    let regex: @Sendable (String) -> Match

    static func header(_ header: String) -> WireMockPart {
        WireMockPart(name: "header \"\(header)\"", present: .header(header), equal: { .header(header, $0) },
                     regex: { .header(header, matching: $0) })
    }

    static func query(_ parameter: String) -> WireMockPart {
        WireMockPart(name: "query parameter \"\(parameter)\"", present: .query([parameter: .any], matching: .contains),
                     equal: { .query([parameter: .values([$0])], matching: .contains) }, regex: { .query(parameter, matching: $0) })
    }

    static func cookie(_ cookie: String) -> WireMockPart {
        WireMockPart(name: "cookie \"\(cookie)\"", present: .cookie(cookie), equal: { .cookie(cookie, $0) },
                     regex: { .cookie(cookie, matching: $0) })
    }

    static func pathParameter(_ variable: String, of template: String) -> WireMockPart {
        WireMockPart(name: "path parameter \"\(variable)\"", present: .templateVariable(variable, of: template, matching: nil),
                     equal: { .templateVariable(variable, of: template, matching: "\\A" + NSRegularExpression.escapedPattern(for: $0) + "\\z") },
                     regex: { .templateVariable(variable, of: template, matching: $0) })
    }

    /// The body: "present" is a body that is not empty.
    static let body = WireMockPart(name: "body", present: .not(.body(Data())), equal: { .body($0) }, regex: { .body(matching: $0) })
}

extension WireMockValuePattern {
    /// The pattern as a matcher on `part`. Body-only operators reach here for bodies only (the decoder refuses
    /// them elsewhere).
    func match(_ part: WireMockPart) -> Match {
        switch self {
        case .equal(let text): return part.equal(text)
        case .regex(let pattern): return part.regex(pattern)
        case .present: return part.present
        case .not(let inner): return .not(inner.match(part))
        case .all(let parts): return .all(of: parts.map { $0.match(part) })
        case .any(let parts): return .any(of: parts.map { $0.match(part) })
        case .json(let value, let comparison): return .json(value, comparison: comparison)
        case .jsonPath(let path, let pattern): return .jsonPath(path, pattern)
        case .bytes(let data): return .body(data)
        }
    }

    /// The pattern as a test of one text (`nil`: there is none), for the values a JSONPath selects.
    func test() throws(HTTPMockError) -> @Sendable (String?) -> Bool {
        switch self {
        case .equal(let text): return { $0 == text }
        case .regex(let pattern):
            let regex = try compileRegex(pattern, role: "regular expression")
            return { text in text.map { regex.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil } ?? false }
        case .present: return { $0 != nil }
        case .not(let inner):
            let test = try inner.test()
            return { !test($0) }
        case .all(let parts), .any(let parts):
            var tests: [@Sendable (String?) -> Bool] = []
            for part in parts { tests.append(try part.test()) }
            let all = tests
            if case .all = self { return { text in all.allSatisfy { $0(text) } } }
            return { text in all.contains { $0(text) } }
        case .json(let expected, let comparison):
            return { text in text.flatMap { JSONValue(data: Data($0.utf8)) }.map { comparison.matches(expected, $0) } ?? false }
        case .jsonPath(let path, let pattern):
            let inner = try pattern?.test()
            return { text in
                guard let json = text.flatMap({ JSONValue(data: Data($0.utf8)) }) else { return false }
                return WireMockJSONPath.holds(path, inner, in: json)
            }
        case .bytes(let data): return { $0.map { Data($0.utf8) == data } ?? false }
        }
    }
}
