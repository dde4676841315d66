import Foundation

/// Stubs made from a description of an API (HTTPMockOpenAPI's OpenAPI documents), registered below every other stub
/// of the mock: a stub registered in code, or loaded from files, answers first whenever it matches. `package`: the
/// faces that read such documents build on it; no part of the public API.
package struct DocumentStub: Sendable {
    /// The request's matchers (a method, a URI template, a host…).
    package var matchers: [Match]
    /// Its one response, usually ``MockResponse/dynamic(lifetime:delivery:_:)`` with an eternal lifetime.
    package var response: MockResponse
    /// Among a document's stubs, which answers first when several match: higher first (a document's operations
    /// rank above its catch-all for paths it does not list).
    package var rank: Int

    package init(matchers: [Match], response: MockResponse, rank: Int = 0) {
        self.matchers = matchers
        self.response = response
        self.rank = rank
    }
}

extension HTTPMock {
    /// Reads `stubs` into stubs ranked below every stub registered in code or loaded from other files, without
    /// registering them: a tool that reloads a document puts them in place with ``register(_:slot:)``.
    ///
    /// Every matcher that does not compile is reported in one error, naming `source` and the stub.
    package func prepareDocumentStubs(_ stubs: [DocumentStub], source: String) throws(HTTPMockError) -> PreparedMocks {
        var problems: [HTTPMockError] = []
        var definitions: [Engine.Definition] = []
        definitions.reserveCapacity(stubs.count)
        for stub in stubs {
            do {
                let compiled = try CompiledMatchers(stub.matchers)
                definitions.append(Engine.Definition(
                    host: compiled.host, path: compiled.path,
                    conditions: compiled.conditions + [.describedBy(source, rank: stub.rank)],
                    responses: [stub.response]))
            } catch {
                problems.append(HTTPMockError(error.code, "[\(Self.describe(stub.matchers))]: \(error.message)"))
            }
        }
        if let problem = HTTPMockError(every: problems, in: source) { throw problem }
        return PreparedMocks(source: source, definitions: definitions)
    }

    /// Registers what ``prepareDocumentStubs(_:source:)`` read, all or nothing.
    package func load(_ prepared: PreparedMocks) throws(HTTPMockError) -> LoadedMocks {
        try core.engine.load(prepared.definitions, source: prepared.source, slot: nil)
    }
}

extension Condition {
    /// Ranks a stub made from an API description below every other stub (WireMock's lowest priorities included),
    /// and `rank` among the description's own. It tests nothing and weighs nothing; it names the description in
    /// reports and keeps the stub apart from stubs registered in code (a `nil` key).
    static func describedBy(_ source: String, rank: Int) -> Condition {
        Condition(key: nil, weight: 0, summary: "from \(source)", precedence: -1_000_000_000 + rank) { _ in true }
    }
}
