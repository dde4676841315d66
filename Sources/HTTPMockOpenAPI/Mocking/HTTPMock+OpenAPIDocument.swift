#if OpenAPI
import Foundation
import HTTPMock

extension HTTPMock {
    /// Serves every operation of an OpenAPI document, as Prism's `prism mock` does: each request to one of its paths
    /// gets the operation's first success response, its example (`example`, or the first of `examples`) or a body
    /// made from its schema; `Prefer: code=404` and `Prefer: example=NAME` pick another.
    ///
    /// ```swift
    /// let mock = HTTPMock()
    /// let api = try mock.loadOpenAPIDocument(from: URL(fileURLWithPath: "Sources/App/openapi.yaml"))
    /// // GET https://api.example.com/v1/pets/7 → 200 with the example of GET /pets/{petId}
    /// try mock.stub(.method(.get), .uriTemplate("https://api.example.com/v1/pets/{petId}"),
    ///               responses: [.dictionary(["id": 7, "name": "Rex"])])   // this one wins over the document
    /// ```
    ///
    /// A request that breaks the document gets, as from Prism, an `application/problem+json` answer listing every
    /// violation: `404` for a path it does not list (under a server's host or base path), `405` for a method the
    /// path does not have, `422` for a missing or mistyped parameter or a body that does not match its schema.
    /// HTTPMockTesting reports such a request at the end of the test, as it reports one no stub answered.
    ///
    /// Stubs registered in code, or loaded from files, always win over the document's: its stubs rank below every
    /// other. Stubs of a document serve for ever (they are never reported unused).
    ///
    /// - Throws: `HTTPMockError` listing every problem of the document at once (see
    ///   ``OpenAPIDocument/init(contentsOf:)``); nothing is registered then.
    @discardableResult
    public func loadOpenAPIDocument(from url: URL, options: OpenAPIMockOptions = OpenAPIMockOptions()) throws(HTTPMockError) -> LoadedOpenAPIDocument {
        try loadOpenAPIDocument(OpenAPIDocument(contentsOf: url), options: options)
    }

    /// Serves a document already read, as ``loadOpenAPIDocument(from:options:)`` does.
    @discardableResult
    public func loadOpenAPIDocument(_ document: OpenAPIDocument, options: OpenAPIMockOptions = OpenAPIMockOptions()) throws(HTTPMockError) -> LoadedOpenAPIDocument {
        let prepared = try prepareOpenAPIDocument(document, options: options)
        return LoadedOpenAPIDocument(document: document, mocks: try load(prepared))
    }

    /// The stubs of ``loadOpenAPIDocument(_:options:)``, read but not registered: a tool that reloads the document
    /// puts them in place with `register(_:slot:)`.
    package func prepareOpenAPIDocument(_ document: OpenAPIDocument, options: OpenAPIMockOptions = OpenAPIMockOptions()) throws(HTTPMockError) -> PreparedMocks {
        try prepareDocumentStubs(document.stubs(options: options), source: document.source.lastPathComponent)
    }
}

extension OpenAPIDocument {
    /// Ranks among a document's stubs: an operation, then a path's other methods (405), then anything else under
    /// a server (404).
    private enum Rank {
        static let operation = 2
        static let otherMethod = 1
        static let otherPath = 0
    }

    /// Where the operations are served: a URL prefix (`https://api.example.com/v1`, or `/v1` for any host).
    func bases(options: OpenAPIMockOptions) -> [String] {
        if let url = options.serverURL { return [Self.trimmed(url.absoluteString)] }
        if servers.isEmpty { return [""] }
        var bases: [String] = []
        for server in servers {
            let base = Self.trimmed(server)
            if !bases.contains(base) { bases.append(base) }
        }
        return bases
    }

    private static func trimmed(_ text: String) -> String {
        var text = text
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    func stubs(options: OpenAPIMockOptions) -> [DocumentStub] {
        var stubs: [DocumentStub] = []
        let forever = MockResponse.Lifetime.eternal
        for base in bases(options: options) {
            var paths: [String] = []
            for contract in contracts where !paths.contains(contract.operation.path) { paths.append(contract.operation.path) }
            for path in paths {
                let (template, variables) = Self.uriTemplate(base: base, path: path)
                // A path glob where the path allows (no regular expression runs for each request), else the template.
                let glob = Self.glob(base: base, path: path)
                let route: [Match] = glob?.matches ?? [.uriTemplate(template)]
                let operations = contracts.filter { $0.operation.path == path }
                for contract in operations {
                    let responder = {
                        var responder = DocumentResponder(contract: contract, variables: glob == nil ? variables : [:], root: bundle.root,
                                                          options: options)
                        responder.segments = glob?.variables ?? []
                        return responder
                    }()
                    stubs.append(DocumentStub(
                        matchers: [.method(HTTPMethod(contract.operation.method))] + route,
                        // Built where the request is decided: the responder is this package's code, bounded and quick.
                        response: MockResponse.dynamic(lifetime: forever) { request, captures in
                            responder.answer(request, captures: captures)
                        }.builtInPlace(),
                        rank: Rank.operation))
                }
                let allowed = operations.map(\.operation.method).joined(separator: ", ")
                let refusal = DocumentResponder.problem(
                    status: 405, title: "Method not allowed",
                    detail: "\(path) has no such operation in the OpenAPI document; it has \(allowed).",
                    violations: [ContractViolation(operation: nil, place: "method", rule: "method", message: "\(path) takes \(allowed)")],
                    extraHeaders: ["Allow": allowed])
                stubs.append(DocumentStub(matchers: route, response: refusal.lasting(forever), rank: Rank.otherMethod))
            }
            // Anything else under the server's base is a path the document does not list; at the root of any host
            // only when told to serve there (as `httpmock serve` does), so that a document without servers does not
            // answer every other request of the mock.
            let url = URL(string: base)
            let host = url?.host.flatMap { $0.isEmpty ? nil : $0 }
            let basePath = host == nil ? base : (url?.path ?? "")
            guard host != nil || !basePath.isEmpty || options.serverURL != nil else { continue }
            let notFound = DocumentResponder.problem(
                status: 404, title: "Not found",
                detail: "The OpenAPI document lists no path that this request's path matches under \(base.isEmpty ? "/" : base).",
                violations: [ContractViolation(operation: nil, place: "path", rule: "path", message: "no path of the document matches")])
            var matchers: [Match] = [.path(basePath + "/**")]
            if let host, let port = url?.port { matchers.append(.host("\(host):\(port)")) } else if let host { matchers.append(.host(host)) }
            stubs.append(DocumentStub(matchers: matchers, response: notFound.lasting(forever), rank: Rank.otherPath))
        }
        return stubs
    }

    /// `path` under `base` as a host and a path glob (`/v1/pets/*`), with where each variable is: `nil` when a
    /// segment holds two variables, or the path has what a glob cannot say (then a URI template matches it).
    static func glob(base: String, path: String) -> (matches: [Match], variables: [DocumentResponder.PathVariable])? {
        var matches: [Match] = []
        var basePath = base
        if let url = URL(string: base), let host = url.host, !host.isEmpty {
            matches.append(.host(url.port.map { "\(host):\($0)" } ?? host))
            basePath = url.path
        }
        let full = basePath + path
        guard !full.contains("*"), !full.contains("?"), !full.contains("#"), !full.contains("%") else { return nil }
        var globSegments: [String] = []
        var variables: [DocumentResponder.PathVariable] = []
        for (index, segment) in full.split(separator: "/", omittingEmptySubsequences: true).enumerated() {
            guard let open = segment.firstIndex(of: "{") else {
                if segment.contains("}") { return nil }
                globSegments.append(String(segment))
                continue
            }
            guard let close = segment[open...].firstIndex(of: "}"), !segment[segment.index(after: close)...].contains("{"),
                  !segment[..<open].contains("}") else { return nil }
            let name = String(segment[segment.index(after: open)..<close])
            let prefix = String(segment[..<open]), suffix = String(segment[segment.index(after: close)...])
            variables.append(DocumentResponder.PathVariable(index: index, name: name, prefix: prefix, suffix: suffix))
            globSegments.append(prefix + "*" + suffix)
        }
        matches.append(.path("/" + globSegments.joined(separator: "/")))
        return (matches, variables)
    }

    /// A URI template for `path` under `base`, its variables renamed `v0`, `v1`… (OpenAPI allows names, such as
    /// `pet-id`, that URI templates do not), with what each stands for.
    static func uriTemplate(base: String, path: String) -> (String, [String: String]) {
        var template = base
        var variables: [String: String] = [:]
        var rest = Substring(path)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            template += rest[..<open]
            let name = "v\(variables.count)"
            variables[name] = String(rest[rest.index(after: open)..<close])
            template += "{\(name)}"
            rest = rest[rest.index(after: close)...]
        }
        template += rest
        if template.isEmpty { template = "/" }
        return (template, variables)
    }
}

extension MockResponse {
    /// The same response with another lifetime.
    func lasting(_ lifetime: MockResponse.Lifetime) -> MockResponse {
        var copy = self
        copy.lifetime = lifetime
        return copy
    }
}
#endif
