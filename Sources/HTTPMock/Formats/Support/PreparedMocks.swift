import Foundation

/// The stubs of a file or folder, read and checked but not registered yet.
///
/// For tools that serve files and reload them (the `httpmock` command, another module of this package): they read
/// every source fully, then register them all in one step with ``HTTPMock/register(_:slot:)``, which replaces the
/// previous set in the same step, so a request sees the old set or the new one, never half of either. `package`:
/// no part of the public API.
package struct PreparedMocks {
    /// The file or folder read.
    package let source: String
    /// How many stubs registering it adds.
    package var stubCount: Int { definitions.count }

    let definitions: [Engine.Definition]
    /// What was left out, one problem each (a mapping that cannot be served), when the source was read skipping
    /// what is invalid.
    package var skipped: [HTTPMockError] = []
    /// For a WireMock folder: each mapping file (its standardized path) and how many of ``definitions`` it gave, in
    /// order, so that a tool can replace one file's stubs when it changes (``HTTPMock/replaceFile(_:with:slot:)``).
    package var files: [(path: String, count: Int)] = []
    /// For a WireMock folder: the message stubs of its `message-mappings/` folder.
    package var messageStubs: [MessageStub] = []
    /// How many message stubs registering it adds.
    package var messageStubCount: Int { messageStubs.count }
    /// For a large WireMock folder: ``definitions`` staged ahead while the folder was read, taken whole by a mock
    /// that has never held a stub (``HTTPMock/registerTrackingFiles(_:slot:)``).
    var staged: Engine.Staging?

    init(source: String, definitions: [Engine.Definition]) {
        self.source = source
        self.definitions = definitions
    }

    /// Nothing from `source` (a file that was deleted).
    package static func empty(source: String) -> PreparedMocks {
        PreparedMocks(source: source, definitions: [])
    }
}

extension HTTPMock {
    /// Reads mapping files as ``loadMappings(from:)`` does, without registering them.
    package func prepareMappings(from location: URL) throws(HTTPMockError) -> PreparedMocks {
        PreparedMocks(source: location.path, definitions: try MappingFolder.definitions(at: location, limits: sizeLimits))
    }

    /// Reads each mapping file of `folder` on its own (body files still resolve inside `folder`), so that a tool can
    /// skip the files that cannot be read and name them.
    package func prepareMappingFiles(in folder: URL) -> [(file: URL, result: Result<PreparedMocks, HTTPMockError>)] {
        MappingFolder.eachFile(in: folder, limits: sizeLimits).map { file, result in
            (file, result.map { PreparedMocks(source: file.path, definitions: $0) })
        }
    }

    /// Reads a Mockingbird bundle as ``loadMockingbirdBundle(at:queryMatching:)`` does, without registering it.
    package func prepareMockingbirdBundle(at folder: URL, queryMatching: QueryMatching = .exact) throws(HTTPMockError) -> PreparedMocks {
        let folder = folder.standardizedFileURL
        return PreparedMocks(source: folder.path, definitions: try MockingbirdBundle.definitions(
            in: folder, queryMatching: queryMatching, limits: sizeLimits))
    }

    /// Reads a HAR file as ``loadHAR(at:options:)`` does, without registering it.
    package func prepareHAR(at url: URL, options: HARReplayOptions = HARReplayOptions()) throws(HTTPMockError) -> PreparedMocks {
        let har = try DefinitionFile.decode(HAR.self, from: url, name: url.lastPathComponent, limit: sizeLimits.definitions)
        return PreparedMocks(source: url.path, definitions: try har.definitions(options: options, name: url.lastPathComponent))
    }

    /// Reads a WireMock folder as ``loadWireMockMappings(from:globalTemplating:ranking:)`` does, without registering it.
    /// Every problem of the folder is thrown in one error; with `skippingInvalid`, the mappings that have one are
    /// left out instead and named in ``PreparedMocks/skipped`` (a folder that cannot be read at all still throws).
    /// With `trackingFiles`, ``PreparedMocks/files`` says which stubs each file gave (for a tool that reloads one).
    /// `folder`: the WireMock root that `location`, one of its mapping files, belongs to (a tool reading again a file
    /// that changed): the file is held to the folder's rules, as when the folder is read whole, and refused when it
    /// leads out of the folder through a symbolic link (a file named on its own is read through one).
    /// With `staging`, a large folder's stubs are also indexed while it is read (``PreparedMocks/staged``), for
    /// ``registerTrackingFiles(_:slot:)`` into a mock that has never held a stub.
    package func prepareWireMockMappings(from location: URL, globalTemplating: Bool = false, ranking: WireMockRanking = .specificity,
                                         skippingInvalid: Bool = false, trackingFiles: Bool = false,
                                         inFolder folder: URL? = nil, staging: Bool = false) throws(HTTPMockError) -> PreparedMocks {
        let layout = try WireMockFolder.layout(of: location)
        if let folder, let single = layout.single {
            let root = folder.standardizedFileURL.path
            let name = single.path.hasPrefix(root + "/") ? String(single.path.dropFirst(root.count + 1)) : single.path
            _ = try FolderPath(root: folder, limits: sizeLimits).file(name, place: name)
        }
        let (limits, proxyHosts) = (sizeLimits, allowedProxyHosts)
        /// The files of positions `range`, read and translated in order: definitions, files, problems.
        @Sendable func part(_ range: Range<Int>) -> WireMockFolderPart {
            var problems: [HTTPMockError] = []
            var translation = WireMockTranslation(filesFolder: layout.bodies, limits: limits, globalTemplating: globalTemplating,
                                                  ranking: ranking, proxyHosts: proxyHosts)
            translation.definitions.reserveCapacity(range.count)
            var files: [(path: String, count: Int)] = []
            WireMockFolder.read(layout, files: range, limits: limits, problems: &problems) { _, path, mapping, problems in
                let before = translation.definitions.count
                translation.add(mapping, problems: &problems)
                guard trackingFiles, translation.definitions.count > before else { return }
                if files.last?.path == path { files[files.count - 1].count += 1 } else { files.append((path, 1)) }
            }
            return WireMockFolderPart(definitions: translation.definitions, files: files, problems: problems)
        }
        // A large folder is read on every core, in parts of a few dozen files that each core takes in turn as it
        // finishes the last (a core that is slowed down takes fewer), and the parts joined in file order: the
        // same stubs, files and problems, in the same order, as one pass gives.
        let count = layout.names.count
        let cores = count >= WireMockFolderPart.parallelFrom ? min(ProcessInfo.processInfo.activeProcessorCount, 8) : 1
        var parts: [WireMockFolderPart]
        var staged: Engine.Staging?
        if cores > 1 {
            let size = WireMockFolderPart.filesEach
            let taken = Locked((next: 0, parts: [WireMockFolderPart?](repeating: nil, count: (count + size - 1) / size),
                                staged: 0, staging: false))
            // The stubs are staged in file order as the parts come in, by whichever core finds the next part in line
            // ready and no other core staging: registering 10,000 stubs then waits for the last parts alone.
            let stages = staging ? Engine.Staging() : nil
            @Sendable func stageReady() {
                guard let stages else { return }
                while let next = taken.withLock({ state -> (position: Int, part: WireMockFolderPart)? in
                    guard !state.staging, state.staged < state.parts.count, let part = state.parts[state.staged] else { return nil }
                    state.staging = true
                    return (state.staged, part)
                }) {
                    stages.add(next.part.definitions)
                    taken.withLock { state in
                        state.staged = next.position + 1
                        state.staging = false
                    }
                }
            }
            DispatchQueue.concurrentPerform(iterations: cores) { _ in
                while let index = taken.withLock({ state -> Int? in
                    guard state.next < state.parts.count else { return nil }
                    defer { state.next += 1 }
                    return state.next
                }) {
                    let result = part((index * size)..<min(count, (index + 1) * size))
                    taken.withLock { $0.parts[index] = result }
                    stageReady()
                }
            }
            stageReady()
            let state = taken.current
            parts = state.parts.map { $0! }
            staged = state.staged == parts.count ? stages : nil
        } else {
            parts = [part(0..<count)]
        }
        var problems: [HTTPMockError] = []
        var definitions: [Engine.Definition] = []
        definitions.reserveCapacity(parts.reduce(0) { $0 + $1.definitions.count })
        var files: [(path: String, count: Int)] = []
        for index in parts.indices {
            definitions += parts[index].definitions
            files += parts[index].files
            problems += parts[index].problems
            parts[index] = WireMockFolderPart(definitions: [], files: [], problems: [])
        }
        var prepared = PreparedMocks(source: location.path, definitions: definitions)
        prepared.files = files
        prepared.staged = staged
        if layout.single == nil {
            do {
                prepared.messageStubs = try prepareMessageMappings(root: layout.root)
            } catch {
                problems.append(error)
            }
        }
        if skippingInvalid {
            prepared.skipped = problems
        } else if let problem = HTTPMockError(every: problems, in: location.path) {
            throw problem
        }
        return prepared
    }

    /// Registers every prepared source in `slot`, removing what the slot held, in one step; or, when a response
    /// cannot be served, throws and changes nothing.
    @discardableResult
    package func register(_ prepared: [PreparedMocks], slot: String) throws(HTTPMockError) -> LoadedMocks {
        let loaded = try core.engine.load(prepared.flatMap(\.definitions), source: prepared.map(\.source).joined(separator: ", "),
                                          slot: slot)
        do {
            try core.engine.messaging.register(prepared.flatMap(\.messageStubs), slot: slot)
        } catch {
            loaded.remove()
            throw error
        }
        return loaded
    }

    /// As ``register(_:slot:)``, and which stubs each WireMock mapping file gave (``PreparedMocks/files``), for
    /// ``replaceFile(_:with:slot:)``.
    package func registerTrackingFiles(_ prepared: [PreparedMocks], slot: String) throws(HTTPMockError) -> FileStubs {
        let stubs = prepared.flatMap(\.messageStubs)
        guard stubs.count <= Messaging.limits.stubs else {
            throw HTTPMockError(.invalidDefinition, "at most \(Messaging.limits.stubs) message stubs can be registered; these files hold \(stubs.count)")
        }
        // One source (the usual case) is registered as it is, without copying its definitions into a new list, and
        // its stubs staged while it was read are taken whole when the mock has never held a stub.
        let ids = if prepared.count == 1, let staged = prepared[0].staged {
            try core.engine.register(prepared[0].definitions, staged: staged, slot: slot)
        } else {
            try core.engine.register(prepared.count == 1 ? prepared[0].definitions : prepared.flatMap(\.definitions), slot: slot)
        }
        try? core.engine.messaging.register(stubs, slot: slot)
        var files: [(path: String, range: Range<Int>)] = []
        var offset = 0
        for source in prepared {
            var position = offset
            for (path, count) in source.files {
                files.append((path, position..<(position + count)))
                position += count
            }
            offset += source.definitions.count
        }
        return FileStubs(files: files, ids: ids)
    }

    /// Replaces the stubs `old` (one mapping file's, in `slot`) with those of `prepared` (the file read again), in
    /// one step; the rest of the slot stays. Returns the new stubs.
    package func replaceFile(_ old: Set<StubID>, with prepared: PreparedMocks, slot: String) throws(HTTPMockError) -> Set<StubID> {
        Set(try core.engine.replace(old, with: prepared.definitions, inSlot: slot))
    }
}

/// What one part of a WireMock folder's files gave (``HTTPMock/prepareWireMockMappings(from:globalTemplating:ranking:skippingInvalid:trackingFiles:)``).
struct WireMockFolderPart: Sendable {
    let definitions: [Engine.Definition]
    let files: [(path: String, count: Int)]
    let problems: [HTTPMockError]

    /// The fewest files read on more than one core: below, starting threads costs more than it saves.
    static let parallelFrom = 1_000
    /// How many files a core reads at a time, when more than one reads.
    static let filesEach = 64
}

/// Which stubs each WireMock mapping file gave when they were registered
/// (``HTTPMock/registerTrackingFiles(_:slot:)``): kept as they came, and made into a table by file only when it is
/// first asked for (when a file changes), not while a server waits to answer its first request.
package struct FileStubs: Sendable {
    let files: [(path: String, range: Range<Int>)]
    let ids: [StubID]

    /// The stubs of each file, by its standardized path.
    package func byFile() -> [String: Set<StubID>] {
        var table: [String: Set<StubID>] = [:]
        table.reserveCapacity(files.count)
        for (path, range) in files {
            table[path, default: []].formUnion(ids[range])
        }
        return table
    }
}
