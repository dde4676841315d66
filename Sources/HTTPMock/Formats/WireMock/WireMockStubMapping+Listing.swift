import Foundation

extension WireMockStubMapping {
    /// The mappings a WireMock folder's files hold now, each with its file (relative to the root), for WireMock's
    /// admin API to list beside the mappings created over it. A mapping whose file gives it no id gets one made
    /// from its file and place, the same at every reading (WireMock makes one up when it loads the file). What does
    /// not read is left out: `httpmock check` names it.
    ///
    /// With `cache`, a file whose ``LocalFile/Stamp`` has not changed since the last listing is not read again:
    /// a listing of 1,000 unchanged files costs a walk of the folder and a `stat` a file.
    package static func listed(inFolder root: URL, limits: FileSizeLimits = .standard,
                               cache: WireMockListingCache? = nil) -> [(mapping: WireMockStubMapping, file: String)] {
        guard let layout = try? WireMockFolder.layout(of: root) else { return [] }
        var problems: [HTTPMockError] = []
        func read(_ files: Range<Int>) -> [(mapping: WireMockStubMapping, file: String)] {
            var listed: [(mapping: WireMockStubMapping, file: String)] = []
            WireMockFolder.read(layout, files: files, limits: limits, problems: &problems) { name, _, mapping, _ in
                var mapping = mapping
                if !mapping.hasGivenID {
                    var object = mapping.object
                    object["id"] = .string(stableID(for: mapping.source).lowercasedText)
                    if let named = try? WireMockStubMapping(.object(object), source: mapping.source, checked: false) { mapping = named }
                }
                listed.append((mapping, name))
            }
            return listed
        }
        guard let cache, layout.single == nil else { return read(layout.names.indices) }
        let known = cache.files.current
        var fresh: [String: WireMockListingCache.File] = [:]
        var listed: [(mapping: WireMockStubMapping, file: String)] = []
        for index in layout.names.indices {
            let name = layout.names[index]
            let stamp = LocalFile.stamp(at: layout.path(of: name))
            if let stamp, let file = known[name], file.stamp == stamp {
                listed += file.mappings
                fresh[name] = file
                continue
            }
            let mappings = read(index..<(index + 1))
            listed += mappings
            if let stamp { fresh[name] = WireMockListingCache.File(stamp: stamp, mappings: mappings) }
        }
        // Files gone from the folder leave the cache.
        cache.files.withLock { $0 = fresh }
        return listed
    }

    /// A UUID made from `source` (a file and a place in it): the same for the same text.
    static func stableID(for source: String) -> UUID {
        var bytes: [UInt8] = []
        for seed in ["first half ", "second half "] {
            var hash = FNV1a.hash(of: Data((seed + source).utf8))
            for _ in 0..<8 {
                bytes.append(UInt8(truncatingIfNeeded: hash))
                hash >>= 8
            }
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x80   // version 8: made by this library's own rule
        bytes[8] = (bytes[8] & 0x3F) | 0x80   // the RFC 9562 variant
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}

extension WireMockStubMapping {
    /// Whether this mapping, loaded from its file (not created over an API), answered `entry`: the stub that
    /// answered names this mapping's file and place as where it was loaded from.
    /// - Parameter entry: a journaled request.
    package func answered(_ entry: JournalEntry) -> Bool {
        guard case .stub(_, let summary) = entry.resolution else { return false }
        return isLoaded(asStubSummarized: summary)
    }

    /// Whether the stub whose summary (in a journal entry, a near miss) is `summary` was loaded from this mapping's
    /// file and place.
    /// - Parameter summary: a stub's summary, such as `(any host)/users [method GET, from mappings/users.json]`.
    package func isLoaded(asStubSummarized summary: String) -> Bool {
        let loaded = Condition.loaded(from: source).summary
        return summary.contains(loaded + ",") || summary.hasSuffix(loaded + "]")
    }
}

extension WireMockStubMapping {
    /// The ``source`` a mapping whose stub was loaded from `place` (``ListedStub/loadedFrom``) may have, likeliest
    /// first: a stub is loaded from its mapping's source, followed by `, mapping` and its name or id when it has one
    /// (`mappings/users.json, mapping "Get user"`).
    package static func sources(ofLoadedPlace place: String) -> [String] {
        var sources = [place]
        var rest = place[...]
        while let range = rest.range(of: ", mapping ") {
            sources.append(String(place[..<range.lowerBound]))
            rest = place[range.upperBound...]
        }
        return sources
    }
}

extension HTTPMock {
    /// Removes the stubs that `mapping` became when its WireMock folder was loaded, leaving the rest of the load:
    /// WireMock's admin API changes a file's mapping in memory. Whether the mock had any.
    /// - Parameter mapping: a mapping as its file holds it (``WireMockStubMapping/listed(inFolder:limits:)``).
    package func removeLoadedStubs(of mapping: WireMockStubMapping) -> Bool {
        core.engine.removeStubs(loadedFrom: mapping.source)
    }
}

/// The mappings of a served folder's files as last listed, by file, with what each file was then: a server keeps one
/// for its folder, so that listing it again reads only the files that changed.
package final class WireMockListingCache: Sendable {
    struct File: Sendable {
        let stamp: LocalFile.Stamp
        let mappings: [(mapping: WireMockStubMapping, file: String)]
    }

    let files = Locked<[String: File]>([:])

    package init() {}

    /// The mapping, as the folder's files held it at the last listing, that a stub loaded from `place`
    /// (``ListedStub/loadedFrom``) was loaded from; `nil` when that listing had none (or there was none yet). Reads
    /// no file: a journal page links the mappings that answered it without listing the folder again.
    package func mapping(loadedFrom place: String) -> WireMockStubMapping? {
        let files = files.current
        for source in WireMockStubMapping.sources(ofLoadedPlace: place) {
            // A file's own mapping has the file's name as its source; one of a file of several, the name and its place.
            var name = source
            if files[name] == nil, let range = source.range(of: " mappings[", options: .backwards) {
                name = String(source[..<range.lowerBound])
            }
            if let found = files[name]?.mappings.first(where: { $0.mapping.source == source }) { return found.mapping }
        }
        return nil
    }
}
