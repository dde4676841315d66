import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// `URLSession.shared`, routed per task with `withMock`, else to the owner. Serialized: it changes process state.
@Suite(.serialized) struct SharedSessionTests {
    @Test func scopedMocksAnswerTheSharedSessionForTheirOwnTasks() async throws {
        let first = HTTPMock()
        let second = HTTPMock()
        first.addResponses(forPath: "/s", host: "shared.test", responses: [.plaintext("first", lifetime: .eternal)])
        second.addResponses(forPath: "/s", host: "shared.test", responses: [.plaintext("second", lifetime: .eternal)])
        async let a = first.withMock { try await URLSession.shared.fetch("https://shared.test/s").text }
        async let b = second.withMock { try await URLSession.shared.fetch("https://shared.test/s").text }
        #expect(try await [a, b] == ["first", "second"])
    }

    @Test func ownerAnswersOutsideAnyScope() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/o", host: "shared.test", responses: [.plaintext("owner")])
        mock.interceptSharedSession()
        defer { mock.stopInterceptingSharedSession() }
        #expect(try await URLSession.shared.fetch("https://shared.test/o").text == "owner")
    }

    @Test func withNoMockInScopeTheSharedSessionFailsClearly() async throws {
        let mock = HTTPMock()
        mock.interceptSharedSession()
        mock.stopInterceptingSharedSession()
        await #expect {
            _ = try await URLSession.shared.fetch("https://shared.test/nobody")
        } throws: { error in
            (error as? URLError)?.code == .resourceUnavailable
        }
    }
}
