import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// Paths written with `{…}` are URI templates, in both the DSL and `addResponses`.
@Suite struct PathRouteTests {
    @Test func dslPathTemplatesCaptureAndNest() async throws {
        let mock = HTTPMock()
        try mock.register {
            Host("api.example.com") {
                Path("/users/{id}") {
                    MockResponse.dynamic(lifetime: .eternal) { _, captures in .plaintext("user \(captures["id"]!)") }
                    Path("posts/{post}") {
                        MockResponse.dynamic(lifetime: .eternal) { _, captures in .plaintext("\(captures["id"]!)/\(captures["post"]!)") }
                    }
                }
            }
        }
        #expect(try await mock.urlSession.fetch("https://api.example.com/users/7").text == "user 7")
        #expect(try await mock.urlSession.fetch("https://api.example.com/users/7/posts/3").text == "7/3")
        #expect(try await mock.urlSession.fetch("https://api.example.com/users/7/other").status == 404)
    }

    @Test func addResponsesAcceptsATemplateAndSharesItsQueue() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/repos/{owner}/{repo}", host: "github.test", responses: [
            .dynamic { _, captures in .plaintext("\(captures["owner"]!)/\(captures["repo"]!)") },
        ])
        mock.addResponses(forPath: "/repos/{owner}/{repo}/", host: "github.test", responses: [.plaintext("second")])
        #expect(mock.registrationErrors.isEmpty)
        #expect(try await mock.urlSession.fetch("https://github.test/repos/apple/swift").text == "apple/swift")
        #expect(try await mock.urlSession.fetch("https://github.test/repos/a/b").text == "second")
    }

    @Test func mixingGlobsAndTemplatesIsRefused() {
        let mock = HTTPMock()
        noteExpectedRefusal("a path mixing globs and a template")
        mock.addResponses(forPath: "/users/*/{id}", host: "x.test", responses: [.plaintext("x")])
        #expect(mock.registrationErrors.last?.message.contains("\"/users/*/{id}\"") == true)
        #expect(mock.registrationErrors.last?.message.contains("mixes glob") == true)
        let error = #expect(throws: HTTPMockError.self) {
            try mock.register { Host("x.test") { Path("/a/{b") { MockResponse.plaintext("x") } } }
        }
        #expect(error?.message.contains("\"/a/{b\"") == true)
    }
}
