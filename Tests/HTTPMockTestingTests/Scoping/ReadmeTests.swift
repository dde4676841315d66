import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMockTesting

/// The README's samples, written as the README writes them, so the front door cannot drift from the API.
@Suite struct ReadmeTests {
    /// Stands in for the README's service that uses `URLSession.shared`.
    struct LoginService {
        let session: URLSession
        func login() async throws {
            var request = URLRequest(url: URL(string: "https://api.example.com/login")!)
            request.httpMethod = "POST"
            _ = try await session.data(for: request)
        }
    }

    @Test(.httpMock { $0.addResponses(forPath: "/login", host: "api.example.com") { MockResponse.empty() } })
    func logsIn() async throws {
        try await LoginService(session: .shared).login()      // URLSession.shared reaches this test's own mock
        HTTPAssertRequestedOnce("https://api.example.com/login", method: .post, "login must be sent once")
        HTTPAssertRequested(urlPattern: #"https://api\.example\.com/users/\d+"#, count: .atMost(2))
        await waitForResponse(url: "https://api.example.com/login", timeout: 5)
    }

    @Test func matchingMoreThanAPath() async throws {
        let mock = HTTPMock()
        try mock.stub(.method(.post), .uriTemplate("https://api.example.com/users/{id}"), .jsonContaining(["role": "admin"]),
                      responses: [.dynamic { request, captures in .plaintext("updated \(captures["id"] ?? "")") }])
        try mock.stub(.urlRegex(#"^https://cdn[0-9]\.example\.com/"#), byMethod: [.get: .empty(lifetime: .eternal)])
        try mock.ignore(.url("https://telemetry.example.com", options: [.ignorePath]))
        mock.unmockedPolicy = .optOut

        let body = Data(#"{"role": "admin", "name": "Ann"}"#.utf8)
        #expect(try await mock.urlSession.fetch("https://api.example.com/users/42", method: "POST", body: body).text == "updated 42")
        #expect(try await mock.urlSession.fetch("https://cdn3.example.com/logo.png").status == 200)
        await #expect(throws: (any Error).self) {
            _ = try await mock.urlSession.fetch("https://api.example.com/other")
        }
    }

    @Test func faultsAndRedirectsFromTheResponsesSection() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/old", host: "api.example.com", responses: [.redirect(to: "https://api.example.com/new")])
        mock.addResponses(forPath: "/new", host: "api.example.com", responses: [.plaintext("moved here")])
        mock.addResponses(forPath: "/flaky", host: "api.example.com", responses: [.fault(.connectionLost), .plaintext("ok")])
        let moved = try await mock.urlSession.fetch("https://api.example.com/old")
        #expect(moved.text == "moved here")
        #expect(moved.url?.absoluteString == "https://api.example.com/new")
        await #expect(throws: URLError.self) { _ = try await mock.urlSession.fetch("https://api.example.com/flaky") }
        #expect(try await mock.urlSession.fetch("https://api.example.com/flaky").text == "ok")
    }
}
