import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMockTesting

@Suite struct HTTPMockTraitTests {
    @Test(.httpMock { mock in
        mock.addResponses(forPath: "/me", host: "api.example.com") { MockResponse.plaintext("Alice") }
    })
    func stubsFromTheTraitAnswerTheSharedSession() async throws {
        let reply = try await URLSession.shared.fetch("https://api.example.com/me")
        #expect(reply.text == "Alice")
        HTTPAssertRequestedOnce("https://api.example.com/me")  // the current test's mock, by default
    }

    @Test(.httpMock)
    func stubsRegisteredInTheTestBody() async throws {
        let mock = try #require(HTTPMock.current)
        mock.addResponses(forPath: "/a", host: "api.example.com") { MockResponse.plaintext("shared") }
        mock.addResponses(forPath: "/b", host: "api.example.com") { MockResponse.plaintext("own session") }
        #expect(try await URLSession.shared.fetch("https://api.example.com/a").text == "shared")
        #expect(try await mock.urlSession.fetch("https://api.example.com/b").text == "own session")
        #expect(HTTPRequests(urlPattern: ".*").count == 2)
    }

    @Test(.httpMock(reportsUnusedStubs: false) { mock in
        mock.addResponses(forPath: "/never", host: "api.example.com") { MockResponse.empty() }
    })
    func unusedStubReportCanBeTurnedOff() {
        #expect(HTTPMock.current?.unusedStubs.count == 1)
    }

    @Test(.httpMock(reportsUnmatchedRequests: false))
    func unmatchedReportCanBeTurnedOff() async throws {
        #expect(try await URLSession.shared.fetch("https://api.example.com/nothing").status == 404)
    }

    @Test func endOfTestReportsUnmatchedRequestsAndUnusedStubs() async throws {
        let trait = HTTPMockTrait.httpMock { mock in
            mock.addResponses(forPath: "/users", host: "api.example.com") { MockResponse.plaintext("users") }
            mock.addResponses(forPath: "/teams", host: "api.example.com") { MockResponse.plaintext("teams") }
        }
        let test = try #require(Test.current)
        let failures = await recordedFailures {
            // The trait's scope, run by hand inside this test, so what it reports lands here.
            try? await trait.provideScope(for: test, testCase: nil) {
                _ = try await URLSession.shared.fetch("https://api.example.com/users")
                _ = try await URLSession.shared.fetch("https://api.example.com/user")
            }
        }
        #expect(failures.count == 2)
        #expect(failures.first?.hasPrefix("Request #1 was not answered by any stub") == true)
        #expect(failures.first?.contains("HTTPMock: no stub answered GET https://api.example.com/user") == true)
        #expect(failures.first?.contains("path: expected /users, got /user") == true)
        #expect(failures.last == """
            1 stub(s) answered no request (turn this report off with reportsUnusedStubs: false):
              #1 api.example.com/teams
            """)
    }

    @Test func aRequestAfterItsTestEndedIsNotServed() async throws {
        let trait = HTTPMockTrait.httpMock(reportsUnusedStubs: false) { mock in
            mock.addResponses(forPath: "/late", host: "api.example.com") { MockResponse.plaintext("served", lifetime: .eternal) }
        }
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let escaped = Locked<Task<String, any Error>?>(nil)
        try await trait.provideScope(for: try #require(Test.current), testCase: nil) {
            // An unstructured task inherits the test's routing, but runs on after the test.
            escaped.withLock {
                $0 = Task {
                    for await _ in gate { break }
                    return try await URLSession.shared.fetch("https://api.example.com/late").text
                }
            }
        }
        open.yield()
        let task = try #require(escaped.current)
        let error = await #expect(throws: URLError.self) { try await task.value }
        #expect(error?.code == .resourceUnavailable)
        #expect(error?.localizedDescription.contains("arrived after its test") == true)
    }

    @Test func aRequestWithNoTestIsNotServed() async throws {
        // Make sure the shared session is routed, then send from a task that belongs to no test.
        HTTPMock().withMock { }
        let task = Task.detached { try await URLSession.shared.fetch("https://api.example.com/orphan") }
        let error = await #expect(throws: URLError.self) { try await task.value }
        #expect(error?.localizedDescription.contains("no mock") == true)
    }
}

@Suite(.httpMock { mock in
    mock.addResponses(forPath: "/config", host: "api.example.com") { MockResponse.plaintext("on", lifetime: .eternal) }
})
struct SuiteTraitTests {
    @Test func firstTestGetsItsOwnMock() async throws {
        #expect(try await URLSession.shared.fetch("https://api.example.com/config").text == "on")
        HTTPAssertRequestedOnce("https://api.example.com/config")
    }

    @Test func secondTestGetsAnotherMock() async throws {
        #expect(try await URLSession.shared.fetch("https://api.example.com/config").text == "on")
        HTTPAssertRequestedOnce("https://api.example.com/config")
    }
}
