#if Server
import Foundation
import HTTPMock

/// The stub mappings created over the admin API, kept for listing, editing and saving: each with its JSON (with its
/// `id`) and the handle that removes its stub.
///
/// The stubs are the mock's, beside those registered in code or loaded from files, and answer the same way. Each
/// mapping occupies an engine slot of its own, so an edit puts the new stub in place of the old in one step: a
/// request sees one or the other, and a mapping that cannot be registered changes nothing. Changes are made one at a
/// time (under this store's lock), so two admin requests never interleave.
final class MappingStore: Sendable {
    private struct Entry: Sendable {
        var mapping: WireMockStubMapping
        var loaded: LoadedMocks
    }

    private struct State: Sendable {
        /// Ids in the order the mappings were created.
        var order: [UUID] = []
        var entries: [UUID: Entry] = [:]
        /// The mappings of the served folder's files removed (or replaced by one created here) over the admin API:
        /// in memory, as WireMock changes them; their files are untouched.
        var removedFromFiles: [UUID: WireMockStubMapping] = [:]
    }

    /// See ``HTTPMockServer/Configuration/wireMockFolder``.
    let wireMockFolder: URL?
    /// See ``HTTPMockServer/Configuration/wireMockRanking``.
    let ranking: WireMockRanking
    private let state = Locked(State())
    /// The served folder's mappings as last listed (``WireMockStubMapping/listed(inFolder:limits:cache:)``).
    let listingCache = WireMockListingCache()

    init(wireMockFolder: URL?, ranking: WireMockRanking) {
        self.wireMockFolder = wireMockFolder?.standardizedFileURL
        self.ranking = ranking
    }

    /// Every mapping, in the order they were created.
    var all: [WireMockStubMapping] {
        state.withLock { state in state.order.compactMap { state.entries[$0]?.mapping } }
    }

    func mapping(_ id: UUID) -> WireMockStubMapping? {
        state.withLock { $0.entries[id]?.mapping }
    }

    /// The mapping whose stub is `stub`, if it was created over the admin API.
    func mapping(forStub stub: StubID) -> WireMockStubMapping? {
        state.withLock { state in state.entries.values.first { $0.loaded.stubIDs.contains(stub) }?.mapping }
    }

    /// The mappings created over the admin API whose stubs are among `stubs`, by stub: one pass over the store.
    func mappings(forStubs stubs: Set<StubID>) -> [StubID: WireMockStubMapping] {
        guard !stubs.isEmpty else { return [:] }
        return state.withLock { state in
            var found: [StubID: WireMockStubMapping] = [:]
            for entry in state.entries.values {
                for stub in entry.loaded.stubIDs where stubs.contains(stub) { found[stub] = entry.mapping }
            }
            return found
        }
    }

    /// Registers `mapping` as a new one. Throws, registering nothing, when its id is taken or it cannot be served
    /// (a body file that is not there).
    func create(_ mapping: WireMockStubMapping, in mock: HTTPMock) throws(AdminError) {
        let outcome: Result<Void, AdminError> = state.withLock { state in
            guard state.entries[mapping.id] == nil else {
                return .failure(AdminError(status: 422, code: 109, title: "Duplicate stub mapping ID",
                                           detail: "the id \(mapping.id.lowercasedText) is taken by another stub mapping; give a new id, none, or edit it with PUT /__admin/mappings/{id}"))
            }
            do throws(AdminError) {
                let loaded = try register(mapping, in: mock)
                state.order.append(mapping.id)
                state.entries[mapping.id] = Entry(mapping: mapping, loaded: loaded)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try outcome.get()
    }

    /// Puts `mapping` in place of the mapping with its id, in one step; `false` when there is no such mapping.
    /// Throws, changing nothing, when it cannot be served.
    func replace(with mapping: WireMockStubMapping, in mock: HTTPMock) throws(AdminError) -> Bool {
        let outcome: Result<Bool, AdminError> = state.withLock { state in
            guard state.entries[mapping.id] != nil else { return .success(false) }
            do throws(AdminError) {
                state.entries[mapping.id] = Entry(mapping: mapping, loaded: try register(mapping, in: mock))
                return .success(true)
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Removes the mapping `id` and its stub; `false` when there is no such mapping.
    func remove(_ id: UUID) -> Bool {
        state.withLock { state in
            guard let entry = state.entries.removeValue(forKey: id) else { return false }
            state.order.removeAll { $0 == id }
            entry.loaded.remove()
            return true
        }
    }

    /// The ids of the file mappings removed or replaced over the admin API.
    var removedFromFiles: Set<UUID> {
        state.withLock { Set($0.removedFromFiles.keys) }
    }

    /// Removes `file`, a mapping of the served folder's files, from the mock (its file is untouched); with
    /// `replacement`, puts that mapping in its place in one step, or, when it cannot be served, changes nothing.
    func removeFileMapping(_ file: WireMockStubMapping, replacingWith replacement: WireMockStubMapping? = nil,
                           in mock: HTTPMock) throws(AdminError) {
        let outcome: Result<Void, AdminError> = state.withLock { state in
            do throws(AdminError) {
                if let replacement {
                    let loaded = try register(replacement, in: mock)
                    state.order.append(replacement.id)
                    state.entries[replacement.id] = Entry(mapping: replacement, loaded: loaded)
                }
                _ = mock.removeLoadedStubs(of: file)
                state.removedFromFiles[file.id] = file
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try outcome.get()
    }

    /// Serves again the file mappings removed or replaced over the admin API (`POST /__admin/reset`, as WireMock goes
    /// back to its files).
    func restoreFileMappings(in mock: HTTPMock) {
        state.withLock { state in
            for (id, mapping) in state.removedFromFiles.sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
                _ = try? register(mapping, in: mock, slot: "/__admin/files/" + id.lowercasedText)
            }
            state.removedFromFiles = [:]
        }
    }

    /// Removes every mapping created over the admin API, with its stub.
    func removeAll() {
        state.withLock { state in
            // One step for all of them: linear in their number, not one pass over the stubs per mapping.
            LoadedMocks.remove(state.order.compactMap { state.entries[$0]?.loaded })
            state.order = []
            state.entries = [:]
        }
    }

    /// Writes every mapping into `mappings/` of ``wireMockFolder``.
    func save() throws(AdminError) -> Int {
        guard let wireMockFolder else {
            throw AdminError(status: 403, code: 50, title: "No WireMock folder to save mappings into",
                             detail: "the server saves mappings only into the WireMock folder it serves: run httpmock serve on a WireMock folder (mappings/ and __files/), or set HTTPMockServer.Configuration.wireMockFolder")
        }
        let mappings = all
        do {
            return try WireMockStubMapping.save(mappings, inRoot: wireMockFolder).count
        } catch {
            // A file of several mappings is read-only (WireMock answers 500 there): a conflict with the folder.
            let conflict = error.code == .invalidDefinition
            throw AdminError(status: conflict ? 409 : 500, code: 10, title: "Mappings could not be saved", detail: error.message)
        }
    }

    /// Registers `mapping` in its slot, replacing what the slot held.
    private func register(_ mapping: WireMockStubMapping, in mock: HTTPMock, slot: String? = nil) throws(AdminError) -> LoadedMocks {
        do {
            let prepared = try mock.prepare([mapping], filesFolder: wireMockFolder?.appendingPathComponent("__files"), ranking: ranking)
            return try mock.register([prepared], slot: slot ?? "/__admin/mappings/" + mapping.id.lowercasedText)
        } catch {
            throw AdminError.unreadable(error)
        }
    }
}
#endif
