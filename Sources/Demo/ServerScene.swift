import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock
#if Server
import HTTPMockServer
#endif

extension Scenes {
    /// The same kind of mock served over real HTTP on 127.0.0.1, to a client with no mock in its session: what a
    /// server-side Swift client, an app under UI test in another process, or curl gets.
    static func overRealHTTP() async {
        #if Server
        let mock = HTTPMock()
        mock.addResponses(forPath: "/posts/", host: "jsonplaceholder.test") {
            MockResponse.encodable([Post(userId: 3, id: 12, title: "Served over a socket")], lifetime: .eternal)
        }
        do {
            let server = try await HTTPMockServer.start(
                serving: mock, configuration: .init(origin: "https://jsonplaceholder.test"))
            // A plain session: no URLProtocol, no mock; the request crosses a real TCP connection.
            let session = URLSession(configuration: .ephemeral)
            let client = DemoAPIClient(baseURL: server.baseURL, session: session)
            let posts = try await client.fetchPosts()
            let entry = mock.journal.last
            await server.stop()
            say("5. Over real HTTP", [
                "HTTPMockServer listened on \(server.baseURL.absoluteString) (loopback only)",
                "a URLSession with no mock in it fetched: \(posts.map(\.title))",
                "the mock's journal has it as \(entry?.request.method ?? "?") \(entry?.request.url.absoluteString ?? "?")",
            ])
        } catch {
            say("5. Over real HTTP", ["unexpected: \(error)"])
        }
        #else
        say("5. Over real HTTP", [
            "the same mocks can be served on 127.0.0.1 to clients that are not a URLSession (AsyncHTTPClient,",
            "another process, curl): run `swift run --traits Server Demo` to see it (it builds SwiftNIO first)",
        ])
        #endif
    }
}
