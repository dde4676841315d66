import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// The repository's Examples/wiremock folder, which the README tells newcomers to serve: every mapping in it
/// answers as its Examples/wiremock/README.md says.
@Suite struct WireMockExampleFolderTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/wiremock")

    @Test func everyMappingAnswersAsTheExampleSays() async throws {
        let mock = HTTPMock()
        let loaded = try mock.loadWireMockMappings(from: Self.folder)
        #expect(loaded.stubCount == 7)
        let session = mock.urlSession
        #expect(try await session.fetch("http://localhost/users/7").text == #"{"id": 7, "name": "Ann"}"#)
        #expect(try await session.fetch("http://localhost/users/x").status == 404)
        let users = try await session.fetch("http://localhost/users")
        #expect(users.header("Content-Type") == "application/json")
        #expect(users.text.contains(#"{ "id": 2, "name": "Bo" }"#))
        #expect(try await session.fetch("http://localhost/search?q=tea").text == #"{"results":[]}"#)
        await #expect(throws: URLError.self) { _ = try await session.fetch("http://localhost/flaky") }

        #expect(try await session.fetch("http://localhost/cart").text == #"{"items":[]}"#)
        #expect(try await session.fetch("http://localhost/cart", method: "POST", body: Data(#"{"sku":"TEA-1"}"#.utf8)).status == 201)
        #expect(try await session.fetch("http://localhost/cart").text.contains("TEA-1"))
        mock.resetScenarios()
        #expect(try await session.fetch("http://localhost/cart").text == #"{"items":[]}"#)
    }
}
