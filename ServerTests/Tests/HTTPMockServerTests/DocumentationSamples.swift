import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock
import HTTPMockServer
import HTTPMockTesting
import Testing

@Test(.httpMock { mock in
    mock.addResponses(forPath: "/me", host: "api.example.com") { MockResponse.plaintext("Alice") }
})
func showsTheUser() async throws {
    let mock = try #require(HTTPMock.current)
    try await HTTPMockServer.withServer(serving: mock, configuration: .init(origin: "https://api.example.com")) { server in
        let response = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: server.baseURL.appendingPathComponent("me").absoluteString), timeout: .seconds(10))
        #expect(response.status.code == 200)
    }
}

/// The samples of the HTTPMockServer catalog, line for line (.ci/docs checks that each is here).
@Suite("HTTPMockServer documentation samples")
struct DocumentationSamples {
    struct User: Codable, Sendable {
        var id: Int
        var name: String
    }

    @Test("Serve a mock")
    func serveAMock() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/user", host: "api.example.com") {
            MockResponse.encodable(User(id: 1, name: "Alice"))
        }
        let server = try await HTTPMockServer.start(serving: mock, configuration: .init(origin: "https://api.example.com"))
        let (data, _) = try await URLSession(configuration: .ephemeral).data(from: server.baseURL.appendingPathComponent("user"))
        HTTPAssertRequested("https://api.example.com/user", in: mock)
        await server.stop()
        #expect(try JSONDecoder().decode(User.self, from: data).name == "Alice")
    }

    @Test("One server per test")
    func oneServerPerTest() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/user") { MockResponse.encodable(User(id: 1, name: "Alice")) }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: server.baseURL.appendingPathComponent("user").absoluteString), timeout: .seconds(10))
            #expect(response.status.code == 200)
        }
    }

    @Test("The README's sample")
    func readme() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/user", host: "api.example.com") { MockResponse.encodable(User(id: 1, name: "Alice")) }
        let server = try await HTTPMockServer.start(serving: mock, configuration: .init(origin: "https://api.example.com"))
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: server.baseURL.absoluteString + "/user"), timeout: .seconds(5))
        await server.stop()
        #expect(response.status.code == 200)
    }
}

/// The samples of the command line and admin API article, line for line.
@Suite("HTTPMockServer documentation samples: the command line, the admin API, other processes")
struct CommandLineDocumentationSamples {
    @Test("Record through a proxy")
    func recordThroughAProxy() async throws {
        let upstreamMock = HTTPMock()
        upstreamMock.addResponses(forPath: "/user") { MockResponse.plaintext("Alice") }
        let upstreamServer = try await HTTPMockServer.start(serving: upstreamMock)
        let upstream = upstreamServer.baseURL
        let recordings = try temporaryFolder()

        let mock = HTTPMock()
        let recording = try mock.startRecording(to: recordings, format: .wireMock, mode: .newRequests)
        let server = try await HTTPMockServer.start(serving: mock, configuration: .init(proxy: upstream))
        #expect(try await call("GET", server.baseURL.adding("/user")).text == "Alice")
        await server.stop()
        try recording.finish()

        await upstreamServer.stop()
        let mappings = recordings.appendingPathComponent("mappings")
        let files = try FileManager.default.contentsOfDirectory(atPath: mappings.path)
        let written = try String(contentsOf: mappings.appendingPathComponent(try #require(files.first)), encoding: .utf8)
        #expect(written.contains("Alice"))
    }

    @Test("Test an app in another process", .disabled(if: runsUnderAddressSanitizer, "launches a process"))
    func appInAnotherProcess() async throws {
        let appExecutable = try ChildProcess.executable("AppUnderTest")

        let mock = HTTPMock()
        mock.addResponses(forPath: "/user", host: "api.example.com") {
            MockResponse.plaintext("Alice", lifetime: .eternal)
        }
        let server = try await HTTPMockServer.start(
            serving: mock, configuration: .init(origin: "https://api.example.com", adminAPI: true))
        let app = Process()
        app.executableURL = appExecutable
        app.environment = ["API_BASE_URL": server.baseURL.absoluteString]
        app.arguments = ["GET /user"]
        app.standardInput = FileHandle.nullDevice
        app.standardOutput = FileHandle.nullDevice
        try app.run()

        mock.clearQueues()
        mock.addResponses(forPath: "/user", host: "api.example.com") {
            MockResponse.plaintext("Bob", lifetime: .eternal)
        }
        let entry = await waitForRequest(url: "https://api.example.com/user", in: mock, timeout: 30)
        HTTPAssertRequested("https://api.example.com/user", headers: ["X-Client": "AppUnderTest/1.0"], in: mock)

        #expect(entry != nil)
        #expect(try await call("GET", server.baseURL.adding("/user")).text == "Bob")
        await offPool { app.waitUntilExit() }
        #expect(app.terminationStatus == 0)
        await server.stop()
    }

    @Test("waitUntilStopped returns after POST /__admin/shutdown")
    func waitUntilStopped() async throws {
        let mock = HTTPMock()
        let server = try await HTTPMockServer.start(serving: mock, configuration: .init(adminAPI: true))
        Task { _ = try await call("POST", server.baseURL.adding("/__admin/shutdown")) }
        await server.waitUntilStopped()   // until POST /__admin/shutdown
        await #expect(throws: (any Error).self) { _ = try await call("GET", server.baseURL.adding("/ping")) }
    }
}
