import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMockTesting

/// What the end of a mock scope reports, and when.
@Suite struct EndOfTestReportTests {
    struct ClientError: Error {}

    @Test func aThrowingTestStillGetsItsReport() async throws {
        let trait = HTTPMockTrait.httpMock { mock in
            mock.addResponses(forPath: "/users", host: "api.example.com") { MockResponse.plaintext("users") }
        }
        let test = try #require(Test.current)
        var thrown: (any Error)?
        let failures = await recordedFailures {
            do {
                try await trait.provideScope(for: test, testCase: nil) {
                    let reply = try await URLSession.shared.fetch("https://api.example.com/user")
                    if reply.status == 404 { throw ClientError() }   // as a generated client does on a 404
                }
            } catch {
                thrown = error
            }
        }
        #expect(thrown is ClientError)
        #expect(failures.contains { $0.hasPrefix("Request #0 was not answered by any stub") && $0.contains("path: expected /users, got /user") })
        #expect(failures.contains { $0.hasPrefix("1 stub(s) answered no request") })
    }

    @Test func aThrowingWithHTTPMockStillGetsItsReport() async throws {
        var thrown: (any Error)?
        let failures = await recordedFailures {
            do {
                try await withHTTPMock(reportsUnusedStubs: false) { mock in
                    _ = try await mock.urlSession.fetch("https://api.example.com/missing")
                    throw ClientError()
                }
            } catch {
                thrown = error
            }
        }
        #expect(thrown is ClientError)
        #expect(failures.count == 1)
        #expect(failures.first?.contains("no stub answered GET https://api.example.com/missing") == true)
    }

    @Test func anEternalStubLeftUnusedIsNotReported() async throws {
        let trait = HTTPMockTrait.httpMock { mock in
            mock.addResponses(forPath: "/health", host: "api.example.com") { MockResponse.empty(lifetime: .eternal) }
        }
        // Nothing recorded: an issue here would fail this test.
        try await trait.provideScope(for: try #require(Test.current), testCase: nil) {}
    }

    @Test func aTestCanAskForEveryUnusedStub() async throws {
        let trait = HTTPMockTrait.httpMock(reportsEveryUnusedStub: true) { mock in
            mock.addResponses(forPath: "/health", host: "api.example.com") { MockResponse.empty(lifetime: .eternal) }
        }
        let test = try #require(Test.current)
        let failures = await recordedFailures {
            try? await trait.provideScope(for: test, testCase: nil) {}
        }
        #expect(failures == ["1 stub(s) answered no request (turn this report off with reportsUnusedStubs: false):\n  #0 api.example.com/health"])
    }

    @Test func responsesLeftQueuedBehindAUsedStubAreReported() async throws {
        let failures = await recordedFailures {
            try? await withHTTPMock { mock in
                mock.addResponses(forPath: "/poll", host: "api.example.com") {
                    MockResponse.plaintext("pending")
                    MockResponse.plaintext("pending")
                    MockResponse.plaintext("done")
                }
                mock.addResponses(forPath: "/health", host: "api.example.com") { MockResponse.empty(lifetime: .eternal) }
                _ = try await mock.urlSession.fetch("https://api.example.com/poll")
                _ = try await mock.urlSession.fetch("https://api.example.com/health")
            }
        }
        // The eternal response answers for ever: nothing is left over there.
        #expect(failures == ["1 stub(s) answered, but left queued responses unused (turn this report off with reportsUnusedStubs: false):\n  #0 api.example.com/poll: 2 of 3 response(s) unused"])
        // Used up: nothing to report.
        try await withHTTPMock { mock in
            mock.addResponses(forPath: "/once", host: "api.example.com") { MockResponse.plaintext("x") }
            _ = try await mock.urlSession.fetch("https://api.example.com/once")
        }
    }

    @Test func withHTTPMockCanAskForEveryUnusedStub() async {
        let failures = await recordedFailures {
            await withHTTPMock(reportsEveryUnusedStub: true) { mock in
                mock.addResponses(forPath: "/health", host: "api.example.com") { MockResponse.empty(lifetime: .eternal) }
            }
        }
        #expect(failures.count == 1)
    }

    @Test func aRefusedRegistrationInAScopeIsAnIssueAtTheCallersLine() async throws {
        let trait = HTTPMockTrait.httpMock(reportsUnusedStubs: false)
        let test = try #require(Test.current)
        let line = #line + 4
        await expectFailure(atLine: line, containing: ["api..example.com", "nothing was registered"]) {
            try? await trait.provideScope(for: test, testCase: nil) {
                let mock = try #require(HTTPMock.current)
                mock.addResponses(forPath: "/a", host: "api..example.com") { MockResponse.empty() }
            }
        }
    }

    @Test func aRefusedDSLRegistrationInWithHTTPMockIsAnIssueAtTheCallersLine() async {
        let line = #line + 3
        await expectFailure(atLine: line, containing: ["nothing was registered"]) {
            await withHTTPMock { mock in
                mock.registerResponses {
                    Host("api..example.com") { Path("/a") { MockResponse.empty() } }
                }
            }
        }
    }
}

/// Stubs a suite's trait registers serve every test of the suite; a test that uses none of them passes.
@Suite(.httpMock { mock in
    mock.addResponses(forPath: "/feature-flags", host: "api.example.com") { MockResponse.plaintext("{}") }
})
struct SuiteStubsAreNotReportedTests {
    @Test func aTestThatNeedsNoFlags() async throws {
        #expect(HTTPMock.current?.unusedStubs.count == 1)
    }
}

@Suite struct AssertionWithoutMockTests {
    @Test func theFailureNamesTheSharedMockAndHowToPointElsewhere() async {
        let failures = await recordedFailures {
            // No `in:` and no mock scope: the shared mock is read.
            HTTPAssertRequested("https://nowhere.example.com/never-requested")
        }
        #expect(failures.count == 1)
        #expect(failures.first?.contains("HTTPMock.shared") == true)
        #expect(failures.first?.contains("in: mock") == true)
        #expect(failures.first?.contains(".httpMock") == true)
    }
}
