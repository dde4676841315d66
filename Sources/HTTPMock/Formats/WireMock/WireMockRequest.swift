import Foundation
import _HTTPMockJSON

/// The `request` of a WireMock mapping, translated onto ``Match``.
struct WireMockRequest {
    /// Every test, in the one matcher vocabulary.
    var matches: [Match] = []
    /// The `urlPathTemplate`, whose `{name}` segments templates reach as `{{request.path.name}}`.
    var pathTemplate: String?

    static let urlKeys = ["url", "urlPath", "urlPattern", "urlPathPattern", "urlPathTemplate"]
    static let keys = ["method"] + urlKeys + ["pathParameters", "queryParameters", "headers", "cookies", "basicAuthCredentials",
                                              "basicAuth", "bodyPatterns", "formParameters", "multipartPatterns", "customMatcher",
                                              "host", "port", "scheme", "clientIp"]
    static let unsupported: [String: String] = [
        "customMatcher": "WireMock extensions do not run here; register a Match in Swift instead",
    ]

    init(_ node: WireMockNode) throws(HTTPMockError) {
        let fields = try node.object(known: Self.keys)
        for key in fields.keys.filter({ Self.unsupported[$0] != nil }).sorted() {
            if let reason = Self.unsupported[key] { throw node.child(key, of: fields)!.error("\"\(key)\" is not supported: \(reason)") }
        }
        if let method = node.child("method", of: fields) { try self.method(method) }
        for key in ["scheme", "host", "port", "clientIp"] {
            guard let field = node.child(key, of: fields) else { continue }
            try urlPart(key, field)
        }
        let urls = Self.urlKeys.filter { fields[$0] != nil }
        if urls.count > 1 { throw node.error("give one of \(urls.map { "\"\($0)\"" }.joined(separator: ", ")), not several") }
        if let key = urls.first { try url(key, node.child(key, of: fields)!) }
        if let parameters = node.child("pathParameters", of: fields) {
            guard let template = pathTemplate else { throw parameters.error("\"pathParameters\" needs a \"urlPathTemplate\"") }
            let names = Self.variables(of: template)
            for (name, pattern) in try parameters.members() {
                guard names.contains(name) else {
                    throw pattern.error("\"\(name)\" is not a variable of the urlPathTemplate \"\(template)\"; its variables are: \(names.joined(separator: ", "))")
                }
                matches.append(try WireMockValuePattern.decode(pattern, body: false).match(.pathParameter(name, of: template)))
            }
        }
        for (key, part) in [("queryParameters", WireMockPart.query), ("headers", WireMockPart.header), ("cookies", WireMockPart.cookie)] {
            guard let group = node.child(key, of: fields) else { continue }
            for (name, pattern) in try group.members() {
                matches.append(try WireMockValuePattern.decode(pattern, body: false).match(part(name)))
            }
        }
        if let form = node.child("formParameters", of: fields) {
            for (name, pattern) in try form.members() {
                matches.append(try WireMockValuePattern.decode(pattern, body: false).match(.formField(name)))
            }
        }
        let credentialKeys = ["basicAuthCredentials", "basicAuth"].filter { fields[$0] != nil }
        if credentialKeys.count > 1 { throw node.error("give one of \"basicAuthCredentials\" and \"basicAuth\", not both") }
        if let key = credentialKeys.first, let credentials = node.child(key, of: fields) {
            let pair = try credentials.object(known: ["username", "password"])
            guard let user = credentials.child("username", of: pair), let password = credentials.child("password", of: pair) else {
                throw credentials.error("basicAuthCredentials needs \"username\" and \"password\"")
            }
            let token = Data("\(try user.string()):\(try password.string())".utf8).base64EncodedString()
            // The scheme's name in any case (`basic`, `BASIC`), one space, then the credentials as they are.
            let prefix = Array("basic ".utf8)
            matches.append(Match(condition: Condition(key: "wiremock:basic-auth=\(token)", weight: 2, summary: "header Authorization: Basic \(token)") { request in
                request.headers.values(for: "Authorization").contains { value in
                    let bytes = Array(value.utf8)
                    return bytes.count == prefix.count + token.utf8.count
                        && zip(bytes, prefix).allSatisfy { $0 | 0x20 == $1 }
                        && bytes[prefix.count...].elementsEqual(token.utf8)
                }
            }))
        }
        if let patterns = node.child("bodyPatterns", of: fields) {
            for pattern in try patterns.elements() {
                matches.append(try WireMockValuePattern.decode(pattern, body: true).match(.body))
            }
        }
        if let patterns = node.child("multipartPatterns", of: fields) {
            for pattern in try patterns.elements() { matches.append(try Self.multipart(pattern)) }
        }
    }

    /// One of `multipartPatterns`: `{"matchingType": "ANY" | "ALL", "headers": {…}, "bodyPatterns": […]}`, met when
    /// one part (`ANY`, the default) or every part (`ALL`) of a multipart body meets all of its patterns. Its `name`
    /// labels it only, as in WireMock: a part's name is matched with a `Content-Disposition` header pattern.
    private static func multipart(_ node: WireMockNode) throws(HTTPMockError) -> Match {
        let fields = try node.object(known: ["name", "matchingType", "headers", "bodyPatterns"])
        var all = false
        if let type = node.child("matchingType", of: fields) {
            switch try type.string() {
            case "ANY": all = false
            case "ALL": all = true
            case let other: throw type.error("\"\(other)\" is not a matching type; use \"ANY\" (one part meets the patterns) or \"ALL\" (every part does)")
            }
        }
        if let name = node.child("name", of: fields) { _ = try name.string() }
        var matches: [Match] = []
        if let headers = node.child("headers", of: fields) {
            for (name, pattern) in try headers.members() {
                matches.append(try WireMockValuePattern.decode(pattern, body: false).match(.header(name)))
            }
        }
        if let patterns = node.child("bodyPatterns", of: fields) {
            for pattern in try patterns.elements() {
                matches.append(try WireMockValuePattern.decode(pattern, body: true).match(.body))
            }
        }
        return .multipart(every: all, meeting: matches)
    }

    /// `"GET"`, `"ANY"`, or `{"oneOf": ["GET", "HEAD"]}` / `{"noneOf": […]}`.
    private mutating func method(_ node: WireMockNode) throws(HTTPMockError) {
        func checked(_ node: WireMockNode) throws(HTTPMockError) -> HTTPMethod {
            let name = try node.string()
            if let problem = MethodName.problem(name) { throw node.error(problem) }
            return HTTPMethod(name)
        }
        guard case .object(let object) = node.value else {
            if try node.string() != "ANY" { matches.append(.method(try checked(node))) }
            return
        }
        let fields = try node.object(known: ["oneOf", "noneOf"])
        guard fields.count == 1, let key = fields.keys.first, let list = node.child(key, of: object) else {
            throw node.error("a method pattern has one of \"oneOf\" and \"noneOf\", with a list of methods")
        }
        var methods: [HTTPMethod] = []
        for element in try list.elements() { methods.append(try checked(element)) }
        if methods.isEmpty { throw list.error("list at least one method, such as [\"GET\", \"HEAD\"]") }
        matches.append(key == "oneOf" ? .method(methods) : .not(.method(methods)))
    }

    /// `scheme` (`"http"`, `"https"`), `host` (a name or a value pattern) and `port` (a number), as WireMock's
    /// multi-domain mappings give them.
    private mutating func urlPart(_ key: String, _ node: WireMockNode) throws(HTTPMockError) {
        switch key {
        case "scheme":
            let scheme = try node.string().lowercased()
            guard ["http", "https"].contains(scheme) else { throw node.error("expected \"http\" or \"https\", not \(node.kind)") }
            matches.append(WireMockValuePattern.equal(scheme).match(.url("scheme") { $0.scheme.lowercased() }))
        case "host":
            let host: WireMockPart = .url("host") { $0.host.lowercased() }
            if case .string(let name) = node.value {
                if name.isEmpty { throw node.error("the host name is empty; write one, such as \"api.example.com\"") }
                matches.append(WireMockValuePattern.equal(name.lowercased()).match(host))
            } else {
                matches.append(try WireMockValuePattern.decode(node, body: false).match(host))
            }
        case "clientIp":
            // The server's peer; a request made in process comes from this machine.
            matches.append(try WireMockValuePattern.decode(node, body: false).match(.url("clientIp") { $0.clientIP }))
        default: // port
            let port = try node.integer(in: 1...65_535)
            matches.append(WireMockValuePattern.equal(String(port)).match(.url("port") { request in
                String(request.port ?? (request.scheme.lowercased() == "https" ? 443 : 80))
            }))
        }
    }

    private mutating func url(_ key: String, _ node: WireMockNode) throws(HTTPMockError) {
        let text = try node.string()
        switch key {
        case "url", "urlPath":
            guard text.hasPrefix("/") else { throw node.error("\"\(text)\" is not a path: it starts with \"/\"") }
            // The query starts at the first "?" byte, as a request's own target is split (``RelativeURL``).
            let query = text.utf8.firstIndex(of: UInt8(ascii: "?"))
            if key == "urlPath", query != nil { throw node.error("\"urlPath\" has no query; use \"url\" or \"queryParameters\"") }
            // The path literal lets the router's index narrow the candidates; `url` then compares the path and query
            // as written, exactly, as WireMock does (query order, a trailing `/` and `%20` against `+` all count).
            matches.append(.path(literal: query.map { String(text[..<$0]) } ?? text))
            if key == "url" { matches.append(.relativeURL(equalTo: text)) }
        case "urlPattern":
            matches.append(.relativeURL(matching: try WireMockValuePattern.anchored(node)))
        case "urlPathPattern":
            matches.append(.path(matching: try WireMockValuePattern.anchored(node)))
        default: // urlPathTemplate
            guard text.hasPrefix("/"), !text.contains("?") else {
                throw node.error("\"\(text)\" is not a path template such as \"/users/{id}\"")
            }
            do { _ = try URITemplate(text) } catch { throw node.error(error.message) }
            pathTemplate = text
            matches.append(.uriTemplate(text))
        }
    }

    /// The names of a path template's variables, in order.
    static func variables(of template: String) -> [String] {
        var names: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names += rest[rest.index(after: open)..<close].trimmingCharacters(in: CharacterSet(charactersIn: "+/.;*"))
                .split(separator: ",").map { String($0.split(separator: ":")[0]) }
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// The segment position of each `{name}` that fills a whole segment of `template`.
    static func segmentPositions(of template: String) -> [String: Int] {
        var positions: [String: Int] = [:]
        for (index, segment) in template.split(separator: "/", omittingEmptySubsequences: true).enumerated()
        where segment.hasPrefix("{") && segment.hasSuffix("}") {
            positions[String(segment.dropFirst().dropLast())] = index
        }
        return positions
    }
}

extension WireMockStubMapping {
    /// The matchers of a WireMock request pattern on its own, as a mapping's `request` is written (what WireMock's
    /// admin API receives to count and find requests in the journal). `source` names it in errors, whose key paths
    /// start at the pattern's top level (`headers.Accept`).
    package static func requestPattern(json: Data, source: String) throws(HTTPMockError) -> [Match] {
        let value = try DefinitionFile.decode(JSONValue.self, from: json, name: source)
        return try WireMockRequest(WireMockNode(value: value, path: "", place: source)).matches
    }
}
