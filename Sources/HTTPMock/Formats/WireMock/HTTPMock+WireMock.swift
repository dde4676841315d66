import Foundation

extension HTTPMock {
    /// Registers the stubs of a WireMock folder, read as WireMock writes it: every `mappings/**/*.json` file (one
    /// mapping, or `{"mappings": […]}`), with body files under `__files/`, and the message stub mappings of
    /// `message-mappings/**/*.json` (WebSocket messages, see HTTPMockServer's article "WebSockets"). `location` is the root folder, the
    /// `mappings` folder itself, or one mapping file. What each field does here is listed in <doc:WireMockFiles>.
    ///
    /// ```swift
    /// let mock = HTTPMock()
    /// let stubs = try mock.loadWireMockMappings(from: URL(fileURLWithPath: "src/test/resources/wiremock"))
    /// // …
    /// stubs.remove()
    /// ```
    ///
    /// All or nothing: when any file or mapping has a problem (malformed JSON, an unknown or unsupported field, an
    /// invalid regular expression, a body file outside `__files`), one error lists every problem of the folder, each
    /// naming the file, the mapping and the key, and nothing is registered. A body file not there yet is read when a
    /// request comes, as WireMock reads it (`500` naming it until it is there). Files may hold comments, single quotes
    /// and trailing commas, as WireMock's parser allows.
    ///
    /// - Parameters:
    ///   - location: The WireMock root folder, its `mappings` folder, or a mapping file.
    ///   - globalTemplating: Renders every response as a template, as WireMock's `--global-response-templating`
    ///     does; otherwise only responses whose `transformers` list `response-template` are.
    ///   - ranking: Which of two matching mappings of the same `priority` answers: the more specific (the default,
    ///     as for every stub), or the most recently added, as WireMock ranks them.
    /// - Returns: a handle whose ``LoadedMocks/remove()`` removes exactly what this call registered.
    @discardableResult
    public func loadWireMockMappings(from location: URL, globalTemplating: Bool = false,
                                     ranking: WireMockRanking = .specificity) throws(HTTPMockError) -> LoadedMocks {
        let prepared = try prepareWireMockMappings(from: location, globalTemplating: globalTemplating, ranking: ranking)
        var loaded = try core.engine.load(prepared.definitions, source: prepared.source, slot: nil)
        guard !prepared.messageStubs.isEmpty else { return loaded }
        let slot = "message-mappings:\(UUID.random().uuidString)"
        do {
            try core.engine.messaging.register(prepared.messageStubs, slot: slot)
        } catch {
            loaded.remove()
            throw error
        }
        loaded.messageSlot = slot
        return loaded
    }

    /// Registers `mappings` (WireMock's admin API), their `bodyFileName`s read from `filesFolder`. All or nothing.
    package func register(_ mappings: [WireMockStubMapping], filesFolder: URL?) throws(HTTPMockError) -> LoadedMocks {
        let prepared = try prepare(mappings, filesFolder: filesFolder)
        return try core.engine.load(prepared.definitions, source: prepared.source, slot: nil)
    }

    /// Checks `mappings` against `filesFolder` as ``register(_:filesFolder:)`` does, without registering them, so
    /// that ``register(_:slot:)`` can put them in place of what a slot held, in one step.
    package func prepare(_ mappings: [WireMockStubMapping], filesFolder: URL?,
                         ranking: WireMockRanking = .specificity) throws(HTTPMockError) -> PreparedMocks {
        var problems: [HTTPMockError] = []
        let prepared = prepare(mappings, filesFolder: filesFolder, globalTemplating: false, ranking: ranking,
                               source: filesFolder?.path ?? "WireMock mappings", problems: &problems)
        if let problem = HTTPMockError(every: problems, in: prepared.source) { throw problem }
        return prepared
    }

    /// The one translation of mappings into stubs, for loads and for the admin API: the stubs of the mappings that
    /// translate, and a problem in `problems` for each that does not.
    func prepare(_ mappings: [WireMockStubMapping], filesFolder: URL?, globalTemplating: Bool, ranking: WireMockRanking,
                 source: String, problems: inout [HTTPMockError]) -> PreparedMocks {
        var translation = WireMockTranslation(filesFolder: filesFolder, limits: sizeLimits, globalTemplating: globalTemplating,
                                              ranking: ranking, proxyHosts: allowedProxyHosts)
        translation.definitions.reserveCapacity(mappings.count)
        for mapping in mappings { translation.add(mapping, problems: &problems) }
        return PreparedMocks(source: source, definitions: translation.definitions)
    }
}

/// Mappings translated into stubs one at a time, their `bodyFileName`s read from one `__files` folder.
struct WireMockTranslation {
    private let files: WireMockResponse.Files
    private let globalTemplating: Bool
    private let ranking: WireMockRanking
    private let proxyHosts: Set<String>
    var definitions: [Engine.Definition] = []

    init(filesFolder: URL?, limits: FileSizeLimits, globalTemplating: Bool, ranking: WireMockRanking, proxyHosts: Set<String>) {
        self.ranking = ranking
        self.proxyHosts = Set(proxyHosts.map { $0.lowercased() })
        if let filesFolder, LocalFile.kind(at: filesFolder.path) == .directory {
            files = .folder(FolderPath(root: filesFolder, limits: limits))
        } else {
            files = .none
        }
        self.globalTemplating = globalTemplating
    }

    /// Adds the stub of `mapping`, or a problem naming why it has none.
    mutating func add(_ mapping: WireMockStubMapping, problems: inout [HTTPMockError]) {
        do {
            var definition = try mapping.definition(files: files, globalTemplating: globalTemplating, proxyHosts: proxyHosts)
            if ranking == .mostRecentlyAdded { definition.conditions.append(.wireMockOrder) }
            definitions.append(definition)
        } catch {
            problems.append(error)
        }
    }
}
