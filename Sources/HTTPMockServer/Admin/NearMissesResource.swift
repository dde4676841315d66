#if Server
import Foundation
import HTTPMock

/// `/__admin/near-misses`: how close the stubs come to a request that was never sent, and how close the logged
/// requests come to a request pattern, in WireMock's shapes.
enum NearMissesResource {
    static let routes: [AdminRoute] = [
        AdminRoute("POST", "near-misses/request") { request, _, context throws(AdminError) in try stubsClosest(request, context) },
        AdminRoute("POST", "near-misses/request-pattern") { request, _, context throws(AdminError) in
            try requestsClosest(request, context)
        },
    ]

    /// The stubs closest to the logged request in the body (`{"url", "method", "headers", "body"}`, or
    /// `absoluteUrl`), at most three: `{"nearMisses": [{"request", "stubMapping", "matchResult": {"distance"}}]}`.
    private static func stubsClosest(_ request: AdminRequest, _ context: AdminContext) throws(AdminError) -> AdminReply {
        let body = try request.jsonObject()
        var headers = HeaderFields()
        for (name, value) in body["headers"] as? [String: Any] ?? [:] {
            if let text = value as? String { headers.add(name, text) }
            if let texts = value as? [String] { for text in texts { headers.add(name, text) } }
        }
        let target = body["url"] as? String ?? "/"
        guard let url = (body["absoluteUrl"] as? String).flatMap(URL.init(string:))
                ?? context.matchedURL(target.hasPrefix("/") ? target : "/" + target, headers["Host"]) else {
            throw AdminError.invalidJSON(pointer: "/url", detail: "\(target) is not a request target such as /users?page=2")
        }
        let method = (body["method"] as? String ?? "GET").uppercased()
        let data = (body["bodyAsBase64"] as? String).flatMap { Data(base64Encoded: $0) } ?? (body["body"] as? String).map { Data($0.utf8) }
        let captured = CapturedRequest(method: method, url: url, headers: headers, body: data)
        let report = context.mock.nearMissReport(for: captured)
        let logged: [String: Any] = ["url": target, "absoluteUrl": url.absoluteString, "method": method]
        let links = MappingLinks(context)
        return .json([
            "nearMisses": report.closest.map { miss -> [String: Any] in
                [
                    "request": logged,
                    "stubMapping": links.mapping(forStub: miss.stub, summarized: miss.summary).map(MappingsResource.object) ?? ["name": miss.summary],
                    "matchResult": ["distance": (Double(NearMiss.fieldCount) - miss.closeness) / Double(NearMiss.fieldCount)],
                    "httpmock": ["stub": "\(miss.stub)", "differences": miss.differences.map(\.description)] as [String: Any],
                ]
            },
            "httpmock": ["report": report.description],
        ])
    }

    /// The logged requests closest to the request pattern in the body, at most three, closest first:
    /// `{"nearMisses": [{"request", "requestPattern", "matchResult": {"distance"}}]}`.
    private static func requestsClosest(_ request: AdminRequest, _ context: AdminContext) throws(AdminError) -> AdminReply {
        let pattern = try request.jsonObject()
        let predicate: RequestPredicate
        do {
            predicate = try RequestPredicate(try WireMockStubMapping.requestPattern(json: request.body ?? Data(), source: "the request pattern"))
        } catch {
            throw AdminError.unreadable(error)
        }
        let scored = context.mock.journal.map { entry -> (entry: JournalEntry, differences: [FieldDifference]) in
            (entry, predicate.differences(from: entry.request))
        }
        let closest = scored.sorted { $0.differences.count < $1.differences.count }.prefix(3)
        let count = max(predicate.conditionCount, 1)
        return .json([
            "nearMisses": closest.map { item -> [String: Any] in
                [
                    "request": ServeEventJSON.loggedRequest(item.entry),
                    "requestPattern": pattern,
                    "matchResult": ["distance": Double(item.differences.count) / Double(count)],
                    "httpmock": ["differences": item.differences.map(\.description)],
                ]
            },
        ])
    }
}
#endif
