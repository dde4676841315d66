import Foundation
import HTTPMock
import HTTPMockServer
import Testing

@Suite("A client that pipelines requests and does not read holds 64 KiB and one response at most in the server")
struct PipeliningTests {
    @Test("fifty pipelined requests for a 5 MB body: one answered while the client reads nothing, all fifty in order once it reads")
    func pipelinedLargeResponses() async throws {
        let mock = HTTPMock()
        let body = Data(repeating: UInt8(ascii: "x"), count: 5 << 20)
        for index in 0..<50 {
            mock.addResponses(forPath: "/big/\(index)") {
                MockResponse(status: 200, headers: ["X-Index": String(index)], body: body, lifetime: .eternal)
            }
        }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let port = server.port
            let connection = try #require(await offPool { RawConnection(port: port, receiveBuffer: 64 * 1024) })
            let requests = (0..<50).map { "GET /big/\($0) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" }.joined()
            #expect(await offPool { connection.send(requests) })
            // The first request is answered; its body cannot leave while the client reads nothing.
            while mock.journal.isEmpty { try await Task.sleep(nanoseconds: 10_000_000) }
            try await Task.sleep(nanoseconds: 500_000_000)
            #expect(mock.journal.count <= 2, "answered while the client read nothing: \(mock.journal.count)")
            let indexes = await offPool {
                (0..<50).map { _ in connection.nextResponse().map { "\($0.status) \($0.headers["x-index"] ?? "-") \($0.bodySize)" } ?? "none" }
            }
            #expect(indexes == (0..<50).map { "200 \($0) \(5 << 20)" })
            #expect(mock.journal.count == 50)
        }
    }
}
