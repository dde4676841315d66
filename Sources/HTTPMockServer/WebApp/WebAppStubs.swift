#if Server
import Foundation
import HTTPMock

/// The traffic page's listings of what the mock holds, read from the engine (``HTTPMock/stubListing(offset:limit:)``,
/// ``HTTPMock/scenarioGraphs``), one page at a time:
///
/// - `GET /__admin/webapp/stubs?offset=0&limit=100`: every stub, those registered in Swift code, loaded from files
///   and created over the admin API alike, in registration order: `{"meta": {"total", "offset", "limit"},
///   "mockEnabled", "stubs": [{"id", "summary", "route", "name"?, "hits", "enabled", "remainingResponses",
///   "servesForever", "source": {"kind": "code" | "file" | "adminAPI", "place"?, "mappingId"?}, "requiredStates":
///   [{"scenario", "state"}], "movesTo": [{"scenario", "state"}]}]}`.
/// - `GET /__admin/webapp/scenarios?offset=0&limit=100`: every scenario with the moves its stubs make:
///   `{"meta": {"total", "offset", "limit"}, "scenarios": [{"name", "state", "possibleStates", "transitionCount",
///   "transitions": [{"stub", "summary", "route", "from" (null: any state), "to"}]}]}`, at most
///   ``mostTransitions`` transitions each.
///
/// Names, summaries and places come from stubs and files, which anyone may have written: they go out as JSON
/// strings, and the page shows them as text.
enum WebAppStubs {
    static let defaultLimit = 100
    static let mostLimit = 500
    static let mostTransitions = 200

    /// `offset` and `limit` of `request`: 0 and ``defaultLimit`` when absent; a 400 naming the parameter when it is
    /// not a whole number or `limit` is over ``mostLimit``.
    static func page(of request: AdminRequest, counting what: String) throws(AdminError) -> (offset: Int, limit: Int) {
        let offset = try request.wholeNumber("offset", counting: what) ?? 0
        let limit = try request.wholeNumber("limit", counting: what) ?? defaultLimit
        guard limit <= mostLimit else {
            throw AdminError(status: 400, code: 10, pointer: "limit", title: "Invalid parameter",
                             detail: "limit=\(limit) is over \(mostLimit) \(what) a page; ask for at most \(mostLimit) and page with offset")
        }
        return (offset, limit)
    }

    static func stubs(_ request: AdminRequest, mock: HTTPMock, mappings: MappingStore) -> AdminReply {
        let offset: Int, limit: Int
        do {
            (offset, limit) = try page(of: request, counting: "stubs")
        } catch {
            return error.reply
        }
        let listing = mock.stubListing(offset: offset, limit: limit)
        let created = mappings.mappings(forStubs: Set(listing.stubs.filter { $0.loadedFrom != nil }.map(\.id)))
        var json = JSONBytes(capacity: 256 + listing.stubs.count * 384)
        json.object { json in
            writeMeta(total: listing.total, offset: offset, limit: limit, into: &json)
            json.member("mockEnabled", listing.mockIsEnabled)
            json.key("stubs")
            json.array { json in
                for stub in listing.stubs {
                    json.object { json in
                        json.member("enabled", stub.isEnabled)
                        json.member("hits", stub.hits)
                        json.member("id", stub.id.description)
                        json.key("movesTo")
                        writeStates(stub.movesTo, into: &json)
                        let mapping = created[stub.id]
                        if let name = mapping?.name ?? stub.loadedFrom.flatMap(mappingName(in:)) { json.member("name", name) }
                        json.member("remainingResponses", stub.remainingResponses)
                        json.key("requiredStates")
                        writeStates(stub.requiredStates, into: &json)
                        json.member("route", stub.route)
                        json.member("servesForever", stub.servesForever)
                        json.key("source")
                        json.object { json in
                            if let mapping {
                                json.member("kind", "adminAPI")
                                json.member("mappingId", mapping.id.lowercasedText)
                            } else if let place = stub.loadedFrom {
                                json.member("kind", "file")
                                json.member("place", place)
                            } else {
                                json.member("kind", "code")
                            }
                        }
                        json.member("summary", stub.summary)
                    }
                }
            }
        }
        return .json(json)
    }

    static func scenarios(_ request: AdminRequest, mock: HTTPMock) -> AdminReply {
        let offset: Int, limit: Int
        do {
            (offset, limit) = try page(of: request, counting: "scenarios")
        } catch {
            return error.reply
        }
        let graphs = mock.scenarioGraphs
        var json = JSONBytes()
        json.object { json in
            writeMeta(total: graphs.count, offset: offset, limit: limit, into: &json)
            json.key("scenarios")
            json.array { json in
                for graph in graphs.dropFirst(offset).prefix(limit) {
                    json.object { json in
                        json.member("name", graph.name)
                        json.key("possibleStates")
                        json.array { json in for state in graph.possibleStates { json.string(state) } }
                        json.member("state", graph.state)
                        json.member("transitionCount", graph.transitions.count)
                        json.key("transitions")
                        json.array { json in
                            for transition in graph.transitions.prefix(mostTransitions) {
                                json.object { json in
                                    json.key("from")
                                    if let from = transition.from { json.string(from) } else { json.raw(Data("null".utf8)) }
                                    json.member("route", transition.route)
                                    json.member("stub", transition.stub.description)
                                    json.member("summary", transition.summary)
                                    json.member("to", transition.to)
                                }
                            }
                        }
                    }
                }
            }
        }
        return .json(json)
    }

    private static func writeMeta(total: Int, offset: Int, limit: Int, into json: inout JSONBytes) {
        json.key("meta")
        json.object { json in
            json.member("limit", limit)
            json.member("offset", offset)
            json.member("total", total)
        }
    }

    private static func writeStates(_ states: [ListedStub.ScenarioState], into json: inout JSONBytes) {
        json.array { json in
            for state in states {
                json.object { json in
                    json.member("scenario", state.scenario)
                    json.member("state", state.state)
                }
            }
        }
    }

    /// The mapping's name in a WireMock file's place (`mappings/users.json, mapping "Get user"`), if it gives one.
    static func mappingName(in place: String) -> String? {
        guard let start = place.range(of: ", mapping \""), place.hasSuffix("\""), place.count > 1 else { return nil }
        let name = place[start.upperBound...].dropLast()
        return name.isEmpty ? nil : String(name)
    }
}
#endif
