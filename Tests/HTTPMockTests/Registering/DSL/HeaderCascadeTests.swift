import Foundation
import Testing
import HTTPMock

struct Profile: Codable, Sendable { let name: String }
struct Audit: Codable, Sendable { let entries: Int }

/// The headers sample of the README: cascade, scope-local headers and overrides.
@Suite struct HeaderCascadeTests {
    let mock = HTTPMock()

    init() {
        mock.registerResponses {
            Host("api.example.com") {
                Headers(["X-Env": "Test"], cascade: true)

                Path("/profile") {
                    MockResponse.encodable(Profile(name: "p"))
                }

                Path("/admin") {
                    Headers(["X-Env": "AdminOnly"], cascade: false)
                    MockResponse.empty(status: .unauthorized)

                    Path("/audit") {
                        MockResponse.encodable(Audit(entries: 3))
                    }
                }
            }
        }
    }

    @Test func cascadedHeaderReachesChildPaths() async throws {
        let reply = try await mock.urlSession.fetch("https://api.example.com/profile")
        #expect(reply.header("X-Env") == "Test")
        #expect(reply.header("Content-Type") == "application/json")
    }

    @Test func localHeaderOverridesInheritedForItsOwnResponses() async throws {
        let reply = try await mock.urlSession.fetch("https://api.example.com/admin")
        #expect(reply.status == 401)
        #expect(reply.header("X-Env") == "AdminOnly")
    }

    @Test func nonCascadingHeaderDoesNotReachNestedPaths() async throws {
        let reply = try await mock.urlSession.fetch("https://api.example.com/admin/audit")
        #expect(reply.header("X-Env") == "Test")
    }

    @Test func laterHeadersInOneScopeWinAndResponseHeadersWinOverAll() async throws {
        let mock = HTTPMock()
        mock.registerResponses {
            Host("h.test") {
                Headers(["A": "1", "B": "1"], cascade: true)
                Headers(["A": "2"], cascade: true)
                Path("/x") {
                    MockResponse.plaintext("x", headers: ["B": "response"])
                }
            }
        }
        let reply = try await mock.urlSession.fetch("https://h.test/x")
        #expect(reply.header("A") == "2")
        #expect(reply.header("B") == "response")
    }

    @Test func hostHeadersWithoutCascadeReachTheHostsOwnPathsAndRoutesOnly() async throws {
        let mock = HTTPMock()
        try mock.register {
            Host("h.test") {
                Headers(["X-Host": "own"])
                Path("/top") {
                    MockResponse.plaintext("top")
                    Path("/nested") { MockResponse.plaintext("nested") }
                }
                Route(.path("/route")) { MockResponse.plaintext("route") }
            }
        }
        #expect(try await mock.urlSession.fetch("https://h.test/top").header("X-Host") == "own")
        #expect(try await mock.urlSession.fetch("https://h.test/route").header("X-Host") == "own")
        #expect(try await mock.urlSession.fetch("https://h.test/top/nested").header("X-Host") == nil)
    }

    @Test func cascadingHeadersReachDynamicResponsesInNestedPaths() async throws {
        let mock = HTTPMock()
        try mock.register {
            Host("h.test") {
                Headers(["X-Env": "Test", "X-Kind": "host"], cascade: true)
                Path("/a") {
                    Path("/b") {
                        MockResponse.dynamic { _, _ in .plaintext("made", headers: ["X-Kind": "made"]) }
                    }
                }
            }
        }
        let reply = try await mock.urlSession.fetch("https://h.test/a/b")
        #expect(reply.text == "made")
        #expect(reply.header("X-Env") == "Test")
        // The made response's own header wins, as for any response.
        #expect(reply.header("X-Kind") == "made")
    }
}
