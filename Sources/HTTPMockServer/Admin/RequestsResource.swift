#if Server
import Foundation
import HTTPMock

/// `/__admin/requests`: the journal, in WireMock's shapes.
///
/// `POST /__admin/requests/count` and `POST /__admin/requests/find` take a WireMock request pattern, read by the
/// decoder of WireMock mappings into `Match` values and checked against journaled requests as HTTPMockTesting's
/// assertions check them (`RequestPredicate`).
enum RequestsResource {
    static let routes: [AdminRoute] = [
        AdminRoute("GET", "requests") { request, _, context throws(AdminError) in try list(request, context) },
        AdminRoute("DELETE", "requests") { _, _, context in clear(context) },
        AdminRoute("POST", "requests/reset") { _, _, context in clear(context) },
        AdminRoute("POST", "requests/count") { request, _, context throws(AdminError) in
            .json(["count": try matching(request, context).count, "requestJournalDisabled": false])
        },
        AdminRoute("POST", "requests/find") { request, _, context throws(AdminError) in
            loggedRequests(try matching(request, context))
        },
        AdminRoute("POST", "requests/remove") { request, _, context throws(AdminError) in
            let ids = Set(try matching(request, context).map(\.id))
            return removed(context.mock.removeJournalEntries { ids.contains($0.id) }, context)
        },
        AdminRoute("POST", "requests/remove-by-metadata") { request, _, context throws(AdminError) in
            let meets = try MappingsResource.metadataPredicate(request)
            let links = MappingLinks(context)
            let ids = Set(context.mock.journal.filter { entry in links.mapping(answering: entry).map(meets) ?? false }.map(\.id))
            return removed(context.mock.removeJournalEntries { ids.contains($0.id) }, context)
        },
        AdminRoute("GET", "requests/unmatched") { _, _, context in unmatched(context) },
        AdminRoute("GET", "requests/unmatched/near-misses") { _, _, context in nearMisses(context) },
        AdminRoute("GET", "requests/{id}") { _, parameters, context throws(AdminError) in
            try single(parameters["id"] ?? "", context)
        },
        // As WireMock: `{}`, whether the journal still had the request or not (any UUID; what is none gets 400).
        AdminRoute("DELETE", "requests/{id}") { _, parameters, context throws(AdminError) in
            let id = parameters["id"] ?? ""
            guard let number = ServeEventJSON.journalID(from: id) else {
                // Any other UUID names no request here: there is nothing to forget.
                guard UUID(uuidString: id) != nil else {
                    throw AdminError(status: 400, code: 10, title: "\(id) is not a request id",
                                     detail: "ids are those of GET /__admin/requests, such as 00000000-0000-4000-8000-000000000001")
                }
                return .json([String: Any]())
            }
            _ = context.mock.removeJournalEntries { $0.id == number }
            return .json([String: Any]())
        },
    ]

    /// `{"serveEvents": [removed serve events…]}`, oldest first, as WireMock answers a removal.
    private static func removed(_ entries: [JournalEntry], _ context: AdminContext) -> AdminReply {
        let mappings = AnsweringMappings(answering: entries, context)
        var json = JSONBytes(capacity: mappings.capacity(for: entries))
        json.object { json in
            json.key("serveEvents")
            json.array { json in
                for entry in entries { ServeEventJSON.writeServeEvent(entry, mappings: mappings, into: &json) }
            }
        }
        return .json(json)
    }

    /// `POST /__admin/reset` forgets the journal.
    static func reset(_ context: AdminContext) {
        context.mock.clearJournal()
    }

    /// Newest first, as WireMock lists them, a page at a time: `offset` skips the newest so many, `limit` keeps the
    /// next so many (all by default), `since` (ISO 8601) keeps those received after it. `meta.total` counts the
    /// whole journal. Written straight to bytes, one entry after another: no dictionary of the page is built, and
    /// the mappings that answered are looked up once for the page (``AnsweringMappings``).
    private static func list(_ request: AdminRequest, _ context: AdminContext) throws(AdminError) -> AdminReply {
        var since = Date.distantPast
        if let text = request.query["since"] {
            guard let date = iso8601Date(text) else {
                throw AdminError(status: 400, code: 10, pointer: "since", title: "Invalid parameter",
                                 detail: "since=\(text) is not an ISO 8601 date such as 2026-01-31T12:00:00Z")
            }
            since = date
        }
        let after = since
        let offset = try request.wholeNumber("offset", counting: "requests") ?? 0
        let limit = try request.wholeNumber("limit", counting: "requests") ?? Int.max
        let (page, total) = context.mock.journalPage(receivedAfter: after, offset: offset, limit: limit)
        let mappings = AnsweringMappings(answering: page, context)
        var json = JSONBytes(capacity: mappings.capacity(for: page))
        json.object { json in
            json.key("meta")
            json.object { json in json.member("total", total) }
            json.key("requestJournalDisabled")
            json.bool(false)
            json.key("requests")
            json.array { json in
                for entry in page { ServeEventJSON.writeServeEvent(entry, mappings: mappings, into: &json) }
            }
        }
        return .json(json)
    }

    /// An ISO 8601 date and time with a time zone, with or without fractional seconds (`2026-01-31T12:00:00Z`,
    /// `2026-01-31T12:00:00.000Z`), as WireMock reads `since`.
    private static func iso8601Date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions.insert(.withFractionalSeconds)
        return formatter.date(from: text)
    }

    /// `{"requests": [logged requests…], "requestJournalDisabled": false}`.
    private static func loggedRequests(_ entries: [JournalEntry]) -> AdminReply {
        var json = JSONBytes(capacity: entries.count * 768 + 64)
        json.object { json in
            json.key("requestJournalDisabled")
            json.bool(false)
            json.key("requests")
            json.array { json in
                for entry in entries { ServeEventJSON.writeLoggedRequest(entry, into: &json) }
            }
        }
        return .json(json)
    }

    /// The journaled requests, oldest first, that meet the WireMock request pattern in the body (`{}` meets all).
    private static func matching(_ request: AdminRequest, _ context: AdminContext) throws(AdminError) -> [JournalEntry] {
        _ = try request.jsonObject()
        let predicate: RequestPredicate
        do {
            predicate = try RequestPredicate(try WireMockStubMapping.requestPattern(json: request.body ?? Data(), source: "the request pattern"))
        } catch {
            throw AdminError.unreadable(error)
        }
        return context.mock.journal.filter { predicate.matches($0.request) }
    }

    private static func clear(_ context: AdminContext) -> AdminReply {
        context.mock.clearJournal()
        return .json([String: Any]())
    }

    private static func single(_ id: String, _ context: AdminContext) throws(AdminError) -> AdminReply {
        guard let number = ServeEventJSON.journalID(from: id),
              let entry = context.mock.journal(from: number).first, entry.id == number else {
            throw AdminError(status: 404, code: 40, title: "No request \(id) in the journal",
                             detail: "ids are those of GET /__admin/requests; a cleared or dropped request is gone")
        }
        var json = JSONBytes()
        ServeEventJSON.writeServeEvent(entry, mappings: AnsweringMappings(answering: [entry], context), into: &json)
        return .json(json)
    }

    /// The requests no stub answered, oldest first. A WebSocket that opened a message channel (its 101) was
    /// answered, by the channel: it is no miss.
    private static func unmatched(_ context: AdminContext) -> AdminReply {
        loggedRequests(context.mock.journal.filter(isMiss))
    }

    static func isMiss(_ entry: JournalEntry) -> Bool {
        !entry.resolution.isMatched && entry.statusCode != 101
    }

    /// The closest stubs of every request no stub answered, with HTTPMock's report of each request in
    /// `httpmock.reports` (it also names what has no near miss: no stub at all, refused registrations).
    private static func nearMisses(_ context: AdminContext) -> AdminReply {
        let entries = context.mock.journal.filter(isMiss)
        let links = MappingLinks(context)
        var json = JSONBytes()
        json.object { json in
            json.key("httpmock")
            json.object { json in
                json.key("reports")
                json.array { json in
                    for entry in entries { if let report = entry.report { json.string(report.description) } }
                }
            }
            json.key("nearMisses")
            json.array { json in
                for entry in entries {
                    ServeEventJSON.writeNearMisses(entry, into: &json) { stub, summary in
                        links.mapping(forStub: stub, summarized: summary)?.json
                    }
                }
            }
        }
        return .json(json)
    }
}
#endif
