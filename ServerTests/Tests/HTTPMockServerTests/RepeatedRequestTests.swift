import AsyncHTTPClient
import Foundation
import HTTPMock
import HTTPMockServer
import HTTPMockTesting
import NIOCore
import Testing

// A connection sends its last URL and response again only while they are the same: whatever changes between two
// requests on one keep-alive connection (the response, the Host header, the mock's default domain) is seen.
@Suite("one keep-alive connection, requests and responses that change")
struct RepeatedRequestTests {
    @Test("a dynamic response is sent as built for each request, headers and body, on one connection")
    func dynamicResponses() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/echo", method: .post) { MockResponse.echo(lifetime: .eternal) }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        try await HTTPMockServer.withServer(serving: mock) { server in
            for text in ["one", "two", "two", "three!"] {
                var request = HTTPClientRequest(url: server.baseURL.appendingPathComponent("echo").absoluteString)
                request.method = .POST
                request.headers.add(name: "X-Answer", value: text)
                request.body = .bytes(ByteBuffer(string: text))
                let response = try await client.execute(request, timeout: .seconds(300))
                let body = try await response.body.collect(upTo: 1024)
                #expect(String(buffer: body) == text)
                #expect(response.headers.first(name: "X-Answer") == text)
                #expect(response.headers.first(name: "Content-Length") == String(text.utf8.count))
            }
            #expect(server.openConnections == 1)
        }
        try await client.shutdown()
    }

    @Test("the mock's default domain changed between two requests on one connection: the second is matched with it")
    func defaultDomainChanges() async throws {
        let mock = HTTPMock()
        mock.defaultDomain = "one.example"
        mock.addResponses(forPath: "/n", host: "one.example") { MockResponse.plaintext("one", lifetime: .eternal) }
        mock.addResponses(forPath: "/n", host: "two.example") { MockResponse.plaintext("two", lifetime: .eternal) }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        try await HTTPMockServer.withServer(serving: mock) { server in
            let url = server.baseURL.appendingPathComponent("n").absoluteString
            var bodies: [String] = []
            for domain in ["one.example", "two.example"] {
                mock.defaultDomain = domain
                let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(300))
                bodies.append(String(buffer: try await response.body.collect(upTo: 1024)))
            }
            #expect(bodies == ["one", "two"])
            #expect(server.openConnections == 1)
            #expect(mock.journal.map(\.request.url.absoluteString) == ["http://one.example/n", "http://two.example/n"])
        }
        try await client.shutdown()
    }

    @Test("requests sent together on one connection with the same target and other Host headers are matched per host")
    func hostChanges() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/n", host: "a.example") { MockResponse.plaintext("from a", lifetime: .eternal) }
        mock.addResponses(forPath: "/n", host: "b.example") { MockResponse.plaintext("from b", lifetime: .eternal) }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let requests = ["a.example", "a.example", "b.example", "127.0.0.1"].map { "GET /n HTTP/1.1\r\nHost: \($0)\r\n\r\n" }
            let last = "GET /n HTTP/1.1\r\nHost: b.example\r\nConnection: close\r\n\r\n"
            let (reply, _) = await RawSocket.exchange(port: server.port, sending: Array((requests.joined() + last).utf8))
            #expect(reply.components(separatedBy: "\r\n\r\nfrom a").count == 3)
            #expect(reply.components(separatedBy: "\r\n\r\nfrom b").count == 3)
            #expect(mock.journal.map(\.request.url.absoluteString)
                == ["http://a.example/n", "http://a.example/n", "http://b.example/n", "http://example.com/n", "http://b.example/n"])
            #expect(mock.journal.map(\.statusCode) == [200, 200, 200, 404, 200])
        }
    }
}
