extension HTTPMock {
    /// Registers hosts, paths and their responses, written as a tree.
    ///
    /// ```swift
    /// HTTPMock.shared.registerResponses {
    ///     Host("api.example.com") {
    ///         Path("/user") {
    ///             MockResponse.encodable(User(id: 1, name: "Alice"))
    ///             MockResponse.empty(status: .notFound)
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// All or nothing: if any pattern or response is invalid, nothing is registered and the error is reported
    /// (see ``registrationErrors``). ``register(_:)`` does the same but throws. `fileID`, `filePath`, `line` and
    /// `column` say where a refusal is reported as a test failure (by HTTPMockTesting); leave the defaults.
    public func registerResponses(
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        @RegistrationBuilder _ content: () -> [Host]
    ) {
        let hosts = content()
        reportingRefusal(at: RegistrationSite(fileID: fileID, filePath: filePath, line: line, column: column)) { () throws(HTTPMockError) in
            try register(hosts)
        }
    }

    /// Registers hosts, paths and their responses, throwing the first problem; on a problem nothing is registered.
    public func register(@RegistrationBuilder _ content: () -> [Host]) throws(HTTPMockError) {
        try register(content())
    }

    private func register(_ hosts: [Host]) throws(HTTPMockError) {
        var definitions: [Engine.Definition] = []
        for host in hosts {
            let hostPattern = try host.pattern.map { pattern throws(HTTPMockError) in
                try compile { () throws(GlobError) in try HostGlob(pattern) }
            }
            let scope = HeaderScope(inherited: [:], declared: host.content.compactMap {
                if case .headers(let headers) = $0.kind { return headers }
                return nil
            })
            let matchers = host.content.compactMap { item -> Match? in
                if case .match(let match) = item.kind { return match }
                return nil
            }
            for item in host.content {
                switch item.kind {
                case .path(let path):
                    guard let hostPattern else { continue }
                    // The host's own paths get all its headers; their nested paths only the cascading ones.
                    try collect(path, parentPath: "", parentMethod: nil, parentMatchers: matchers, host: hostPattern,
                                inherited: scope.local, cascaded: scope.cascaded, into: &definitions)
                case .route(let route):
                    let compiled = try CompiledMatchers(matchers + route.matchers, host: hostPattern)
                    guard !route.responses.isEmpty else {
                        throw HTTPMockError(.invalidResponse, "response: the route [\(Self.describe(route.matchers))] has no responses; give at least one")
                    }
                    if hostPattern == nil, route.matchers.isEmpty {
                        throw HTTPMockError(.invalidPattern, "a Route outside any Host needs at least one matcher; to answer any request, say so with .path(\"/**\")")
                    }
                    definitions.append(Engine.Definition(
                        host: compiled.host, path: compiled.path, conditions: compiled.conditions,
                        responses: route.responses.map { $0.inheriting(scope.local) }
                    ))
                case .headers, .match:
                    continue
                }
            }
        }
        try core.engine.register(definitions)
    }

    private func collect(
        _ path: Path, parentPath: String, parentMethod: HTTPMethod?, parentMatchers: [Match], host: HostGlob,
        inherited: [String: String], cascaded: [String: String], into definitions: inout [Engine.Definition]
    ) throws(HTTPMockError) {
        let fullPath = PathNormalization.join(parentPath, path.pattern)
        let (pattern, templateConditions): (PathGlob, [Condition])
        do {
            (pattern, templateConditions) = try PathRoute.compile(fullPath)
        } catch {
            // Name what the user wrote when the part alone is wrong; compiled only on failure, not for every path.
            _ = try PathRoute.compile(path.pattern)
            throw error
        }
        let method = path.method ?? parentMethod
        let scope = HeaderScope(inherited: inherited, cascaded: cascaded, declared: path.content.compactMap {
            if case .headers(let headers) = $0.kind { return headers }
            return nil
        })
        let matchers = parentMatchers + path.content.compactMap { item -> Match? in
            if case .match(let match) = item.kind { return match }
            return nil
        }
        let responses = path.content.compactMap { item -> MockResponse? in
            if case .response(let response) = item.kind { return response.inheriting(scope.local) }
            return nil
        }
        if !responses.isEmpty {
            let compiled = try CompiledMatchers(matchers, host: host, path: pattern)
            definitions.append(Engine.Definition(
                host: compiled.host, path: compiled.path,
                conditions: Self.conditions(method: method, query: path.query, matching: path.matching)
                    + templateConditions + compiled.conditions,
                responses: responses
            ))
        }
        for case .path(let child) in path.content.map(\.kind) {
            try collect(child, parentPath: fullPath, parentMethod: method, parentMatchers: matchers, host: host,
                        inherited: scope.cascaded, cascaded: scope.cascaded, into: &definitions)
        }
    }
}

/// The headers in force in one scope of the DSL.
///
/// A scope's responses get every `Headers` of the scope; the scopes directly inside a ``Host`` (its paths and
/// routes) get all of the host's; deeper scopes get only what cascades.
private struct HeaderScope {
    /// For this scope's own responses (and, in a host, for its paths and routes): inherited, then every
    /// `Headers` of the scope in order.
    let local: [String: String]
    /// For nested scopes: what cascaded into this scope, then its cascading `Headers` in order.
    let cascaded: [String: String]

    /// - Parameters:
    ///   - inherited: What this scope's responses get from the enclosing scope.
    ///   - cascaded: What the enclosing scope passes on to scopes nested deeper than this one.
    init(inherited: [String: String], cascaded inheritedCascade: [String: String]? = nil, declared: [Headers]) {
        var local = inherited
        var cascaded = inheritedCascade ?? inherited
        for headers in declared {
            local.merge(headers.values) { _, new in new }
            if headers.cascade { cascaded.merge(headers.values) { _, new in new } }
        }
        self.local = local
        self.cascaded = cascaded
    }
}
