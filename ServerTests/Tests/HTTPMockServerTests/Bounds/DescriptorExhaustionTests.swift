import Foundation
import Testing

/// `httpmock serve` under `ulimit -n 64`, flooded with more connections than it has descriptors for.
@Suite("Out of file descriptors, the server keeps serving its connections and accepts again once some close",
       .disabled(if: runsUnderAddressSanitizer, "launches processes"))
struct DescriptorExhaustionTests {
    @Test("100 connections held against a limit of 64: an open connection is still answered, and a new one once they close")
    func floodedPastTheLimit() async throws {
        let folder = try temporaryFolder([
            "mappings/ok.json": #"{"request": {"method": "GET", "url": "/ok"}, "response": {"status": 200, "body": "ok"}}"#,
        ])
        let child = try ChildProcess("httpmock", arguments: ["serve", "--no-admin-api", folder.path], descriptorLimit: 64)
        let line = try await child.nextLine()
        let port = try #require(URL(string: line)?.port, "the first line is the base URL: \(line)")
        let request = "GET /ok HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

        let first = try #require(await offPool { RawConnection(port: port) })
        #expect(await offPool { first.send(request) })
        #expect(await offPool { first.nextResponse(keepingBody: true) }?.body == Array("ok".utf8))

        do {
            // Connections past the limit wait in the listening socket's backlog: connect succeeds, accept fails.
            let flood = await offPool { (0..<100).compactMap { _ in RawConnection(port: port, readTimeout: 5) } }
            #expect(flood.count == 100)
            // While accept fails, the connection the server has is served.
            for _ in 0..<3 {
                #expect(await offPool { first.send(request) })
                #expect(await offPool { first.nextResponse(keepingBody: true) }?.body == Array("ok".utf8))
            }
            // A connection in the backlog is not answered while the descriptors are out.
            let waiting = try #require(flood.last)
            #expect(await offPool { waiting.send(request) })
            #expect(await offPool { waiting.nextResponse() } == nil)
        }

        // Once they close, the server accepts again.
        let late = try #require(await offPool { RawConnection(port: port) })
        #expect(await offPool { late.send(request) })
        #expect(await offPool { late.nextResponse(keepingBody: true) }?.body == Array("ok".utf8))
        #expect(await child.terminate() == 0)
    }
}
