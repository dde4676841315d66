import Foundation

extension MockingbirdBundle {
    /// The stubs of the bundle at `folder`: one per distinct request, answering for ever (as Mockingbird does).
    /// When two entries describe the same request, the first one answers.
    ///
    /// When several entries match one request (a `null` parameter and a named value, a port and none), the first
    /// in `bundle.json` answers, as in Mockingbird. The engine ranks stubs by specificity and then prefers the later
    /// registration, so the entries get one query weight (the largest of the bundle: the bundle ranks against other
    /// stubs as its most specific entry would) and are registered last entry first.
    static func definitions(in folder: URL, queryMatching: QueryMatching,
                            limits: FileSizeLimits = .standard) throws(HTTPMockError) -> [Engine.Definition] {
        let data = try DefinitionFile.read(folder.appendingPathComponent("bundle.json"), name: "bundle.json",
                                           limit: limits.definitions, knob: "definitions")
        return try definitions(bundle: data, in: folder, queryMatching: queryMatching)
    }

    /// The stubs of the `bundle.json` whose bytes are `data`, with response files read from `folder` (the
    /// entry point the fuzzer feeds).
    static func definitions(bundle data: Data, in folder: URL, queryMatching: QueryMatching) throws(HTTPMockError) -> [Engine.Definition] {
        let name = "bundle.json"
        let bundle = try DefinitionFile.decode(MockingbirdBundle.self, from: data, name: name)
        var definitions: [Engine.Definition] = []
        var seen = Set<String>()
        let files = FolderPath(root: folder)
        for (index, entry) in bundle.entries.enumerated() {
            let place = "\(name) at [\(index)]"
            let route = try Route(entry.request.url, place: place + ".request.url")
            let method = (entry.request.method ?? "GET").uppercased()
            if let problem = MethodName.problem(method) {
                throw HTTPMockError(.invalidDefinition, "\(place).request.method: \(problem)")
            }
            var parameters = route.query
            for (key, value) in entry.request.parameters ?? [:] { parameters[key] = value.queryValue }
            let query = QueryParameters(parameters)
            let identity = "\(method) \(route.host.source)\(route.path.normalized)?\(query)"
            guard seen.insert(identity).inserted else { continue }
            let response = try response(entry.response, files: files, place: place + ".response")
            definitions.append(Engine.Definition(
                host: route.host, path: route.path,
                conditions: [.method([method]), .query(query, matching: queryMatching), .loaded(from: "\(folder.lastPathComponent)/\(name) [\(index)]")],
                responses: [response]
            ))
        }
        return inBundleOrder(definitions)
    }

    /// `definitions` (conditions: method, query, source) arranged so that the first one a request matches answers.
    private static func inBundleOrder(_ definitions: [Engine.Definition]) -> [Engine.Definition] {
        let queryWeight = definitions.map { $0.conditions[1].weight }.max() ?? 1
        return definitions.reversed().map { definition in
            var definition = definition
            definition.conditions[1] = definition.conditions[1].weighing(queryWeight)
            return definition
        }
    }

    private static func response(_ response: Response, files: FolderPath, place: String) throws(HTTPMockError) -> MockResponse {
        guard (100...599).contains(response.code) else {
            throw HTTPMockError(.invalidDefinition, "\(place).code: \(response.code) is not an HTTP status code (100-599)")
        }
        let headers = response.headers ?? [:]
        let hasContentType = headers.keys.contains { $0.caseInsensitiveCompare("Content-Type") == .orderedSame }
        // Mockingbird's default type applies only when neither `mime_type` nor a `Content-Type` header says one.
        let contentType = response.mimeType ?? (hasContentType || response.file == nil ? nil : "application/octet-stream")
        guard let file = response.file else {
            return MockResponse(status: .init(code: response.code), headers: headers, content: .data(Data()),
                                contentType: response.mimeType, lifetime: .eternal, delivery: .instant)
        }
        let url = try files.file(file, place: place + ".file")
        return MockResponse(status: .init(code: response.code), headers: headers, content: .file(url),
                            contentType: contentType, lifetime: .eternal, delivery: .instant)
    }

    /// The host, path and query of a Mockingbird URL (`://api.example.com:8080/v1/items?x=1`).
    struct Route {
        let host: HostGlob
        let path: PathGlob
        let query: [String: QueryValue]

        init(_ url: String, place: String) throws(HTTPMockError) {
            guard let range = url.range(of: "://") else {
                throw HTTPMockError(.invalidDefinition, "\(place): \"\(url)\" must start with \"://\" followed by the host (\"://api.example.com/path\")")
            }
            let rest = url[range.upperBound...]
            // What URLComponents would accept but no request can ever have: the entry could never match.
            if let bad = rest.unicodeScalars.first(where: { $0.value <= 0x20 || $0.value == 0x7F || !$0.isASCII && $0.properties.isWhitespace }) {
                throw HTTPMockError(.invalidDefinition, "\(place): \"\(url)\" contains \(String(reflecting: String(bad))), which no request URL has; percent-encode it (a space is %20)")
            }
            if let escape = Self.invalidPercentEscape(in: rest) {
                throw HTTPMockError(.invalidDefinition, "\(place): \"\(url)\" contains \"\(escape)\", which is not a percent escape (\"%\" and two hex digits); write a literal \"%\" as %25")
            }
            guard let components = URLComponents(string: "mock" + url[range.lowerBound...]),
                  let host = components.host, !host.isEmpty else {
                throw HTTPMockError(.invalidDefinition, "\(place): \"\(url)\" is not a URL with a host (\"://api.example.com/path\")")
            }
            if let port = components.port, !(1...65535).contains(port) {
                throw HTTPMockError(.invalidDefinition, "\(place): \"\(url)\" has port \(port), which is not a port number (1-65535)")
            }
            self.host = HostGlob(literalHost: host, port: components.port)
            path = PathGlob(literalSegments: PathNormalization.segments(ofEncodedPath: components.percentEncodedPath))
            var query: [String: [String?]] = [:]
            for item in QueryItem.parse(rawQuery: components.percentEncodedQuery) { query[item.name, default: []].append(item.value) }
            self.query = query.mapValues { values in
                values == [nil] ? .flag : .values(values.map { $0 ?? "" })
            }
        }

        /// The first `%` not followed by two hex digits (`%zz`), with what follows it.
        static func invalidPercentEscape(in text: Substring) -> String? {
            let scalars = Array(text.unicodeScalars)
            for (index, scalar) in scalars.enumerated() where scalar == "%" {
                let digits = scalars[(index + 1)..<min(index + 3, scalars.count)]
                if digits.count < 2 || !digits.allSatisfy({ $0.properties.isASCIIHexDigit }) {
                    var shown = String.UnicodeScalarView()
                    shown.append(contentsOf: scalars[index..<min(index + 3, scalars.count)])
                    return String(shown)
                }
            }
            return nil
        }
    }
}
