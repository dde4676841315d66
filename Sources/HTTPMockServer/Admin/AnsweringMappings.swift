#if Server
import Foundation
import HTTPMock

/// The stub mappings that answered some journaled requests, in the parts a serve event copies (`stubMapping`,
/// `responseDefinition`, `timing.addedDelay`): looked up once for a whole listing, each mapping's JSON written once
/// however many requests it answered.
///
/// A mapping created over the admin API is found by the stub that answered; one of the served folder's files by
/// where its stub was loaded from (the engine's ``HTTPMock/HTTPMock/loadedSources(of:)``), in the folder's last
/// listing (listed again only when that lacks it). A stub registered in code, and a mapping removed or edited
/// since, have none.
struct AnsweringMappings {
    /// What a serve event copies of the mapping that answered.
    struct Parts {
        /// The mapping as `GET /__admin/mappings` lists it.
        let json: Data
        /// Its `response`, as the mapping wrote it.
        let response: Data
        /// Its fixed delay in milliseconds (0 without one).
        let addedDelay: Int
    }

    private var byStub: [StubID: Parts] = [:]

    /// Knows no mapping: every answered request is written without one.
    init() {}

    init(answering entries: some Sequence<JournalEntry>, _ context: AdminContext) {
        var stubs = Set<StubID>()
        for entry in entries {
            if case .stub(let stub, _) = entry.resolution { stubs.insert(stub) }
        }
        guard !stubs.isEmpty else { return }
        var found = context.state.mappings.mappings(forStubs: stubs)
        let sources = context.mock.loadedSources(of: stubs.subtracting(found.keys))
        // The folder's mappings as last listed (no file read, so a page costs its page); the folder is listed again
        // only for a mapping that listing did not have (none yet, or a file new since).
        let cache = context.state.mappings.listingCache
        var unknown: [StubID: String] = [:]
        for (stub, place) in sources {
            if let mapping = cache.mapping(loadedFrom: place) { found[stub] = mapping } else { unknown[stub] = place }
        }
        if !unknown.isEmpty {
            let folder = MappingLinks.bySource(MappingsResource.folderMappings(context).map(\.mapping))
            for (stub, place) in unknown {
                if let mapping = MappingLinks.mapping(loadedFrom: place, in: folder) { found[stub] = mapping }
            }
        }
        var written: [UUID: Parts] = [:]
        for (stub, mapping) in found {
            let parts = written[mapping.id] ?? Parts(json: mapping.json, response: mapping.responseJSON,
                                                     addedDelay: mapping.fixedDelayMilliseconds ?? 0)
            written[mapping.id] = parts
            byStub[stub] = parts
        }
    }

    /// Bytes enough for the serve events of `entries` (about a kilobyte each beside the mapping that answered), so
    /// that a listing is written without growing its buffer.
    func capacity(for entries: some Collection<JournalEntry>) -> Int {
        entries.reduce(64) { total, entry in
            total + 1_024 + (parts(answering: entry).map { $0.json.count + $0.response.count } ?? 0)
        }
    }

    /// The mapping that answered `entry`; `nil` when no mapping did.
    func parts(answering entry: JournalEntry) -> Parts? {
        guard case .stub(let stub, _) = entry.resolution else { return nil }
        return byStub[stub]
    }
}
#endif
