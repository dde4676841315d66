import Foundation
import HTTPMock
import HTTPMockServer

/// Runs `body` with an HTTPMockServer whose admin API is on (and `configure` applied), serving `GET /ok`.
func withAdminServer(_ configure: (inout HTTPMockServer.Configuration) -> Void = { _ in },
                     _ body: (HTTPMockServer, HTTPMock) async throws -> Void) async throws {
    let mock = HTTPMock()
    mock.addResponses(forPath: "/ok") { MockResponse.plaintext("ok", lifetime: .eternal) }
    var configuration = HTTPMockServer.Configuration(adminAPI: true)
    configure(&configuration)
    try await HTTPMockServer.withServer(serving: mock, configuration: configuration) { server in
        try await body(server, mock)
    }
}

/// The reply to one request, written as `lines` (`Connection: close` added, and `Content-Length` for `body`), on a
/// connection of its own.
func rawReply(_ server: HTTPMockServer, _ lines: [String], body: String = "") async -> String {
    var head = lines + ["Connection: close"]
    if !body.isEmpty { head.append("Content-Length: \(body.utf8.count)") }
    let text = head.joined(separator: "\r\n") + "\r\n\r\n" + body
    return await RawSocket.exchange(port: server.port, sending: Array(text.utf8)).reply
}
