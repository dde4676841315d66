import Foundation
import HTTPMock
import HTTPMockServer
import HTTPMockTesting
import Testing

/// What a UI test does with an app it launches: the app (`AppUnderTest`, a process of its own) talks to the
/// server's base URL with its ordinary URLSession; the test owns the mock, changes it while the app runs, and asserts
/// on what the app sent.
@Suite("an app in another process against a test's HTTPMockServer", .disabled(if: runsUnderAddressSanitizer, "launches processes"))
struct UITestingTests {
    @Test("stubs changed while the app runs, through the Swift API and the admin API (POST, PUT, DELETE /__admin/mappings); assertions on what it sent")
    func appUnderTest() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/user", host: "api.example.com") { MockResponse.plaintext("Alice", lifetime: .eternal) }
        let configuration = HTTPMockServer.Configuration(origin: "https://api.example.com", adminAPI: true)
        try await HTTPMockServer.withServer(serving: mock, configuration: configuration) { server in
            let app = try ChildProcess("AppUnderTest", environment: ["API_BASE_URL": server.baseURL.absoluteString])

            app.send("GET /user")
            #expect(try await app.nextLine() == "200 Alice")
            HTTPAssertRequested("https://api.example.com/user", method: .get, headers: ["X-Client": "AppUnderTest/1.0"],
                                count: .exactly(1), in: mock)

            // The server's state changes while the app runs: its next request gets the new stub.
            mock.clearQueues()
            mock.addResponses(forPath: "/user", host: "api.example.com") { MockResponse.plaintext("Bob", lifetime: .eternal) }
            mock.addResponses(forPath: "/notes", host: "api.example.com", method: .post) {
                MockResponse.plaintext("saved", status: .created)
            }
            app.send("GET /user")
            #expect(try await app.nextLine() == "200 Bob")

            // Wait for what an action of the app causes, as a UI test waits after a tap.
            app.send("POST /notes buy milk")
            let note = await waitForResponse(url: "https://api.example.com/notes", method: .post, in: mock, timeout: 120)
            #expect(note?.request.bodyText == "buy milk")
            #expect(note?.statusCode == 201)
            #expect(try await app.nextLine() == "201 saved")

            // The admin API, with plain HTTP as any tool would: the journal the app filled, in WireMock's shape...
            let listed = try #require(try await call("GET", server.baseURL.adding("/__admin/requests")).json)
            let requests = try #require(listed["requests"] as? [[String: Any]])
            #expect(requests.count == 3)
            let newest = try #require(requests.first?["request"] as? [String: Any])
            #expect(newest["url"] as? String == "/notes")
            #expect((newest["headers"] as? [String: Any])?["X-Client"] as? String == "AppUnderTest/1.0")
            // ...cleared...
            #expect(try await call("DELETE", server.baseURL.adding("/__admin/requests")).status == 200)
            HTTPAssertNotRequested("https://api.example.com/user", in: mock)
            // ...and a delay before every response, which the app's next request waits out.
            #expect(try await call("POST", server.baseURL.adding("/__admin/settings"), body: #"{"fixedDelay": 200}"#).status == 200)
            app.send("GET /user")
            #expect(try await app.nextLine() == "200 Bob")
            let delayed = try #require(HTTPAssertRequestedOnce("https://api.example.com/user", in: mock))
            #expect(try #require(delayed.completedAt).timeIntervalSince(delayed.receivedAt) >= 0.2)

            // Stubs created, edited and removed over the admin API, as a WireMock client does, while the app runs.
            let flags = """
                {
                    "request": {
                        "method": "GET",
                        "url": "/flags"
                    },
                    "response": {
                        "status": 200,
                        "body": "dark mode"
                    }
                }
                """
            let created = try await call("POST", server.baseURL.adding("/__admin/mappings"), body: flags)
            #expect(created.status == 201)
            let id = try #require(created.json?["id"] as? String)
            app.send("GET /flags")
            #expect(try await app.nextLine() == "200 dark mode")
            let edited = flags.replacingOccurrences(of: "dark mode", with: "light mode")
            #expect(try await call("PUT", server.baseURL.adding("/__admin/mappings/\(id)"), body: edited).status == 200)
            app.send("GET /flags")
            #expect(try await app.nextLine() == "200 light mode")
            #expect(try await call("DELETE", server.baseURL.adding("/__admin/mappings/\(id)")).status == 200)
            app.send("GET /flags")
            #expect(try await app.nextLine().hasPrefix("404 "))
            HTTPAssertRequested("https://api.example.com/flags", method: .get, headers: ["X-Client": "AppUnderTest/1.0"],
                                count: .exactly(3), in: mock)
            let answered = HTTPRequests(url: "https://api.example.com/flags", in: mock).map(\.statusCode)
            #expect(answered == [200, 200, 404])

            app.send("quit")
            #expect(await app.waitForExit() == 0)
        }
    }
}
