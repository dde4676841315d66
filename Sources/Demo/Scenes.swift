import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock

/// The demo's scenes: each registers mocks, runs the unchanged client against them and says what happened.
enum Scenes {
    static let base = URL(string: "https://jsonplaceholder.test")!

    /// JSON bodies for posts, albums and to-dos, as a preview or an offline demo mode would serve them.
    static func previewData() async {
        let mock = HTTPMock()
        mock.registerResponses {
            Host("jsonplaceholder.test") {
                Headers(["X-Served-By": "HTTPMock"], cascade: true)
                Path("/posts") {
                    MockResponse.encodable([Post(userId: 1, id: 1, title: "Mocking URLSession on Linux")], lifetime: .eternal)
                }
                Path("/albums") {
                    MockResponse.encodable([Album(userId: 1, id: 7, title: "FAKE NETWORK MOCK DATA")], lifetime: .eternal)
                }
                Path("/todos") {
                    MockResponse.encodable([ToDo(userId: 1, id: 3, title: "Write the tests", completed: true),
                                            ToDo(userId: 1, id: 4, title: "Ship it", completed: false)], lifetime: .eternal)
                }
            }
        }
        let client = DemoAPIClient(baseURL: base, session: mock.urlSession)
        do {
            let posts = try await client.fetchPosts()
            let albums = try await client.fetchAlbums()
            let todos = try await client.fetchToDos()
            say("1. Preview data", [
                "posts:  \(posts.map(\.title))",
                "albums: \(albums.map(\.title))",
                "todos:  \(todos.filter(\.completed).count) of \(todos.count) done",
                "the client never knew: it got a URLSession and a base URL, nothing else",
            ])
        } catch {
            say("1. Preview data", ["unexpected: \(error)"])
        }
    }

    /// The same endpoint answers 503 first and 200 next: the client's retry is exercised for real.
    static func retryAfterServiceUnavailable() async {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/posts/", host: "jsonplaceholder.test") {
            MockResponse.plaintext("busy, try again", status: .serviceUnavailable)
            MockResponse.encodable([Post(userId: 2, id: 9, title: "Second time lucky")])
        }
        let client = DemoAPIClient(baseURL: base, session: mock.urlSession, retries: 1)
        do {
            let posts = try await client.fetchPosts()
            let statuses = mock.journal.compactMap(\.statusCode)
            say("2. Retry", [
                "the server answered \(statuses.map(String.init).joined(separator: ", then ")) to the same URL",
                "the client retried and got: \(posts.map(\.title))",
            ])
        } catch {
            say("2. Retry", ["unexpected: \(error)"])
        }
    }

    /// The device is offline: the request fails with the URLError a real session would give.
    static func offline() async {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/albums/", host: "jsonplaceholder.test",
                          responses: [.failure(URLError(.notConnectedToInternet), delivery: .delayed(0.2))])
        let client = DemoAPIClient(baseURL: base, session: mock.urlSession)
        do {
            _ = try await client.fetchAlbums()
            say("3. Offline", ["unexpected: albums arrived"])
        } catch {
            say("3. Offline", ["after a simulated 0.2 s wait, fetching albums failed with \(error)",
                               "so the app's offline state can be previewed without a network"])
        }
    }

    /// A request nobody mocked, under a strict policy: it fails loudly instead of reaching the network.
    static func strictPolicy() async {
        let mock = HTTPMock()
        mock.unmockedPolicy = .fail(URLError(.resourceUnavailable))
        mock.addResponses(forPath: "/posts/", host: "jsonplaceholder.test", responses: [.encodable([Post]())])
        let client = DemoAPIClient(baseURL: base, session: mock.urlSession)
        var lines: [String] = []
        do {
            _ = try await client.fetchToDos()
            lines.append("unexpected: to-dos arrived")
        } catch {
            lines.append("to-dos were never mocked, so the strict policy failed the request: \(error)")
        }
        if case .unmatched(let reason)? = mock.journal.last?.resolution {
            lines.append("the journal says why:")
            lines += reason.split(separator: "\n").map { "  " + $0 }
        }
        say("4. Strict policy", lines)
    }

    static func say(_ title: String, _ lines: [String]) {
        print("\n== \(title)")
        for line in lines { print("   \(line)") }
    }
}
