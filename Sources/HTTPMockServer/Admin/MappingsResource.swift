#if Server
import Foundation
import HTTPMock

/// `/__admin/mappings`: WireMock stub mappings created, read, edited and removed over HTTP, in WireMock's shapes.
///
/// The list holds the mappings created here (kept in ``MappingStore``) and those of the served WireMock folder's
/// files, as the files hold them. A file's mapping edited or removed here changes in memory, as in WireMock (its file
/// stays as it is, and `POST /__admin/reset` serves it again). Stubs registered in code answer beside them and are
/// not listed.
enum MappingsResource {
    static let routes: [AdminRoute] = [
        AdminRoute("GET", "mappings") { request, _, context throws(AdminError) in try list(request, context) },
        AdminRoute("POST", "mappings") { request, _, context throws(AdminError) in try create(request, context) },
        AdminRoute("DELETE", "mappings") { _, _, context in
            context.state.mappings.removeAll()
            return .json([String: Any]())
        },
        // As WireMock goes back to its files: the journal, the mappings created here and the scenarios, as
        // `POST /__admin/reset` does.
        AdminRoute("POST", "mappings/reset") { _, _, context in
            AdminAPI.resetAll(context)
            return .json([String: Any]())
        },
        AdminRoute("POST", "mappings/save") { _, _, context throws(AdminError) in
            _ = try context.state.mappings.save()
            return .json([String: Any]())
        },
        AdminRoute("POST", "mappings/import") { request, _, context throws(AdminError) in try importMappings(request, context) },
        AdminRoute("POST", "mappings/find-by-metadata") { request, _, context throws(AdminError) in
            let found = try withMetadata(request, context)
            return .json(["mappings": found.map(object), "meta": ["total": found.count]])
        },
        // Removes them: those created here, and a file's in memory (its file stays as it is), as WireMock does.
        AdminRoute("POST", "mappings/remove-by-metadata") { request, _, context throws(AdminError) in
            for mapping in try withMetadata(request, context) where !context.state.mappings.remove(mapping.id) {
                try context.state.mappings.removeFileMapping(mapping, in: context.mock)
            }
            return .json([String: Any]())
        },
        // The mappings no request of the journal was answered by (WireMock 3.13's addition).
        AdminRoute("GET", "mappings/unmatched") { _, _, context in
            let links = MappingLinks(context)
            let matched = links.matchedIDs
            let unmatched = links.listed.filter { !matched.contains($0.id) }
            return listing(unmatched, total: unmatched.count)
        },
        // Removes them: those created here, and a file's in memory (its file stays as it is).
        AdminRoute("DELETE", "mappings/unmatched") { _, _, context throws(AdminError) in
            let links = MappingLinks(context)
            let matched = links.matchedIDs
            for mapping in context.state.mappings.all where !matched.contains(mapping.id) {
                _ = context.state.mappings.remove(mapping.id)
            }
            for mapping in links.folder where !matched.contains(mapping.id) && context.state.mappings.mapping(mapping.id) == nil {
                try context.state.mappings.removeFileMapping(mapping, in: context.mock)
            }
            return .json([String: Any]())
        },
        AdminRoute("GET", "mappings/{id}") { _, parameters, context throws(AdminError) in
            let id = try mappingID(parameters)
            if let mapping = context.state.mappings.mapping(id) { return reply(mapping) }
            if let served = folderMappings(context).first(where: { $0.mapping.id == id }) { return reply(served.mapping) }
            throw notFound(id)
        },
        // A file's mapping is changed in memory, as WireMock changes it: its file stays as it is.
        AdminRoute("PUT", "mappings/{id}") { request, parameters, context throws(AdminError) in
            let id = try mappingID(parameters)
            if context.state.mappings.mapping(id) == nil, let file = folderMappings(context).first(where: { $0.mapping.id == id }) {
                let replacement = try Self.mapping(id, from: request)
                try context.state.mappings.removeFileMapping(file.mapping, replacingWith: replacement, in: context.mock)
                return reply(replacement)
            }
            return try edit(id, request, context)
        },
        AdminRoute("DELETE", "mappings/{id}") { _, parameters, context throws(AdminError) in
            let id = try mappingID(parameters)
            guard context.state.mappings.remove(id) else {
                guard let file = folderMappings(context).first(where: { $0.mapping.id == id }) else { throw notFound(id) }
                try context.state.mappings.removeFileMapping(file.mapping, in: context.mock)
                return .json([String: Any]())
            }
            return .json([String: Any]())
        },
    ]

    /// `POST /__admin/reset` goes back to the stubs the server had before any mapping was created here (those of
    /// code and files).
    static func reset(_ context: AdminContext) {
        context.state.mappings.removeAll()
        context.state.mappings.restoreFileMappings(in: context.mock)
    }

    /// The served WireMock folder's mappings, as its files hold them now (none without a folder), but those removed
    /// or replaced over the admin API.
    static func folderMappings(_ context: AdminContext) -> [(mapping: WireMockStubMapping, file: String)] {
        guard let folder = context.state.mappings.wireMockFolder else { return [] }
        let removed = context.state.mappings.removedFromFiles
        return WireMockStubMapping.listed(inFolder: folder, cache: context.state.mappings.listingCache)
            .filter { !removed.contains($0.mapping.id) }
    }

    /// Newest first, as WireMock lists them: those created here, then the served folder's, in file order; `limit`
    /// and `offset` page through them. Each mapping's JSON is written as it is kept, straight into the reply.
    private static func list(_ request: AdminRequest, _ context: AdminContext) throws(AdminError) -> AdminReply {
        let created = Array(context.state.mappings.all.reversed())
        let ids = Set(created.map(\.id))
        // A mapping saved into the folder (`mappings/save`) is listed once, as the one created here.
        let all = created + folderMappings(context).map(\.mapping).filter { !ids.contains($0.id) }
        let offset = try request.wholeNumber("offset", counting: "mappings") ?? 0
        let limit = try request.wholeNumber("limit", counting: "mappings") ?? all.count
        return listing(all.dropFirst(offset).prefix(limit), total: all.count)
    }

    /// `{"mappings": [...], "meta": {"total": N}}`, as WireMock lists mappings: `page` of the `total` there are.
    private static func listing(_ page: some Collection<WireMockStubMapping>, total: Int) -> AdminReply {
        // Each mapping's JSON written once (it is made when asked for).
        let texts = page.map(\.json)
        var json = JSONBytes(capacity: texts.reduce(64) { $0 + $1.count + 1 })
        json.object { json in
            json.key("mappings")
            json.array { json in for text in texts { json.raw(text) } }
            json.key("meta")
            json.object { json in json.member("total", total) }
        }
        return .json(json)
    }

    /// `POST /__admin/mappings/import`: `{"mappings": […], "importOptions": {"duplicatePolicy": "OVERWRITE" | "IGNORE",
    /// "deleteAllNotInImport": false}}`. Every mapping is read and checked first, and every problem is reported
    /// (each with its index); only then are they created, so a bad import changes nothing.
    private static func importMappings(_ request: AdminRequest, _ context: AdminContext) throws(AdminError) -> AdminReply {
        let body = try request.jsonObject()
        guard let list = body["mappings"] as? [Any] else {
            throw AdminError.invalidJSON(pointer: "/mappings", detail: "an import is {\"mappings\": [stub mappings…]}")
        }
        let options = body["importOptions"] as? [String: Any] ?? [:]
        let policy = (options["duplicatePolicy"] as? String ?? "OVERWRITE").uppercased()
        guard ["OVERWRITE", "IGNORE"].contains(policy) else {
            throw AdminError.invalidJSON(pointer: "/importOptions/duplicatePolicy", detail: "duplicatePolicy is OVERWRITE or IGNORE, not \(policy)")
        }
        // The mappings' own bytes where the body is strict JSON (see ``mapping(_:from:)``).
        let exact = request.body.flatMap { WireMockStubMapping.exactItems($0, under: "mappings") }.flatMap { $0.count == list.count ? $0 : nil }
        var mappings: [WireMockStubMapping] = []
        var problems: [String] = []
        let files = context.state.mappings.wireMockFolder?.appendingPathComponent("__files")
        for (index, item) in list.enumerated() {
            do {
                // Any JSON value (`null`, `5`): one that is no object is the mapping's problem, not a stop of the
                // server (Foundation stops the process on a top-level value that is not an array or object).
                let json = exact.map { $0[index] }
                    ?? (try? JSONSerialization.data(withJSONObject: item, options: .fragmentsAllowed)) ?? Data()
                let mapping = try WireMockStubMapping(json: json, source: "mappings[\(index)]")
                _ = try context.mock.prepare([mapping], filesFolder: files)
                mappings.append(mapping)
            } catch {
                problems.append(error.message)
            }
        }
        guard problems.isEmpty else {
            throw AdminError.invalidJSON(pointer: "/mappings", detail: "nothing was imported: " + problems.joined(separator: "; "))
        }
        let existing = Set(context.state.mappings.all.map(\.id))
        if options["deleteAllNotInImport"] as? Bool == true {
            let imported = Set(mappings.map(\.id))
            for id in existing.subtracting(imported) { _ = context.state.mappings.remove(id) }
        }
        for mapping in mappings {
            if existing.contains(mapping.id) {
                guard policy == "OVERWRITE" else { continue }
                _ = try context.state.mappings.replace(with: mapping, in: context.mock)
            } else {
                try context.state.mappings.create(mapping, in: context.mock)
            }
        }
        return .json([String: Any]())
    }

    /// The mappings whose `metadata` meets the body, a WireMock value pattern (`{"matchesJsonPath": …}`,
    /// `{"equalToJson": …}`, `{"contains": …}`…) applied to the metadata as JSON: those created here and those of
    /// the folder's files, in the order they are listed.
    private static func withMetadata(_ request: AdminRequest, _ context: AdminContext) throws(AdminError) -> [WireMockStubMapping] {
        let meets = try metadataPredicate(request)
        return MappingLinks(context).listed.filter(meets)
    }

    /// Whether a mapping's `metadata` meets the body of `request`, a WireMock value pattern applied to the metadata
    /// as JSON (a mapping without metadata never does).
    static func metadataPredicate(_ request: AdminRequest) throws(AdminError) -> @Sendable (WireMockStubMapping) -> Bool {
        let pattern = try request.jsonObject()
        if pattern.isEmpty {
            throw AdminError.invalidJSON(pointer: "/", detail: "the body is an empty pattern; give one, such as {\"matchesJsonPath\": \"$.team\"}")
        }
        let predicate: RequestPredicate
        do {
            let wrapped = try JSONSerialization.data(withJSONObject: ["bodyPatterns": [pattern]])
            predicate = try RequestPredicate(try WireMockStubMapping.requestPattern(json: wrapped, source: "the metadata pattern"))
        } catch let error as HTTPMockError {
            throw AdminError.unreadable(error)
        } catch {
            throw AdminError.invalidJSON(pointer: "/", detail: "\(error)")
        }
        return { mapping in
            guard let object = try? JSONSerialization.jsonObject(with: mapping.json) as? [String: Any],
                  let metadata = object["metadata"],
                  let json = try? JSONSerialization.data(withJSONObject: metadata, options: .fragmentsAllowed) else { return false }
            let probe = CapturedRequest(method: "POST", url: URL(string: "http://metadata.invalid/")!,
                                        headers: ["Content-Type": "application/json"], body: json)
            return predicate.matches(probe)
        }
    }

    /// `201 Created` with the mapping as it is kept (with its `id`).
    private static func create(_ request: AdminRequest, _ context: AdminContext) throws(AdminError) -> AdminReply {
        _ = try request.jsonObject()
        let mapping: WireMockStubMapping
        do {
            mapping = try WireMockStubMapping(json: request.body ?? Data(), source: "the mapping")
        } catch {
            throw AdminError.unreadable(error)
        }
        try context.state.mappings.create(mapping, in: context.mock)
        return reply(mapping, status: 201)
    }

    /// Replaces mapping `id` with the body, which keeps that id (an `id` in the body is ignored, as in WireMock).
    private static func edit(_ id: UUID, _ request: AdminRequest, _ context: AdminContext) throws(AdminError) -> AdminReply {
        guard context.state.mappings.mapping(id) != nil else {
            _ = try request.jsonObject()
            throw notFound(id)
        }
        let replacement = try Self.mapping(id, from: request)
        guard try context.state.mappings.replace(with: replacement, in: context.mock) else { throw notFound(id) }
        return reply(replacement)
    }

    /// The mapping the body of `request` holds, with the id `id` (an `id` in the body is ignored, as in WireMock).
    private static func mapping(_ id: UUID, from request: AdminRequest) throws(AdminError) -> WireMockStubMapping {
        var body = try request.jsonObject()
        body["id"] = id.lowercasedText
        body["uuid"] = nil
        let mapping: WireMockStubMapping
        do {
            // From the bytes where they are strict JSON: Foundation's objects write `100.0` as `100` and keep 38
            // digits of a number, where WireMock's `equalToJson` tells `100` from `100.0` and keeps every digit.
            let json = try request.body.flatMap { WireMockStubMapping.exactJSON($0, id: id.lowercasedText) }
                ?? JSONSerialization.data(withJSONObject: body)
            mapping = try WireMockStubMapping(json: json, source: "the mapping")
        } catch let error as HTTPMockError {
            throw AdminError.unreadable(error)
        } catch {
            throw AdminError.invalidJSON(pointer: "/", detail: "the body cannot be read as a mapping: \(error.localizedDescription)")
        }
        return mapping
    }

    /// The mapping's JSON as it is kept, as the reply (as a listing writes it: every digit of its numbers, which
    /// Foundation's objects would cut to 38).
    private static func reply(_ mapping: WireMockStubMapping, status: Int = 200) -> AdminReply {
        var json = JSONBytes(capacity: mapping.json.count)
        json.raw(mapping.json)
        return .json(json, status: status)
    }

    /// The mapping's JSON, as Foundation's objects, for a reply that holds it.
    static func object(_ mapping: WireMockStubMapping) -> Any {
        (try? JSONSerialization.jsonObject(with: mapping.json)) ?? [String: Any]()
    }

    private static func mappingID(_ parameters: [String: String]) throws(AdminError) -> UUID {
        let text = parameters["id"] ?? ""
        guard let id = UUID(uuidString: text) else {
            throw AdminError(status: 400, code: 10, title: "\(text) is not a valid UUID",
                             detail: "a stub mapping's id is a UUID, as POST /__admin/mappings returns it")
        }
        return id
    }

    private static func notFound(_ id: UUID) -> AdminError {
        AdminError(status: 404, code: 40, title: "No stub mapping \(id.lowercasedText)",
                   detail: "GET /__admin/mappings lists the mappings created over the admin API and those of the served WireMock folder; stubs registered in code are not among them")
    }
}
#endif
