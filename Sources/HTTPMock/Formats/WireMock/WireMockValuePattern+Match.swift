import Foundation
import _HTTPMockRegex
import _HTTPMockJSON

/// The part of a request a value pattern tests, in the words of ``Match``: is it there, does it equal a text,
/// does it contain a match of a regular expression.
struct WireMockPart {
    /// `header "Accept"`, for messages.
    let name: String
    let present: Match
    let equal: @Sendable (String) -> Match
    let regex: @Sendable (String) -> Match
    /// Every value of the part in a request (none when it is absent), for tests the vocabulary has no word for
    /// (numbers, dates, JSON Schema, XML): the part meets such a test when one of its values does.
    let values: @Sendable (CapturedRequest) -> [String]
    /// A matcher that refuses to register, when the part's name cannot be one (a header name with a space): tests
    /// on ``values`` give it instead of a test that could never be met.
    var refusal: Match? = nil
    /// Every pattern but `absent` needs the part to be there (a cookie, in WireMock); elsewhere an absent part meets
    /// `doesNotMatch`, `doesNotContain` and `not`.
    var negationNeedsValue = false

    /// A header: each of its lines a value, whole, as WireMock tests them (`Accept: text/html, application/json` is
    /// one value, which `equalTo "text/html"` does not meet).
    static func header(_ header: String) -> WireMockPart {
        let refusal = Match.invalidName(header)
        let computed = computed("header \"\(header)\"", key: "header:\(header.lowercased())") { $0.headers.values(for: header) }
        return WireMockPart(name: computed.name, present: .header(header), equal: { refusal ?? computed.equal($0) },
                            regex: { refusal ?? computed.regex($0) }, values: computed.values, refusal: refusal)
    }

    static func query(_ parameter: String) -> WireMockPart {
        WireMockPart(name: "query parameter \"\(parameter)\"", present: .query([parameter: .any], matching: .contains),
                     equal: { expected in
                         // Byte for byte, as Java's `equals` compares; a parameter written without `=` (`?flag`) has
                         // the empty value, as WireMock reads it.
                         Match(condition: Condition(key: "wiremock:query:\(parameter)=\(expected)", weight: 2, summary: "query \(parameter)=\(expected)") { request in
                             request.queryValues(for: parameter).contains { ($0 ?? "").utf8.elementsEqual(expected.utf8) }
                         })
                     },
                     regex: { .query(parameter, matching: $0) },
                     values: { $0.queryValues(for: parameter).map { $0 ?? "" } })
    }

    static func cookie(_ cookie: String) -> WireMockPart {
        WireMockPart(name: "cookie \"\(cookie)\"", present: .cookie(cookie), equal: { .cookie(cookie, $0) },
                     regex: { .cookie(cookie, matching: $0) }, values: { Cookies.values(cookie, in: $0) }, negationNeedsValue: true)
    }

    static func pathParameter(_ variable: String, of template: String) -> WireMockPart {
        let compiled = try? URITemplate(template)
        return WireMockPart(name: "path parameter \"\(variable)\"", present: .templateVariable(variable, of: template, matching: nil),
                            equal: { .templateVariable(variable, of: template, matching: "\\A" + NSRegularExpression.escapedPattern(for: $0) + "\\z") },
                            regex: { .templateVariable(variable, of: template, matching: $0) },
                            values: { request in compiled?.captures(in: request)?[variable].map { [$0] } ?? [] })
    }

    /// A field of an `application/x-www-form-urlencoded` body (`formParameters`), `+` and `%XX` decoded.
    static func formField(_ field: String) -> WireMockPart {
        let values: @Sendable (CapturedRequest) -> [String] = { request in
            QueryItem.parse(rawQuery: request.bodyText).filter { $0.name == field }.map { $0.value ?? "" }
        }
        return .computed("form parameter \"\(field)\"", key: "form:\(field)", values: values)
    }

    /// A part of the request URL that has one value (`host`, `scheme`, `port`).
    static func url(_ name: String, value: @escaping @Sendable (CapturedRequest) -> String?) -> WireMockPart {
        .computed("request \(name)", key: "url:\(name)") { value($0).map { [$0] } ?? [] }
    }

    /// A part known only by its values: every test reads them.
    private static func computed(_ name: String, key: String, values: @escaping @Sendable (CapturedRequest) -> [String]) -> WireMockPart {
        WireMockPart(
            name: name,
            present: Match(condition: Condition(key: "wiremock:\(key)", summary: "\(name) present") { !values($0).isEmpty }),
            equal: { expected in
                // Byte for byte, as Java's `equals` compares (Swift's `==` finds `é` equal to `e` and a combining accent).
                Match(condition: Condition(key: "wiremock:\(key)=\(expected)", weight: 2, summary: "\(name) = \(expected)") {
                    values($0).contains { $0.utf8.elementsEqual(expected.utf8) }
                })
            },
            regex: { pattern in
                Match("\(name) ~ /\(pattern)/") { () throws(HTTPMockError) -> Match.Compiled in
                    let regex = try compileRegex(pattern, role: "regular expression for \(name)")
                    return Match.Compiled(condition: Condition(key: "wiremock:\(key)~\(pattern)", weight: 2, summary: "\(name) ~ /\(pattern)/",
                                                               isUserCode: true) { request in
                        values(request).contains { regex.containsMatch(in: $0) }
                    }.inBudget())
                }
            },
            values: values)
    }

    /// The body, as WireMock reads it into text (``CapturedRequest/wireMockBodyText``): "present" is a body that is
    /// not empty.
    static let body: WireMockPart = {
        let text = computed("body", key: "body") { request in request.wireMockBodyText.map { [$0] } ?? [] }
        return WireMockPart(name: "body", present: .not(.body(Data())), equal: text.equal, regex: text.regex, values: text.values)
    }()
}

extension WireMockValuePattern {
    /// The pattern as a matcher on `part`. Body-only operators reach here for bodies only (the decoder refuses
    /// them elsewhere).
    func match(_ part: WireMockPart) -> Match {
        if part.negationNeedsValue {
            // A missing cookie meets `absent` and nothing else, as in WireMock: every other pattern asks for it.
            if case .not(.present) = self { return .not(part.present) }
            if case .present = self { return part.present }
            var bare = part
            bare.negationNeedsValue = false
            return .all(of: [part.present, match(bare)])
        }
        switch self {
        case .equal(let text): return part.equal(text)
        case .regex(let pattern): return part.regex(pattern)
        case .present: return part.present
        case .not, .all: return perValue(part)
        case .any(let parts): return .any(of: parts.map { $0.match(part) })
        case .json(let value, let comparison): return .json(value, comparison: comparison)
        case .jsonPath(let path, let pattern): return .jsonPath(path, pattern)
        case .bytes(let data): return .body(data)
        case .test(let description, let test, let heavy):
            if let refusal = part.refusal { return refusal }
            let values = part.values
            return Match(condition: Condition(key: "wiremock:\(part.name) \(description)", weight: 2, summary: "\(part.name) \(description)",
                                              isUserCode: heavy) { request in values(request).contains(where: test) })
        case .multiple(let exactly, let patterns):
            if let refusal = part.refusal { return refusal }
            let values = part.values
            let word = exactly ? "hasExactly" : "includes"
            return Match("\(part.name) \(word) \(patterns.count) pattern(s)") { () throws(HTTPMockError) -> Match.Compiled in
                var tests: [@Sendable (String?) -> Bool] = []
                for pattern in patterns { tests.append(try pattern.test()) }
                let all = tests
                return Match.Compiled(condition: Condition(key: nil, weight: 2, summary: "\(part.name) \(word) \(all.count) pattern(s)",
                                                           isUserCode: true) { request in
                    let found = values(request)
                    // Every pattern is met by one of the values; `hasExactly`: and every value meets one of them.
                    guard all.allSatisfy({ test in found.contains { test($0) } }) else { return false }
                    return !exactly || found.allSatisfy { value in all.contains { $0(value) } }
                })
            }
        }
    }

    /// A pattern with `not` or `and` in it, as WireMock tests it: on each value of the part (a query parameter or a
    /// header given more than once), met when one value meets it whole; an absent part is tested as no value.
    /// (Composed from matchers of the whole request, `not` would ask that no value match, and the parts of `and`
    /// could each be met by another value.)
    private func perValue(_ part: WireMockPart) -> Match {
        if let refusal = part.refusal { return refusal }
        let composed = match(composedFor: part)
        let summary = composed.description
        let values = part.values
        let pattern = self
        return Match(summary) { () throws(HTTPMockError) -> Match.Compiled in
            let test = try pattern.test()
            // Weighed in a stub's specificity as the composed matcher weighs, and shared under a key of its own.
            let inner = try RequestPredicate([composed])
            let weight = inner.conditions.reduce(0) { $0 + $1.weight }
            let key = inner.conditions.count == 1 ? inner.conditions[0].key.map { "per-value:" + $0 } : nil
            let condition = Condition(key: key, weight: weight, summary: summary, isUserCode: pattern.runsUserCode) { request in
                let found = values(request)
                return found.isEmpty ? test(nil) : found.contains { test($0) }
            }
            return Match.Compiled(condition: pattern.runsUnbudgetedCode ? condition : condition.inBudget())
        }
    }

    /// The pattern composed of matchers of the whole request, for the description and weight of ``perValue(_:)``.
    private func match(composedFor part: WireMockPart) -> Match {
        switch self {
        case .not(let inner): return .not(inner.match(composedFor: part))
        case .all(let parts): return .all(of: parts.map { $0.match(composedFor: part) })
        case .any(let parts): return .any(of: parts.map { $0.match(composedFor: part) })
        default: return match(part)
        }
    }

    /// Whether testing a value runs a regular expression or other work of a mapping's own.
    private var runsUserCode: Bool {
        switch self {
        case .regex, .jsonPath: true
        case .test(_, _, let heavy): heavy
        case .not(let inner): inner.runsUserCode
        case .all(let parts), .any(let parts), .multiple(_, let parts): parts.contains { $0.runsUserCode }
        default: false
        }
    }

    /// Whether that work is other than regular expressions, which run within their budget (``RegexBudget``).
    private var runsUnbudgetedCode: Bool {
        switch self {
        case .jsonPath: true
        case .test(_, _, let heavy): heavy
        case .not(let inner): inner.runsUnbudgetedCode
        case .all(let parts), .any(let parts), .multiple(_, let parts): parts.contains { $0.runsUnbudgetedCode }
        default: false
        }
    }

    /// The pattern as a test of one text (`nil`: there is none), for the values a JSONPath selects.
    func test() throws(HTTPMockError) -> @Sendable (String?) -> Bool {
        switch self {
        case .equal(let text): return { $0?.utf8.elementsEqual(text.utf8) ?? false }
        case .regex(let pattern):
            let regex = try compileRegex(pattern, role: "regular expression")
            return { text in text.map { regex.containsMatch(in: $0) } ?? false }
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
                guard let text, let json = JSONValue.permissive(Data(text.utf8)) else { return false }
                return WireMockJSONPath.holds(path, pattern, inner, in: json, text: Data(text.utf8))
            }
        case .bytes(let data): return { $0.map { Data($0.utf8) == data } ?? false }
        case .test(_, let test, _): return { $0.map(test) ?? false }
        case .multiple(let exactly, let patterns):
            // One selected value: it meets every pattern (and `hasExactly` asks for one pattern per value).
            var tests: [@Sendable (String?) -> Bool] = []
            for pattern in patterns { tests.append(try pattern.test()) }
            let all = tests
            return { value in value != nil && all.allSatisfy { $0(value) } && (!exactly || all.count == 1) }
        }
    }
}
