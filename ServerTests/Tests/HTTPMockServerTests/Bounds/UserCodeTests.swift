import Foundation
import HTTPMock
import HTTPMockServer
import Testing

/// One test at a time: each holds decisions in user code until it lets go.
@Suite("User code (matchers, regular expressions, dynamic responses) runs off the server's event loops", .serialized)
struct UserCodeTests {
    @Test("matchers stuck in user code hold up their own requests only: a plain request sent afterwards is answered first")
    func stuckMatcherHoldsItsOwnRequest() async throws {
        let mock = HTTPMock()
        let gate = Gate()
        try mock.stub(.path("/slow"), .custom("held by the test") { _ in gate.pass() }, responses: [.plaintext("slow", lifetime: .eternal)])
        mock.addResponses(forPath: "/ok") { MockResponse.plaintext("ok", lifetime: .eternal) }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let port = server.port
            // Two held requests: as many as the server has event loops on two cores, which they stopped before.
            let slow = (0..<2).map { _ in
                Task { await RawSocket.exchange(port: port, sending: Array("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)) }
            }
            #expect(await offPool { gate.waitUntilHolding(2) })
            let ok = await RawSocket.exchange(port: port, sending: Array("GET /ok HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8),
                                              readTimeout: 300)
            #expect(ok.reply.hasPrefix("HTTP/1.1 200"))
            #expect(ok.reply.hasSuffix("ok"))
            #expect(mock.journal.count == 1, "only /ok is decided while the matcher holds the others")
            gate.openUp()
            for request in slow {
                let reply = await request.value.reply
                #expect(reply.hasPrefix("HTTP/1.1 200") && reply.hasSuffix("slow"))
            }
        }
    }

    @Test("requests that backtrack in a regular expression get 500 naming the stub once they run past the budget; a plain request sent while they are decided is answered first")
    func catastrophicRegex() async throws {
        let mock = HTTPMock()
        let gate = Gate()
        // The gate holds each slow request on the decision pool until the plain one is answered, so the order of
        // the answers does not hang on how fast this machine backtracks; then the expression runs past its budget.
        try mock.stub(.custom("held by the test") { _ in gate.pass() }, .urlRegex("/r/(a+)+$"),
                      responses: [.plaintext("matched", lifetime: .eternal)])
        mock.addResponses(forPath: "/ok") { MockResponse.plaintext("ok", lifetime: .eternal) }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let port = server.port
            let order = Arrivals()
            // Without a budget, ICU would take minutes on each.
            let slowTarget = "/r/" + String(repeating: "a", count: 30) + "b"
            let slow = (0..<2).map { index in
                Task {
                    let reply = await RawSocket.exchange(port: port, sending: Array("GET \(slowTarget) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
                    order.append("slow \(index)")
                    return reply.reply
                }
            }
            #expect(await offPool { gate.waitUntilHolding(2) })
            let ok = await RawSocket.exchange(port: port, sending: Array("GET /ok HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8),
                                              readTimeout: 300)
            order.append("ok")
            #expect(ok.reply.hasSuffix("ok"))
            gate.openUp()
            for request in slow {
                let reply = await request.value
                #expect(reply.hasPrefix("HTTP/1.1 500"))
                #expect(reply.contains("/r/(a+)+$") && reply.contains("budget") && reply.contains("#"))
            }
            #expect(order.names.first == "ok", "answered in the order \(order.names)")
            #expect(order.names.count == 3)
            let refused = mock.journal.filter { $0.statusCode == 500 }
            #expect(refused.count == 2)
        }
    }
}
