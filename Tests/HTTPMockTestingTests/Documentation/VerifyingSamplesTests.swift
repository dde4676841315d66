import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMockTesting

/// The samples of the Verifying Requests article (and the HTTPAssertion part of Migrating), run against real mocks.
@Suite struct VerifyingSamplesTests {
    @Test(.httpMock { mock in
        mock.addResponses(forPath: "/login", host: "api.example.com", method: .post) { MockResponse.empty() }
        mock.addResponses(forPath: "/profile", host: "api.example.com") { MockResponse.plaintext("Alice") }
    })
    func assertions() async throws {
        let session = try #require(HTTPMock.current).urlSession
        try await session.fetch("https://api.example.com/login", method: "POST")
        try await session.fetch("https://api.example.com/profile")
        HTTPAssertRequested("https://api.example.com/login", method: .post)
        HTTPAssertRequestedOnce("https://api.example.com/profile", "the profile is loaded once")
        HTTPAssertNotRequested("https://api.example.com/admin", "the admin API must stay untouched")
    }

    @Test func counts() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/ping", host: "api.example.com") { MockResponse.empty(lifetime: .eternal) }
        for _ in 0..<3 { try await mock.urlSession.fetch("https://api.example.com/ping") }
        HTTPAssertRequested("https://api.example.com/ping", count: .exactly(3), in: mock)
        HTTPAssertRequested("https://api.example.com/ping", count: .atLeast(2), in: mock)
        HTTPAssertRequested("https://api.example.com/ping", count: .atMost(5), in: mock)
    }

    @Test func fetch() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/search", host: "api.example.com", query: ["q": "swift"]) { MockResponse.plaintext("found") }
        try await mock.urlSession.fetch("https://api.example.com/search?q=swift")
        let searches = HTTPRequests(url: "https://api.example.com/search", in: mock)
        #expect(searches.first?.request.queryValues(for: "q") == ["swift"])
        #expect(searches.first?.statusCode == 200)

        let recent = HTTPRequests(.host("api.example.com"), in: mock, newestFirst: true, limit: 3)
        #expect(recent.first?.request.url.path == "/search")

        HTTPAssertRequestedOnce(.path("/search"), in: mock)?.attach()
    }

    @Test func waiting() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/analytics", host: "api.example.com") { MockResponse.empty(status: .noContent) }
        Task { _ = try? await mock.urlSession.data(from: URL(string: "https://api.example.com/analytics")!) }
        let entry = await waitForResponse(url: "https://api.example.com/analytics", in: mock, timeout: 5)
        #expect(entry?.statusCode == 204)
    }

    @Test func performAction() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/search", host: "api.example.com", query: ["q": "swift"]) { MockResponse.plaintext("found") }
        try await performActionAndAssertRequested(url: "https://api.example.com/search", method: .get, in: mock) {
            _ = try await mock.urlSession.data(from: URL(string: "https://api.example.com/search?q=swift")!)
        } onRequested: { entry in
            #expect(entry.request.queryValues(for: "q") == ["swift"])
        }
    }

    @Test(.httpMock { mock in
        mock.addResponses(forPath: "/me", host: "api.example.com") { MockResponse.plaintext("Alice") }
    })
    func showsTheUser() async throws {
        let (data, _) = try await URLSession.shared.data(from: URL(string: "https://api.example.com/me")!)
        #expect(String(decoding: data, as: UTF8.self) == "Alice")
        HTTPAssertRequestedOnce("https://api.example.com/me")
    }

    @Test(.httpMock(reportsEveryUnusedStub: true) { mock in
        mock.addResponses(forPath: "/health", host: "api.example.com") { MockResponse.empty(lifetime: .eternal) }
    })
    func checksHealth() async throws {
        _ = try await URLSession.shared.data(from: URL(string: "https://api.example.com/health")!)
    }

    @Test func acrossProcesses() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        // The app's side; here in the same process, which writes the same files.
        let appMock = HTTPMock()
        appMock.journaledHosts = ["api.example.com", "*.example.org"]
        appMock.addResponses(forPath: "/event", host: "api.example.com") { MockResponse.empty() }
        let folder = try JournalFolder(directory)
        appMock.writeJournal(to: folder)
        try folder.store("user_id", value: "12345")
        try await appMock.urlSession.fetch("https://api.example.com/event")

        // The test's side.
        let appJournal = JournalFolderReader(try JournalFolder(directory))
        await waitForRequest(url: "https://api.example.com/event", in: appJournal, timeout: 5)
        HTTPAssertRequestedOnce("https://api.example.com/event", in: appJournal)
        let userID: String? = appJournal.retrieve("user_id")
        #expect(userID == "12345")

        // Stands in for XCUIApplication: its button does what the app does when the user logs in.
        struct Button: Sendable {
            let action: @Sendable () -> Void
            func tap() { action() }
        }
        struct Buttons: Sendable {
            let folder: JournalFolder
            subscript(label: String) -> Button { Button { try? folder.store("session", value: "s-2") } }
        }
        struct StandInApp: Sendable {
            let folder: JournalFolder
            var buttons: Buttons { Buttons(folder: folder) }
        }
        let app = StandInApp(folder: folder)
        #expect(appJournal.contextKeys == ["user_id"])
        let session = await waitForContextChange("session", as: String.self, in: appJournal) {
            app.buttons["Log in"].tap()   // the app logs in and stores its new session in the folder
        }
        #expect(session == "s-2")
    }

    @Test func fromHTTPAssertion() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let mock = HTTPMock()
        mock.addResponses(forPath: "/login", host: "api.example.com", method: .post) { MockResponse.empty() }

        let folder = try JournalFolder(directory)
        mock.writeJournal(to: folder)
        try folder.store("user_id", value: "12345")
        try await mock.urlSession.fetch("https://api.example.com/login", method: "POST")

        let appJournal = JournalFolderReader(try JournalFolder(directory))
        HTTPAssertRequestedOnce("https://api.example.com/login", method: .post, in: appJournal)
        let userID: String? = appJournal.retrieve("user_id")
        #expect(userID == "12345")
    }

    @Test func assertionForms() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/**", host: "api.example.com") { MockResponse.empty(lifetime: .eternal) }
        try await mock.urlSession.fetch("https://api.example.com/data", method: "POST", headers: ["Authorization": "Bearer t0k3n"])
        try await mock.urlSession.fetch("https://api.example.com/search?q=swift&limit=10&page=2")
        try await mock.urlSession.fetch("https://api.example.com/users/42")
        try await mock.urlSession.fetch("https://api.example.com/orders", method: "POST", body: Data(#"{"item":"book","n":1}"#.utf8))
        HTTPAssertRequested("https://api.example.com/data", method: .post, headers: ["Authorization": "Bearer t0k3n"], in: mock)
        HTTPAssertRequested("https://api.example.com/search", queryParameters: ["q": "swift", "limit": "10"], in: mock)
        HTTPAssertRequested(urlPattern: #"^https://api\.example\.com/users/\d+$"#, in: mock, "the user API is called with an ID")
        HTTPAssertRequested(.method(.post), .path("/orders"), .jsonContaining(["item": "book"]), in: mock)
        HTTPAssertRequested("https://api.example.com/pong", count: .never, in: mock)
        #expect(HTTPRequests(urlPattern: "/users/", in: mock).count == 1)
    }

    @Test func performActionAndResponse() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/login", host: "api.example.com", method: .post) { MockResponse.empty() }
        var login = URLRequest(url: URL(string: "https://api.example.com/login")!)
        login.httpMethod = "POST"
        try await performActionAndAssertResponse(url: "https://api.example.com/login", method: .post, in: mock) {
            _ = try await mock.urlSession.data(for: login)
        } onRequested: { entry in
            #expect(entry.request.method == "POST")
        } onResponse: { entry in
            #expect(entry.statusCode == 200)
        }
    }

    @Test func journalFolderFromEnvironment() async throws {
        struct App { var launchEnvironment: [String: String] = [:] }   // stands in for XCUIApplication
        var app = App()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        app.launchEnvironment[JournalFolder.environmentVariable] = directory.path
        #expect(app.launchEnvironment["HTTPMOCK_JOURNAL_DIR"] == directory.path)
        #expect(try JournalFolder(path: directory.path).url.standardizedFileURL.path == directory.standardizedFileURL.path)

        // This test process has no such variable, so the app-side line does nothing here.
        if ProcessInfo.processInfo.environment[JournalFolder.environmentVariable] == nil {
            try JournalFolder.fromEnvironment()?.store("user_id", value: "12345")
            #expect(try JournalFolder.fromEnvironment() == nil)
        }
    }
}

