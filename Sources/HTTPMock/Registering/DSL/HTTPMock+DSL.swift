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
    /// (see ``registrationErrors``). ``register(_:)`` does the same but throws.
    public func registerResponses(@RegistrationBuilder _ content: () -> [Host]) {
        let hosts = content()
        reportingRefusal { () throws(HTTPMockError) in try register(hosts) }
    }

    /// Registers hosts, paths and their responses, throwing the first problem; on a problem nothing is registered.
    public func register(@RegistrationBuilder _ content: () -> [Host]) throws(HTTPMockError) {
        try register(content())
    }

    private func register(_ hosts: [Host]) throws(HTTPMockError) {
        var definitions: [Engine.Definition] = []
        for host in hosts {
            let hostPattern = try compile { () throws(PatternError) in try HostPattern(host.pattern) }
            let scope = HeaderScope(inherited: [:], declared: host.content.compactMap {
                if case .headers(let headers) = $0.kind { return headers }
                return nil
            })
            for case .path(let path) in host.content.map(\.kind) {
                try collect(path, parentPath: "", parentMethod: nil, host: hostPattern, cascaded: scope.cascaded, into: &definitions)
            }
        }
        try core.engine.register(definitions)
    }

    private func collect(
        _ path: Path, parentPath: String, parentMethod: HTTPMethod?, host: HostPattern,
        cascaded: [String: String], into definitions: inout [Engine.Definition]
    ) throws(HTTPMockError) {
        let fullPath = PathNormalization.join(parentPath, path.pattern)
        let pattern = try compile { () throws(PatternError) in
            // Compile the parts as written, so the error names what the user wrote.
            _ = try PathPattern(path.pattern)
            return try PathPattern(fullPath)
        }
        let method = path.method ?? parentMethod
        let scope = HeaderScope(inherited: cascaded, declared: path.content.compactMap {
            if case .headers(let headers) = $0.kind { return headers }
            return nil
        })
        let responses = path.content.compactMap { item -> MockResponse? in
            if case .response(let response) = item.kind { return response.inheriting(scope.local) }
            return nil
        }
        if !responses.isEmpty {
            definitions.append(Engine.Definition(
                host: host, path: pattern,
                conditions: Self.conditions(method: method, query: path.query, matching: path.matching),
                responses: responses
            ))
        }
        for case .path(let child) in path.content.map(\.kind) {
            try collect(child, parentPath: fullPath, parentMethod: method, host: host, cascaded: scope.cascaded, into: &definitions)
        }
    }
}

/// The headers in force in one scope of the DSL.
private struct HeaderScope {
    /// For this scope's own responses: inherited, then every `Headers` of the scope in order.
    let local: [String: String]
    /// For nested scopes: inherited, then the cascading `Headers` of the scope in order.
    let cascaded: [String: String]

    init(inherited: [String: String], declared: [Headers]) {
        var local = inherited
        var cascaded = inherited
        for headers in declared {
            local.merge(headers.values) { _, new in new }
            if headers.cascade { cascaded.merge(headers.values) { _, new in new } }
        }
        self.local = local
        self.cascaded = cascaded
    }
}
