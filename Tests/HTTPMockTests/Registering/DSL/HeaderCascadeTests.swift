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
}
