import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// The samples of the Modes and Policies article, run against a real mock.
@Suite struct ModesAndPoliciesSamplesTests {
    @Test func policies() async throws {
        let mock = HTTPMock()
        let url = "https://api.example.com/nothing"
        mock.unmockedPolicy = .notFound
        let notFound = try await mock.urlSession.fetch(url)
        #expect(notFound.status == 404)
        #expect(notFound.text.contains("no stub answered GET https://api.example.com/nothing"))
        mock.unmockedPolicy = .mock(.plaintext("maintenance", status: .serviceUnavailable))
        #expect(try await mock.urlSession.fetch(url).status == 503)
        #expect(try await mock.urlSession.fetch(url).text == "maintenance")
        mock.unmockedPolicy = .fail(URLError(.notConnectedToInternet))
        #expect((await mock.urlSession.failure(url) as? URLError)?.code == .notConnectedToInternet)
        mock.unmockedPolicy = .optOut
        let error = await mock.urlSession.failure(url)
        #expect((error as? HTTPMockError)?.code == .unmockedRequest)
        #expect(mock.journal.count == 5)
    }

    @Test func ignoreRules() async throws {
        let network = HTTPMock()
        network.addResponses(forPath: "/ping", host: "telemetry.example.com") { MockResponse.plaintext("real") }
        let mock = HTTPMock(passthroughSession: network.urlSession)
        mock.addResponses(forPath: "/ping", host: "telemetry.example.com") { MockResponse.plaintext("stub") }
        try mock.ignore(.url("https://telemetry.example.com", options: [.ignorePath, .ignoreQuery]))
        #expect(try await mock.urlSession.fetch("https://telemetry.example.com/ping?x=1").text == "real")
        #expect(mock.journal.last?.resolution == .passedThrough)
        mock.clearIgnoreRules()
        #expect(try await mock.urlSession.fetch("https://telemetry.example.com/ping").text == "stub")
    }

    @Test func passthroughToAnotherMock() async throws {
        let network = HTTPMock()
        network.addResponses(forPath: "/status", host: "api.example.com") { MockResponse.plaintext("live") }
        let mock = HTTPMock(passthroughSession: network.urlSession)
        mock.unmockedPolicy = .passthrough
        let (data, _) = try await mock.urlSession.data(from: URL(string: "https://api.example.com/status")!)
        #expect(String(decoding: data, as: UTF8.self) == "live")
    }

    @Test func stubHandles() async throws {
        let mock = HTTPMock()
        let url = "https://api.example.com/orders"
        let outage = try mock.stub(.host("api.example.com"), responses: [.empty(status: .serviceUnavailable, lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch(url).status == 503)
        outage.isEnabled = false
        #expect(try await mock.urlSession.fetch(url).status == 404)
        outage.isEnabled = true
        #expect(try await mock.urlSession.fetch(url).status == 503)
        let answered = outage.hitCount
        #expect(answered == 2)
        #expect(mock.stubUsage.first?.hits == 2)
        outage.remove()
        #expect(mock.stubUsage.isEmpty)
        #expect(try await mock.urlSession.fetch(url).status == 404)
    }

    @Test func disabledMock() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/a", host: "api.example.com") { MockResponse.plaintext("a") }
        mock.isEnabled = false
        let reply = try await mock.urlSession.fetch("https://api.example.com/a")
        #expect(reply.status == 404)
        #expect(reply.text.contains("the mock is disabled"))
        mock.isEnabled = true
        #expect(try await mock.urlSession.fetch("https://api.example.com/a").text == "a")
    }
}
