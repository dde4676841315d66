import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import _HTTPMockJSON

extension HAR {
    /// One stub per distinct request (method, URL and, if matched, body), answering with the recorded responses in
    /// the order they were recorded. Linear in the number of entries.
    func definitions(options: HARReplayOptions, name: String) throws(HTTPMockError) -> [Engine.Definition] {
        struct Group {
            let index: Int
            let request: Request
            var entries: [Entry]
        }
        var groups: [Group] = []
        var indexByKey: [String: Int] = [:]
        for (index, entry) in log.entries.enumerated() {
            let place = "\(name) at log.entries[\(index)].request"
            if let problem = MethodName.problem(entry.request.method) {
                throw HTTPMockError(.invalidDefinition, "\(place).method: \(problem)")
            }
            if let postData = entry.request.postData, postData.decodedData == nil {
                throw HTTPMockError(.invalidDefinition, "\(place).postData.text: the text is not valid base64 although \"_encoding\" is \"base64\"; fix it, or remove \"_encoding\" if the body is plain text")
            }
            // Without the fragment; an empty URL (found by fuzzing: it used to crash here) is refused below.
            let url = entry.request.url
            var key = entry.request.method.uppercased() + " " + (url.firstIndex(of: "#").map { String(url[..<$0]) } ?? url)
            if options.matchesBody, let body = entry.request.body, !body.isEmpty { key += "\u{1F}" + body.base64EncodedString() }
            if let existing = indexByKey[key] {
                groups[existing].entries.append(entry)
            } else {
                indexByKey[key] = groups.count
                groups.append(Group(index: index, request: entry.request, entries: [entry]))
            }
        }
        var definitions: [Engine.Definition] = []
        definitions.reserveCapacity(groups.count)
        for group in groups {
            let place = "\(name) at log.entries[\(group.index)]"
            var conditions = try Self.conditions(for: group.request, options: options, place: place)
            conditions.append(.loaded(from: "\(name) entries[\(group.index)]"))
            let (host, path) = try Self.route(of: group.request.url, place: place + ".request.url")
            var responses: [MockResponse] = []
            for (position, entry) in group.entries.enumerated() {
                let last = position == group.entries.count - 1
                responses.append(try Self.response(entry, lifetime: last && options.repeatsLast ? .eternal : .single,
                                                   options: options, place: place))
            }
            definitions.append(Engine.Definition(host: host, path: path, conditions: conditions, responses: responses))
        }
        return definitions
    }

    private static func route(of text: String, place: String) throws(HTTPMockError) -> (HostGlob, PathGlob) {
        guard let components = URLComponents(string: text), let host = components.host, !host.isEmpty else {
            throw HTTPMockError(.invalidDefinition, "\(place): \"\(text)\" is not an absolute URL with a host")
        }
        return (HostGlob(literalHost: host, port: components.port),
                PathGlob(literalSegments: PathNormalization.segments(ofEncodedPath: components.percentEncodedPath)))
    }

    private static func conditions(for request: Request, options: HARReplayOptions, place: String) throws(HTTPMockError) -> [Condition] {
        var conditions: [Condition] = [.method([request.method.uppercased()])]
        let raw = URLComponents(string: request.url)?.percentEncodedQuery
        var values: [String: [String?]] = [:]
        for item in QueryItem.parse(rawQuery: raw) { values[item.name, default: []].append(item.value) }
        let query = values.mapValues { found -> QueryValue in
            if found.contains(where: { $0 == options.wildcard }) { return .any }
            return found == [nil] ? .flag : .values(found.map { $0 ?? "" })
        }
        conditions.append(.query(QueryParameters(query), matching: .exact))
        if options.matchesBody, let body = request.body, !body.isEmpty {
            conditions.append(.recordedBody(body, wildcard: options.wildcard))
        }
        return conditions
    }

    private static func response(_ entry: Entry, lifetime: MockResponse.Lifetime, options: HARReplayOptions,
                                 place: String) throws(HTTPMockError) -> MockResponse {
        let delivery: MockResponse.Delivery = options.replaysTiming && entry.time > 0 ? .delayed(entry.time / 1000) : .instant
        let response = entry.response
        if response.status == 0 {
            let code = response.error.flatMap(URLErrorName.code(named:)) ?? .networkConnectionLost
            return .failure(URLError(code), lifetime: lifetime, delivery: delivery)
        }
        guard (100...599).contains(response.status) else {
            throw HTTPMockError(.invalidDefinition, "\(place).response.status: \(response.status) is not an HTTP status code (100-599, or 0 for a failed request)")
        }
        guard let body = response.content.data else {
            throw HTTPMockError(.invalidDefinition, "\(place).response.content.text: the text is not valid base64 although \"encoding\" is \"base64\"; fix it, or remove \"encoding\" if the body is plain text")
        }
        var headers: [String: String] = [:]
        for pair in response.headers where !Self.unreplayedHeaders.contains(pair.name.lowercased()) {
            let name = headers.keys.first { $0.caseInsensitiveCompare(pair.name) == .orderedSame } ?? pair.name
            headers[name] = headers[name].map { "\($0), \(pair.value)" } ?? pair.value
        }
        if let parts = response.parts, response.partsTruncated != true {
            return try streamed(parts, response: response, headers: headers, lifetime: lifetime, options: options,
                                place: place)
        }
        return MockResponse(status: .init(code: response.status), headers: headers, body: body,
                            contentType: response.content.mimeType.isEmpty ? nil : response.content.mimeType,
                            lifetime: lifetime, delivery: delivery)
    }

    /// A streamed response (`_parts`): the same parts, at once or (``HARReplayOptions/replaysTiming``) each after
    /// the time between it and the one before; a stream that failed part of the way fails again after its parts.
    private static func streamed(_ recorded: [Part], response: Response, headers: [String: String],
                                 lifetime: MockResponse.Lifetime, options: HARReplayOptions,
                                 place: String) throws(HTTPMockError) -> MockResponse {
        var problems: [String] = []
        var parts: [StreamPart] = []
        var previous = 0.0
        for (index, part) in recorded.enumerated() {
            let position = "\(place).response._parts[\(index)]"
            guard let data = part.data else {
                problems.append("\(position).text: not valid base64 although \"encoding\" is \"base64\"")
                continue
            }
            guard part.offset.isFinite, part.offset >= 0 else {
                problems.append("\(position).offset: \(part.offset) is not a number of seconds, 0 or more")
                continue
            }
            guard part.offset >= previous else {
                problems.append("\(position).offset: \(part.offset) comes before the part before it (\(previous)); parts are listed in the order they arrived")
                continue
            }
            parts.append(StreamPart(data, after: options.replaysTiming ? part.offset - previous : 0))
            previous = part.offset
        }
        guard problems.isEmpty else {
            throw HTTPMockError(.invalidDefinition, problems.joined(separator: "; "))
        }
        let fault = response.error.map { StreamFault.fail(URLError(URLErrorName.code(named: $0) ?? .networkConnectionLost), afterParts: parts.count) }
        return MockResponse.chunks(parts, contentType: response.content.mimeType.isEmpty ? "application/octet-stream" : response.content.mimeType,
                                   status: .init(code: response.status), fault: fault, lifetime: lifetime, headers: headers)
    }

    /// Headers that described the bytes on the wire, not the decoded body HAR keeps; the mock sets its own length.
    static let unreplayedHeaders: Set<String> = ["content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive"]
}

extension Condition {
    /// The request's body equals `recorded`: as JSON when both are JSON (a string equal to `wildcard` in the
    /// recording matches any value), else byte for byte.
    static func recordedBody(_ recorded: Data, wildcard: String) -> Condition {
        let json = JSONValue(data: recorded)
        let preview = String(decoding: recorded.prefix(40), as: UTF8.self)
        return Condition(key: nil, weight: 2, summary: "body \(preview)\(recorded.count > 40 ? "…" : "")") { request in
            guard let body = request.body else { return false }
            if let json, let other = JSONValue(data: body) { return json.matches(other, wildcard: wildcard) }
            return body == recorded
        }
    }
}
