import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

// The deprecated names of the policies and of removal, reached through protocols: a call through a protocol
// requirement is not a use of the deprecated declaration, so these tests check that old code still works
// without adding warnings to the build.

private protocol OldPolicyNames {
    static var optIn: Self { get }
    static var notImplemented: Self { get }
}
extension UnmockedPolicy: OldPolicyNames {}

private protocol OldErrorNames {
    init(reason: String)
    var reason: String { get }
}
extension HTTPMockError: OldErrorNames {}

private protocol OldUnload { func unload() }
extension LoadedMocks: OldUnload {}

private protocol OldCancel { func cancel() }
extension JournalObservation: OldCancel {}

private protocol OldBundleRemoval { func unloadMockingbirdBundle() }
extension HTTPMock: OldBundleRemoval {}

@Suite struct EngineAndPolicyDeprecationTests {
    let httpbin = fixtures.appendingPathComponent("Mockingbird/httpbin")

    private func oldOptIn<Policy: OldPolicyNames>() -> Policy { Policy.optIn }
    private func oldNotImplemented<Policy: OldPolicyNames>() -> Policy { Policy.notImplemented }

    @Test func optInStillPassesUnmatchedRequestsThrough() async throws {
        let (mock, network) = try ModesTests.pair()
        defer { withExtendedLifetime(network) {} }
        mock.unmockedPolicy = oldOptIn()
        guard case .passthrough = mock.unmockedPolicy else { Issue.record("optIn is not passthrough"); return }
        #expect(try await mock.urlSession.fetch("https://x.test/other").text == "network /other")
    }

    @Test func notImplementedStillAnswers501() async throws {
        let mock = HTTPMock()
        mock.unmockedPolicy = oldNotImplemented()
        let reply = try await mock.urlSession.fetch("https://x.test/nope")
        #expect(reply.status == 501)
        #expect(reply.header("X-HTTPMock") == "unmatched")
    }

    @Test func theOldErrorInitializerMakesAnUnmockedRequestError() {
        func make<Error: OldErrorNames>(_: Error.Type) -> Error { Error(reason: "GET https://x.test/a: no stub") }
        let error = make(HTTPMockError.self)
        #expect(error.code == .unmockedRequest)
        #expect(error.message == "GET https://x.test/a: no stub")
        #expect((error as any OldErrorNames).reason == error.message)
    }

    @Test func unloadStillRemovesTheLoad() async throws {
        let mock = HTTPMock()
        let loaded: any OldUnload = try mock.loadMockingbirdBundle(at: httpbin)
        #expect(try await mock.urlSession.fetch("https://httpbin.org/ip").status == 200)
        loaded.unload()
        #expect(try await mock.urlSession.fetch("https://httpbin.org/ip").status == 404)
    }

    @Test func unloadMockingbirdBundleStillRemovesTheBundleAndNothingElse() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/mine", host: "httpbin.org", responses: [.plaintext("mine", lifetime: .eternal)])
        try mock.loadMockingbirdBundle(at: httpbin)
        #expect(try await mock.urlSession.fetch("https://httpbin.org/ip").status == 200)
        (mock as any OldBundleRemoval).unloadMockingbirdBundle()
        #expect(try await mock.urlSession.fetch("https://httpbin.org/ip").status == 404)
        #expect(try await mock.urlSession.fetch("https://httpbin.org/mine").text == "mine")
    }

    @Test func cancelStillStopsAJournalObservation() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/ping", host: "old.test") { MockResponse.plaintext("pong", lifetime: .eternal) }
        let heard = Locked(0)
        let observation: any OldCancel = mock.observeJournal { event, _ in
            if event == .completed { heard.withLock { $0 += 1 } }
        }
        _ = try await mock.urlSession.fetch("https://old.test/ping")
        observation.cancel()
        _ = try await mock.urlSession.fetch("https://old.test/ping")
        #expect(heard.current == 1)
        #expect(mock.journal.count == 2)
    }
}
