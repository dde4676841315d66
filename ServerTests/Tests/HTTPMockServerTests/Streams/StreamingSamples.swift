import Foundation
import HTTPMock
import HTTPMockServer
import Testing

/// The streaming sample of the Serving over HTTP article, run with a client reading over the socket.
@Suite struct StreamingSamples {
    @Test func aStreamOverTheSocket() async throws {
        let mock = HTTPMock()
        let stream = MockStream()
        mock.addResponses(forPath: "/chat") { MockResponse.events(from: stream) }
        try await HTTPMockServer.withServer(serving: mock) { server in
            // the client under test connects to server.baseURL and reads /chat…
            let client = SocketStreamClient(server.baseURL.appendingPathComponent("chat"))
            await stream.waitForClient()
            await stream.send(ServerSentEvent("first"))
            await stream.send(ServerSentEvent("last"))
            stream.finish()
            await client.waitForEnd()
            #expect(client.text == "data: first\n\ndata: last\n\n")
        }
    }
}
