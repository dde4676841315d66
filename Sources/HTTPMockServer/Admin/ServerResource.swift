#if Server
import Foundation
import HTTPMock

/// `/__admin/reset` and `/__admin/shutdown`: the server as a whole.
enum ServerResource {
    static let routes: [AdminRoute] = [
        // What every resource keeps: the journal, the mappings created over the API and the scenario states. Stubs
        // registered in code or loaded from files stay, as WireMock keeps its file mappings.
        AdminRoute("POST", "reset") { _, _, context in
            AdminAPI.resetAll(context)
            return .ok
        },
        // Answers, then stops the server: `waitUntilStopped()` returns, and `httpmock serve` exits.
        AdminRoute("POST", "shutdown") { _, _, _ in
            AdminReply(status: 200, body: Data(), then: .shutdown)
        },
    ]
}
#endif
