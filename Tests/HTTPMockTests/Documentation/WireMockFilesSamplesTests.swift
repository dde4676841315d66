import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// The samples of the WireMock Files article, run against a real mock.
@Suite struct WireMockFilesSamplesTests {
    @Test func loading() async throws {
        let mock = HTTPMock()
        let stubs = try mock.loadWireMockMappings(from: fixtures.appendingPathComponent("WireMock/api"))
        let (data, _) = try await mock.urlSession.data(from: URL(string: "http://localhost/users/7")!)
        #expect(String(decoding: data, as: UTF8.self) == #"{"id":7,"roles":["admin"]}"#)
        stubs.remove()
        #expect(mock.stubUsage.isEmpty)
    }

    @Test func rankedAsWireMockRanks() async throws {
        let mock = HTTPMock()
        let folder = fixtures.appendingPathComponent("WireMock/api")
        try mock.loadWireMockMappings(from: folder, ranking: .mostRecentlyAdded)
        #expect(try await mock.urlSession.fetch("http://localhost/orders").text == "orders")
    }

    @Test func globalTemplating() async throws {
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: fixtures.appendingPathComponent("WireMock/api"), globalTemplating: true)
        #expect(try await mock.urlSession.fetch("http://localhost/literal").text == "/literal")
    }
}
