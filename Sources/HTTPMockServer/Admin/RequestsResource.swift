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
            .json(["requests": try matching(request, context).map(ServeEventJSON.loggedRequest), "requestJournalDisabled": false])
        },
        AdminRoute("GET", "requests/unmatched") { _, _, context in unmatched(context) },
        AdminRoute("GET", "requests/unmatched/near-misses") { _, _, context in nearMisses(context) },
        AdminRoute("GET", "requests/{id}") { _, parameters, context throws(AdminError) in
            try single(parameters["id"] ?? "", context)
        },
    ]

    /// `POST /__admin/reset` forgets the journal.
    static func reset(_ context: AdminContext) {
        context.mock.clearJournal()
    }

    /// Newest first, as WireMock lists them; `limit` keeps the first so many, `since` (ISO 8601) those received
    /// after it.
    private static func list(_ request: AdminRequest, _ context: AdminContext) throws(AdminError) -> AdminReply {
        var entries = Array(context.mock.journal.reversed())
        let total = entries.count
        if let since = request.query["since"] {
            guard let date = ISO8601DateFormatter().date(from: since) else {
                throw AdminError(status: 400, code: 10, pointer: "since", title: "Invalid parameter",
                                 detail: "since=\(since) is not an ISO 8601 date such as 2026-01-31T12:00:00Z")
            }
            entries = entries.filter { $0.receivedAt > date }
        }
        if let limit = request.query["limit"] {
            guard let count = Int(limit), count >= 0 else {
                throw AdminError(status: 400, code: 10, pointer: "limit", title: "Invalid parameter",
                                 detail: "limit=\(limit) is not a whole number of requests")
            }
            entries = Array(entries.prefix(count))
        }
        return .json([
            "requests": entries.map(ServeEventJSON.serveEvent),
            "meta": ["total": total],
            "requestJournalDisabled": false,
        ])
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
        return .json(ServeEventJSON.serveEvent(entry))
    }

    /// The requests no stub answered, oldest first.
    private static func unmatched(_ context: AdminContext) -> AdminReply {
        let entries = context.mock.journal.filter { !$0.resolution.isMatched }
        return .json(["requests": entries.map(ServeEventJSON.loggedRequest), "requestJournalDisabled": false])
    }

    /// The closest stubs of every request no stub answered, with HTTPMock's report of each request in
    /// `httpmock.reports` (it also names what has no near miss: no stub at all, refused registrations).
    private static func nearMisses(_ context: AdminContext) -> AdminReply {
        let entries = context.mock.journal.filter { !$0.resolution.isMatched }
        return .json([
            "nearMisses": entries.flatMap { entry in
                ServeEventJSON.nearMisses(entry) { stub in
                    context.state.mappings.mapping(forStub: stub).map(MappingsResource.object)
                }
            },
            "httpmock": ["reports": entries.compactMap { $0.report?.description }],
        ])
    }
}
#endif
