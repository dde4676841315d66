import Foundation

extension HTTPMock {
    /// Registers the stubs of a WireMock folder, read as WireMock writes it: every `mappings/**/*.json` file (one
    /// mapping, or `{"mappings": […]}`), with body files under `__files/`. `location` is the root folder, the
    /// `mappings` folder itself, or one mapping file. What each field does here is listed in <doc:WireMockFiles>.
    ///
    /// ```swift
    /// let mock = HTTPMock()
    /// let stubs = try mock.loadWireMockMappings(from: URL(fileURLWithPath: "src/test/resources/wiremock"))
    /// // …
    /// stubs.remove()
    /// ```
    ///
    /// All or nothing: the first problem (malformed JSON, an unknown or unsupported field, an invalid regular
    /// expression, a body file that is missing or outside `__files`) is thrown, naming the file, the mapping and
    /// the key, and nothing is registered.
    ///
    /// - Parameters:
    ///   - location: The WireMock root folder, its `mappings` folder, or a mapping file.
    ///   - globalTemplating: Renders every response as a template, as WireMock's `--global-response-templating`
    ///     does; otherwise only responses whose `transformers` list `response-template` are.
    /// - Returns: a handle whose ``LoadedMocks/remove()`` removes exactly what this call registered.
    @discardableResult
    public func loadWireMockMappings(from location: URL, globalTemplating: Bool = false) throws(HTTPMockError) -> LoadedMocks {
        let prepared = try prepareWireMockMappings(from: location, globalTemplating: globalTemplating)
        return try core.engine.load(prepared.definitions, source: prepared.source, slot: nil)
    }

    /// Registers `mappings` (WireMock's admin API), their `bodyFileName`s read from `filesFolder`. All or nothing.
    package func register(_ mappings: [WireMockStubMapping], filesFolder: URL?) throws(HTTPMockError) -> LoadedMocks {
        let prepared = try prepare(mappings, filesFolder: filesFolder)
        return try core.engine.load(prepared.definitions, source: prepared.source, slot: nil)
    }

    /// Checks `mappings` against `filesFolder` as ``register(_:filesFolder:)`` does, without registering them, so
    /// that ``register(_:slot:)`` can put them in place of what a slot held, in one step.
    package func prepare(_ mappings: [WireMockStubMapping], filesFolder: URL?) throws(HTTPMockError) -> PreparedMocks {
        try prepare(mappings, filesFolder: filesFolder, globalTemplating: false, source: filesFolder?.path ?? "WireMock mappings")
    }

    /// The one translation of mappings into stubs, for loads and for the admin API.
    func prepare(_ mappings: [WireMockStubMapping], filesFolder: URL?, globalTemplating: Bool,
                 source: String) throws(HTTPMockError) -> PreparedMocks {
        let files: WireMockResponse.Files
        if let filesFolder, LocalFile.kind(at: filesFolder.path) == .directory {
            files = .folder(FolderPath(root: filesFolder, limits: sizeLimits))
        } else {
            files = .none
        }
        var definitions: [Engine.Definition] = []
        definitions.reserveCapacity(mappings.count)
        for mapping in mappings {
            definitions.append(try mapping.definition(files: files, globalTemplating: globalTemplating))
        }
        return PreparedMocks(source: source, definitions: definitions)
    }
}
