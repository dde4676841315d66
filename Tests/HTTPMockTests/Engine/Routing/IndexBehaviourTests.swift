import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

/// The router's fast paths (exact routes in a hash map, boxed stub table, hashed stub keys, interned hosts, ASCII
/// splitting) must answer exactly as the plain trie did. Each test mixes the cases a fast path could get wrong.
@Suite struct IndexBehaviourTests {
    private let body = MockResponse.plaintext("x", lifetime: .eternal)

    @Test func exactRouteAndWildcardsCompeteBySpecificity() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/v1/**", host: "api.example.com", responses: [.plaintext("fallback", lifetime: .eternal)])
        mock.addResponses(forPath: "/v1/items/*", host: "api.example.com", responses: [.plaintext("star", lifetime: .eternal)])
        mock.addResponses(forPath: "/v1/items/7", host: "api.example.com", responses: [.plaintext("exact", lifetime: .eternal)])
        mock.addResponses(forPath: "/v1/items/7", host: "*.example.com", responses: [.plaintext("wild host", lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch("https://api.example.com/v1/items/7").text == "exact")
        #expect(try await mock.urlSession.fetch("https://API.Example.com//v1/items/7/").text == "exact")
        #expect(try await mock.urlSession.fetch("https://api.example.com/v1/items/8").text == "star")
        #expect(try await mock.urlSession.fetch("https://api.example.com/v1/other").text == "fallback")
        #expect(try await mock.urlSession.fetch("https://www.example.com/v1/items/7").text == "wild host")
        #expect(try await mock.urlSession.fetch("https://api.example.org/v1/items/7").status == 404)
    }

    @Test func exactRouteWithPortOnlyMatchesThatPort() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/health", host: "localhost:8080", responses: [.plaintext("8080", lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch("http://localhost:8080/health").text == "8080")
        #expect(try await mock.urlSession.fetch("http://localhost:9090/health").status == 404)
        #expect(try await mock.urlSession.fetch("http://localhost/health").status == 404)
    }

    @Test func sameRouteFeedsOneQueueAndConditionsMakeSeparateStubs() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/user", host: "api.example.com", responses: [.plaintext("first")])
        mock.addResponses(forPath: "/user/", host: "API.example.com", responses: [.plaintext("second")])
        mock.addResponses(forPath: "/user", host: "api.example.com", method: .post, responses: [.plaintext("post")])
        #expect(try await mock.urlSession.fetch("https://api.example.com/user", method: "POST").text == "post")
        #expect(try await mock.urlSession.fetch("https://api.example.com/user").text == "first")
        #expect(try await mock.urlSession.fetch("https://api.example.com/user").text == "second")
        #expect(try await mock.urlSession.fetch("https://api.example.com/user").status == 404)
    }

    @Test func queueServesEachResponseForItsLifetimeInOrder() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/q", host: "api.example.com", responses: [
            .plaintext("a", lifetime: .multiple(2)), .plaintext("b"),
        ])
        mock.addResponses(forPath: "/q", host: "api.example.com", responses: [.plaintext("c", lifetime: .eternal), .plaintext("never")])
        var served: [String] = []
        for _ in 0..<6 { served.append(try await mock.urlSession.fetch("https://api.example.com/q").text) }
        #expect(served == ["a", "a", "b", "c", "c", "c"])
    }

    @Test func clearingKeepsOtherHostsAndAllowsNewStubs() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/a", host: "one.example.com", responses: [body])
        mock.addResponses(forPath: "/a/*", host: "one.example.com", responses: [body])
        mock.addResponses(forPath: "/a", host: "two.example.com", responses: [body])
        mock.clearQueue(forHost: "ONE.example.com")
        #expect(try await mock.urlSession.fetch("https://one.example.com/a").status == 404)
        #expect(try await mock.urlSession.fetch("https://one.example.com/a/b").status == 404)
        #expect(try await mock.urlSession.fetch("https://two.example.com/a").status == 200)
        mock.addResponses(forPath: "/a", host: "one.example.com", responses: [.plaintext("again")])
        #expect(try await mock.urlSession.fetch("https://one.example.com/a").text == "again")
        mock.clearQueues()
        #expect(try await mock.urlSession.fetch("https://two.example.com/a").status == 404)
        mock.addResponses(forPath: "/a", host: "two.example.com", responses: [.plaintext("after clear")])
        #expect(try await mock.urlSession.fetch("https://two.example.com/a").text == "after clear")
    }

    @Test func nonASCIIHostsAndPathsStillMatch() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/café/menü", host: "bücher.example", responses: [.plaintext("unicode", lifetime: .eternal)])
        let captured = CapturedRequest(url: URL(string: "https://xn--bcher-kva.example/caf%C3%A9/men%C3%BC")!)
        #expect(captured.pathSegments == ["café", "menü"])
        let request = CapturedRequest(url: URL(string: "https://bücher.example/caf%C3%A9/men%C3%BC")!)
        let decision = mock.core.engine.decide(request).decision
        guard case .respond(let response) = decision else { Issue.record("no response"); return }
        #expect(response.body == Data("unicode".utf8))
    }

    @Test func aPathPatternHasOneNormalisedForm() throws {
        #expect(try PathGlob("/").normalized == "/")
        #expect(try PathGlob("").normalized == "/")
        #expect(try PathGlob("/users/*/posts/**").normalized == "/users/*/posts/**")
        #expect(try PathGlob("/v*/items/a*b*c").normalized == "/v*/items/a*b*c")
        // An encoded slash stays in its segment, and a `%` beside it is encoded too.
        #expect(try PathGlob("/files/a%2Fb/x").normalized == "/files/a%2Fb/x")
        #expect(try PathGlob("/files/50%25%2Fb").normalized == "/files/50%25%2Fb")
        #expect(try PathGlob("/caf%C3%A9").normalized == "/café")
    }

    @Test func patternErrorsAreUnchangedByTheFastChecks() {
        #expect(throws: GlobError.self) { try HostGlob("api example.com") }
        #expect(throws: GlobError.self) { try HostGlob("https://api.example.com") }
        #expect(throws: GlobError.self) { try HostGlob("api.example.com/users") }
        #expect(throws: GlobError.self) { try HostGlob("***.example.com") }
        #expect(throws: GlobError.self) { try PathGlob("/a b") }
        #expect(throws: GlobError.self) { try PathGlob("/a?b=1") }
        #expect(throws: GlobError.self) { try PathGlob("/a/**b") }
        #expect((try? HostGlob("API.example.com:8080"))?.port == 8080)
        #expect((try? PathGlob("//a///b/"))?.normalized == "/a/b")
        do {
            _ = try HostGlob("api\texample.com")
            Issue.record("a tab was accepted")
        } catch {
            #expect(error.reason.contains("\"\\t\""))
        }
    }

    @Test func uploadTaskBodyIsStillCaptured() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/upload", host: "api.example.com", responses: [.empty()])
        var request = URLRequest(url: URL(string: "https://api.example.com/upload")!)
        request.httpMethod = "POST"
        _ = try await mock.urlSession.upload(for: request, from: Data("payload".utf8))
        #expect(mock.requests.last?.body == Data("payload".utf8))
    }

    @Test func userContentLengthIsNotDuplicated() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/len", host: "api.example.com",
                          responses: [.plaintext("abc", headers: ["content-LENGTH": "3"])])
        let reply = try await mock.urlSession.fetch("https://api.example.com/len")
        #expect(reply.text == "abc")
        #expect(reply.headers.keys.filter { $0.lowercased() == "content-length" }.count == 1)
    }
}
