#if Server
import Foundation
import HTTPMock

/// `/__admin/scenarios`: the mock's scenarios (``HTTPMock/HTTPMock/scenarios``), those of WireMock mappings and of
/// stubs registered in Swift alike, in WireMock's shapes.
enum ScenariosResource {
    static let routes: [AdminRoute] = [
        AdminRoute("GET", "scenarios") { _, _, context in list(context) },
        AdminRoute("POST", "scenarios/reset") { _, _, context in
            reset(context)
            return .json([String: Any]())
        },
        AdminRoute("PUT", "scenarios/{name}/state") { request, parameters, context throws(AdminError) in
            try setState(of: parameters["name"] ?? "", request, context)
        },
    ]

    /// `POST /__admin/reset` puts every scenario back in `Started`.
    static func reset(_ context: AdminContext) {
        context.mock.resetScenarios()
    }

    /// `{"scenarios": [{"id", "mappings", "name", "possibleStates", "state"}]}`, in the order they were first named;
    /// WireMock's `id` is the name. As WireMock 2.35.1 lists a scenario: `mappings` are those that name it, in the
    /// order they were registered, each as `GET /__admin/mappings` lists it (a stub registered in code as
    /// `{"name": <its summary>}`); `possibleStates` the states they move it to, then those they require, each once,
    /// in that order (`Started` only where one names it).
    private static func list(_ context: AdminContext) -> AdminReply {
        let scenarios = context.mock.scenarios
        let stubs = context.mock.scenarioStubs
        let mappings = listedMappings(of: stubs, context)
        // Each scenario's stubs, in registration order: one pass over them.
        var stubsNaming: [String: [ListedStub]] = [:]
        for stub in stubs {
            var names = Set<String>()
            for point in stub.movesTo + stub.requiredStates where names.insert(point.scenario).inserted {
                stubsNaming[point.scenario, default: []].append(stub)
            }
        }
        var json = JSONBytes()
        json.object { json in
            json.key("scenarios")
            json.array { json in
                for scenario in scenarios {
                    let naming = stubsNaming[scenario.name] ?? []
                    json.object { json in
                        json.member("id", scenario.name)
                        json.key("mappings")
                        json.array { json in
                            var seen = Set<UUID>()
                            for stub in naming {
                                if let mapping = mappings[stub.id] {
                                    // A mapping that became several stubs is listed once.
                                    if seen.insert(mapping.id).inserted { json.raw(mapping.json) }
                                } else {
                                    json.object { json in json.member("name", stub.summary) }
                                }
                            }
                        }
                        json.member("name", scenario.name)
                        json.key("possibleStates")
                        json.array { json in
                            var seen = Set<String>()
                            let moves = naming.flatMap(\.movesTo), required = naming.flatMap(\.requiredStates)
                            for point in moves + required where point.scenario == scenario.name && seen.insert(point.state).inserted {
                                json.string(point.state)
                            }
                        }
                        json.member("state", scenario.state)
                    }
                }
            }
        }
        return .json(json)
    }

    /// The listed mapping each of `stubs` is: one created over the admin API, by its stub; one of the served
    /// folder's files, by where its stub was loaded from.
    private static func listedMappings(of stubs: [ListedStub], _ context: AdminContext) -> [StubID: (id: UUID, json: Data)] {
        guard !stubs.isEmpty else { return [:] }
        var found = context.state.mappings.mappings(forStubs: Set(stubs.map(\.id)))
        let loaded = stubs.filter { found[$0.id] == nil && $0.loadedFrom != nil }
        if !loaded.isEmpty {
            let folder = MappingLinks.bySource(MappingsResource.folderMappings(context).map(\.mapping))
            for stub in loaded {
                if let place = stub.loadedFrom, let mapping = MappingLinks.mapping(loadedFrom: place, in: folder) {
                    found[stub.id] = mapping
                }
            }
        }
        var written: [UUID: Data] = [:]
        return found.mapValues { mapping in
            let json = written[mapping.id] ?? mapping.json
            written[mapping.id] = json
            return (mapping.id, json)
        }
    }

    /// `{"state": "…"}` puts the scenario in that state, one its stubs mention; no body puts it back in `Started`.
    /// A scenario no stub names gets 404, a state no stub mentions 422, as in WireMock.
    private static func setState(of name: String, _ request: AdminRequest, _ context: AdminContext) throws(AdminError) -> AdminReply {
        guard let scenario = context.mock.scenarios.first(where: { $0.name == name }) else {
            let known = context.mock.scenarios.map { "'\($0.name)'" }
            throw AdminError(status: 404, code: 404, title: "Scenario \(name) does not exist",
                             detail: known.isEmpty ? "no stub names a scenario" : "the scenarios are " + known.joined(separator: ", "))
        }
        guard let body = request.body, !body.isEmpty else {
            do {
                try context.mock.resetScenario(name)
            } catch {
                throw AdminError(status: 404, code: 404, title: "Scenario \(name) does not exist", detail: error.message)
            }
            return .json([String: Any]())
        }
        let object = try request.jsonObject()
        guard let state = object["state"] as? String else {
            throw AdminError.invalidJSON(pointer: "/state", detail: "send {\"state\": \"…\"} with one of the states: \(scenario.possibleStates.joined(separator: ", "))")
        }
        guard scenario.possibleStates.contains(state) else {
            throw AdminError(status: 422, code: 11, pointer: "/state", title: "Scenario \(name) does not support state \(state)",
                             detail: "its states are \(scenario.possibleStates.joined(separator: ", "))")
        }
        do {
            try context.mock.setScenarioState(state, of: name)
        } catch {
            // The last stub naming it went away since it was looked up.
            throw AdminError(status: 404, code: 404, title: "Scenario \(name) does not exist", detail: error.message)
        }
        return .json([String: Any]())
    }
}
#endif
