import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// Instances never see each other's stubs, however many run at once.
@Suite struct IsolationTests {
    @Test(arguments: 0..<20)
    func parallelInstancesStubbingTheSameURLEachGetTheirOwn(index: Int) async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/who", host: "same.test", responses: [.plaintext("mock \(index)", lifetime: .multiple(5))])
        for _ in 0..<5 {
            #expect(try await mock.urlSession.fetch("https://same.test/who").text == "mock \(index)")
        }
        #expect(mock.journal.count == 5)
    }

    @Test func sessionOfAReleasedMockFailsClearlyInsteadOfReachingAnotherMock() async throws {
        var mock: HTTPMock? = HTTPMock()
        let session = mock!.urlSession
        mock = nil
        let other = HTTPMock()
        other.addResponses(forPath: "/x", host: "r.test", responses: [.plaintext("other", lifetime: .eternal)])
        await #expect {
            _ = try await session.fetch("https://r.test/x")
        } throws: { error in
            (error as? URLError)?.code == .resourceUnavailable && error.localizedDescription.contains("released")
        }
        #expect(try await other.urlSession.fetch("https://r.test/x").text == "other")
    }

    @Test func installIntoAConfigurationTheUserOwns() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/c", host: "cfg.test", responses: [.plaintext("configured")])
        let configuration = URLSessionConfiguration.default
        configuration.timeoutIntervalForRequest = 5
        mock.install(into: configuration)
        let session = URLSession(configuration: configuration)
        #expect(try await session.fetch("https://cfg.test/c").text == "configured")
        #expect(configuration.urlCache == nil)
    }

    @Test func makeSessionLeavesTheGivenConfigurationAlone() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/m", host: "cfg.test", responses: [.plaintext("made")])
        let configuration = URLSessionConfiguration.ephemeral
        let session = mock.makeSession(configuration: configuration)
        #expect(try await session.fetch("https://cfg.test/m").text == "made")
        #expect(configuration.protocolClasses?.first.map { "\($0)".contains("Slot") } != true)
    }

    @Test func customSchemesAreAnsweredToo() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/posts/", host: "demo-api", responses: [.plaintext("via mock://")])
        #expect(try await mock.urlSession.fetch("mock://demo-api/posts/").text == "via mock://")
    }
}
