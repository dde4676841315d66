import Foundation
import FlyingFox
import FlyingSocks

/// A real HTTP server on 127.0.0.1 and an ephemeral port, with a few routes whose answers change over time and
/// carry secrets, for recording tests.
final class LoopbackServer: Sendable {
    let server: HTTPServer
    let task: Task<Void, any Error>
    let port: UInt16

    var base: String { "http://127.0.0.1:\(port)" }

    private init(server: HTTPServer, task: Task<Void, any Error>, port: UInt16) {
        self.server = server
        self.task = task
        self.port = port
    }

    static func start() async throws -> LoopbackServer {
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 5, logger: .disabled)
        let counter = Counter()
        await server.appendRoute("GET /counter") { _ in
            let count = await counter.next()
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: Data(#"{"count":\#(count)}"#.utf8))
        }
        await server.appendRoute("POST /login") { request in
            let body = try await request.bodyData
            let name = (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["user"] as? String ?? "?"
            let authorised = request.headers[.authorization] == "Bearer top-secret"
            return HTTPResponse(
                statusCode: authorised ? .ok : .unauthorized,
                headers: [.contentType: "application/json", .setCookie: "sid=cookie-secret; Path=/; HttpOnly"],
                body: Data(#"{"user":"\#(name)","token":"server-secret","profile":{"api_key":"nested-secret","plan":"pro"}}"#.utf8)
            )
        }
        await server.appendRoute("GET /binary") { _ in
            HTTPResponse(statusCode: .ok, headers: [.contentType: "application/octet-stream"], body: Data([0, 1, 2, 0xFE, 0xFF]))
        }
        await server.appendRoute("GET /search") { request in
            let q = request.query.first { $0.name == "q" }?.value ?? ""
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "text/plain"], body: Data("results for \(q)".utf8))
        }
        let task = Task { try await server.run() }
        try await server.waitUntilListening()
        guard case .ip4(_, let port)? = await server.listeningAddress else {
            throw URLError(.cannotConnectToHost)
        }
        return LoopbackServer(server: server, task: task, port: port)
    }

    func stop() async {
        await server.stop(timeout: 0)
        task.cancel()
    }
}

private actor Counter {
    var value = 0
    func next() -> Int {
        value += 1
        return value
    }
}
