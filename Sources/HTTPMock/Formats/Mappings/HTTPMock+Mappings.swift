import Foundation

extension HTTPMock {
    /// Registers the mocks described by the mapping files in `location`: every `*.mock.json` file in the folder
    /// and its subfolders (in path order), or the one mapping file `location` names. The format is described in
    /// <doc:FileFormatsReference>.
    ///
    /// ```swift
    /// let mock = HTTPMock()
    /// let demo = try mock.loadMappings(from: Bundle.main.url(forResource: "DemoMocks", withExtension: nil)!)
    /// // …
    /// demo.remove()
    /// ```
    ///
    /// All or nothing: the first problem (malformed JSON, an unknown key, an invalid pattern, a missing body file, a
    /// path that leaves the folder) is thrown, naming the file and where in it, and nothing is registered.
    ///
    /// - Returns: a handle whose ``LoadedMocks/remove()`` removes exactly what this call registered.
    @discardableResult
    public func loadMappings(from location: URL) throws(HTTPMockError) -> LoadedMocks {
        let definitions = try MappingFolder.definitions(at: location, limits: sizeLimits)
        return try core.engine.load(definitions, source: location.path, slot: nil)
    }
}
