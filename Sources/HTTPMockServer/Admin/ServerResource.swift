#if Server
import Foundation
import HTTPMock

/// `/__admin/reset`, `/__admin/shutdown`, `/__admin/health` and `/__admin/version`: the server as a whole.
enum ServerResource {
    /// When this process's first server started, for `uptimeInSeconds`.
    private static let started = Date()

    static let routes: [AdminRoute] = [
        // WireMock's health check: a tool polls it until the server is up.
        AdminRoute("GET", "health") { _, _, _ in
            .json(["status": "healthy", "message": "HTTPMock is ok", "version": PackageVersion.current,
                   "uptimeInSeconds": Int(Date().timeIntervalSince(started)),
                   "timestamp": ISO8601DateFormatter().string(from: Date())])
        },
        AdminRoute("GET", "version") { _, _, _ in .json(["version": PackageVersion.current]) },
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
