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

    /// `{"scenarios": [{"id", "name", "state", "possibleStates"}]}`; WireMock's `id` is the name.
    private static func list(_ context: AdminContext) -> AdminReply {
        .json(["scenarios": context.mock.scenarios.map { scenario in
            ["id": scenario.name, "name": scenario.name, "state": scenario.state, "possibleStates": scenario.possibleStates]
        }])
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
