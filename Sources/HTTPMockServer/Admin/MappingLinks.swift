#if Server
import Foundation
import HTTPMock

/// Which listed stub mapping answered a journaled request: one created over the admin API (by its stub), or one of
/// the served WireMock folder's files (by the file and place its stub was loaded from, which the stub's summary
/// names). What `GET /__admin/mappings/unmatched` and `POST /__admin/requests/remove-by-metadata` read.
struct MappingLinks {
    private let context: AdminContext
    /// The served folder's mappings, as their files hold them now (but those removed or replaced over the API).
    let folder: [WireMockStubMapping]

    init(_ context: AdminContext) {
        self.context = context
        folder = MappingsResource.folderMappings(context).map(\.mapping)
    }

    /// Every mapping listed by `GET /__admin/mappings`, in its order: those created here (newest first), then the
    /// folder's not saved from here.
    var listed: [WireMockStubMapping] {
        let created = Array(context.state.mappings.all.reversed())
        let ids = Set(created.map(\.id))
        return created + folder.filter { !ids.contains($0.id) }
    }

    /// The mapping that answered `entry`; `nil` when none did, or a stub registered in code did.
    func mapping(answering entry: JournalEntry) -> WireMockStubMapping? {
        guard case .stub(let stub, _) = entry.resolution else { return nil }
        return context.state.mappings.mapping(forStub: stub) ?? folder.first { $0.answered(entry) }
    }

    /// The mapping a stub of the mock is, from the stub and its summary (a near miss gives both); `nil` for a stub
    /// registered in code or loaded from other files.
    func mapping(forStub stub: StubID, summarized summary: String) -> WireMockStubMapping? {
        context.state.mappings.mapping(forStub: stub) ?? folder.first { $0.isLoaded(asStubSummarized: summary) }
    }

    /// The served folder's mappings by their ``WireMockStubMapping/source``, for ``mapping(loadedFrom:in:)``.
    static func bySource(_ folder: [WireMockStubMapping]) -> [String: WireMockStubMapping] {
        var bySource: [String: WireMockStubMapping] = [:]
        for mapping in folder { bySource[mapping.source] = mapping }
        return bySource
    }

    /// The mapping of the served folder a stub loaded from `place` (``ListedStub/loadedFrom``) is; `nil` when none
    /// is (another file, or a mapping removed since).
    static func mapping(loadedFrom place: String, in folder: [String: WireMockStubMapping]) -> WireMockStubMapping? {
        for source in WireMockStubMapping.sources(ofLoadedPlace: place) {
            if let mapping = folder[source] { return mapping }
        }
        return nil
    }

    /// The ids of the listed mappings that answered some request of the journal.
    var matchedIDs: Set<UUID> {
        Set(context.mock.journal.compactMap { mapping(answering: $0)?.id })
    }
}
#endif
