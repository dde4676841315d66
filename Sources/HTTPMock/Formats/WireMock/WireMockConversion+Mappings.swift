import Foundation

extension WireMockConversion {
    /// HTTPMock's own mapping files (a folder of `*.mock.json`, or one such file) as WireMock mappings that answer the
    /// same requests the same way: every file is read and checked as ``HTTPMock/loadMappings(from:)`` reads it, and
    /// every problem of every file is reported before anything is written.
    ///
    /// - Each mock gets a `priority` that keeps HTTPMock's order among mocks that match the same request (the most
    ///   specific first), so the folder answers alike under HTTPMock's ranking and WireMock's.
    /// - A mock with several responses becomes a scenario: one mapping per answer, each moving to the next state
    ///   (`times: 3` is three of them); the last answer repeats unless it has a count.
    /// - Templates become WireMock's (`{{path.id}}` is `{{request.path.id}}`); body files are copied into `__files`.
    ///
    /// What WireMock cannot say is written as close as it can be and named in ``Outcome/notes``: an exact query on a
    /// path with wildcards matches these parameters and others too, a failure other than a dropped connection is a
    /// dropped connection, streamed parts are one body dribbled out over the same time.
    package static func convertMappings(at location: URL, into root: URL) throws(HTTPMockError) -> Outcome {
        let mocks = try readMappings(at: location)
        let mappingsFolder = root.appendingPathComponent("mappings", isDirectory: true)
        let filesFolder = root.appendingPathComponent("__files", isDirectory: true)
        for folder in [mappingsFolder, filesFolder] { try MappingWriter.refuseLinkOut(folder, folder: root) }
        // HTTPMock's order among mocks that match one request, as priorities 1, 2, 3… (the most specific first).
        let ranked = mocks.indices.sorted { mocks[$0].specificity > mocks[$1].specificity }
        var outcome = Outcome()
        var written: [(name: String, data: Data)] = []
        var bodyFiles: [(name: String, data: Data)] = []
        var problems: [HTTPMockError] = []
        for (rank, index) in ranked.enumerated() {
            do throws(HTTPMockError) {
                var writer = try MappingTranslation(mock: mocks[index], priority: rank + 1)
                try writer.translate()
                written += writer.mappings
                bodyFiles += writer.files
                outcome.notes += writer.notes.map { "\(mocks[index].place): \($0)" }
            } catch {
                problems.append(error)
            }
        }
        if let problem = HTTPMockError(every: problems, in: location.path) { throw problem }
        for file in bodyFiles { try FileOutput.write(file.data, to: filesFolder.appendingPathComponent(file.name)) }
        for mapping in written { try FileOutput.write(mapping.data, to: mappingsFolder.appendingPathComponent(mapping.name)) }
        outcome.mappings += written.count
        outcome.files += bodyFiles.count
        outcome.notes.sort()
        return outcome
    }

    /// One mock of a mapping file, read and checked, with what it needs to be written again.
    struct LoadedMock {
        let mock: MappingFile.Mock
        /// The file's own host, for a mock that names none.
        let fileHost: String?
        /// `file.mock.json at mocks[2]`, for messages.
        let place: String
        /// `file.mock.json "name"`, the mapping's name.
        let name: String
        /// The folder the mapping file is in (its body files are found from there).
        let folder: URL
        let files: FolderPath
        let definition: Engine.Definition
        let specificity: Specificity
    }

    /// Every mock of every mapping file at `location`, in the order ``HTTPMock/loadMappings(from:)`` registers them;
    /// every problem of every file in one error.
    private static func readMappings(at location: URL) throws(HTTPMockError) -> [LoadedMock] {
        let location = location.standardizedFileURL
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: location.path, isDirectory: &isFolder) else {
            throw HTTPMockError(.missingFile, "mappings: nothing at \(location.path)")
        }
        let root = isFolder.boolValue ? location : location.deletingLastPathComponent()
        let list = isFolder.boolValue ? MappingFolder.mappingFiles(in: location) : [location]
        if list.isEmpty {
            throw HTTPMockError(.missingFile, "mappings: no \"*\(MappingFolder.suffix)\" file in \(location.path)")
        }
        let files = FolderPath(root: root)
        var mocks: [LoadedMock] = []
        var problems: [HTTPMockError] = []
        for file in list {
            let name = MappingFolder.relativePath(of: file, in: root)
            do throws(HTTPMockError) {
                let checked = try files.file(name, place: name)
                let mapping = try DefinitionFile.decode(MappingFile.self, from: checked, name: name, limit: files.limits.definitions)
                let definitions = try mapping.definitions(folder: file.deletingLastPathComponent(), files: files, name: name)
                for (index, (mock, definition)) in zip(mapping.mocks, definitions).enumerated() {
                    // As the engine ranks the stub it registers.
                    let specificity = Specificity(host: definition.host, path: definition.path, conditions: definition.conditions,
                                                  id: StubID(rawValue: mocks.count))
                    mocks.append(LoadedMock(mock: mock, fileHost: mapping.host, place: "\(name) at mocks[\(index)]",
                                            name: mock.name.map { "\(name) \"\($0)\"" } ?? "\(name) mocks[\(index)]",
                                            folder: file.deletingLastPathComponent(), files: files,
                                            definition: definition, specificity: specificity))
                }
            } catch {
                problems.append(error)
            }
        }
        if let problem = HTTPMockError(every: problems, in: location.path) { throw problem }
        return mocks
    }
}
