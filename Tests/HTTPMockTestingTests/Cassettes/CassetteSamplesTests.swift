import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMockTesting
#if canImport(XCTest)
import XCTest
#endif

/// The samples of the article "Recording and Replaying Cassettes", playing the cassettes beside this file.
@Suite struct CassetteSamplesTests {
    @Test(.cassette("profile"))
    func showsTheProfile() async throws {
        let url = URL(string: "https://api.example.test/v2/profile?fields=name")!
        let (data, _) = try await URLSession.shared.data(from: url)
        #expect(String(decoding: data, as: UTF8.self) == #"{"name":"Mireille"}"#)
    }

    @Test(.cassette("checkout", mode: .newEpisodes, reportsUnusedEntries: true))
    func aModeNamedByTheCassette() async throws {
        // Its cassette holds no entry yet and the test sends no request: nothing is recorded or reported.
        #expect(HTTPMock.current != nil)
    }

    @Test(.cassette("profile") { mock in
        mock.addResponses(forPath: "/v2/profile/avatar", host: "api.example.test", method: .post) {
            MockResponse.plaintext("slow down", status: .tooManyRequests)
        }
    })
    func aStubAnswersBeforeTheCassette() async throws {
        var request = URLRequest(url: URL(string: "https://api.example.test/v2/profile/avatar")!)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"style":"round"}"#.utf8)
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 429)
        _ = try await URLSession.shared.data(from: URL(string: "https://api.example.test/v2/profile?fields=name")!)
    }

    @Test func xcTestAndSeveralCassettes() async throws {
        try await withCassette("profile") { mock in
            let url = URL(string: "https://api.example.test/v2/profile?fields=name")!
            let (data, _) = try await mock.urlSession.data(from: url)
            #if canImport(XCTest)
            XCTAssertEqual(String(decoding: data, as: UTF8.self), #"{"name":"Mireille"}"#)
            #else
            #expect(String(decoding: data, as: UTF8.self) == #"{"name":"Mireille"}"#)
            #endif
        }
    }

    @Test(.cassette("search", format: .wireMock))
    func aWireMockFolderCassette() async throws {
        let (data, _) = try await URLSession.shared.data(from: URL(string: "https://books.example.test/search?q=swift")!)
        #expect(String(decoding: data, as: UTF8.self).contains("The Swift Programming Language"))
    }

    @Test(.cassette("session", redaction: .default.adding(headers: ["X-Session"], jsonFields: ["pin"])))
    func namesOfYourOwnRedacted() async throws {
        var request = URLRequest(url: URL(string: "https://api.example.test/session")!)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"user":"ada","pin":"1234"}"#.utf8)   // the recorded pin was redacted: any matches
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (data, _) = try await URLSession.shared.data(for: request)
        #expect(String(decoding: data, as: UTF8.self) == #"{"signedIn":true}"#)
    }

    @Test func cassettesHoldNoSecrets() {
        let cassettes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Cassettes")
        let report = SecretAudit().scan([cassettes])
        #expect(report.findings.isEmpty, "\(report)")
    }

    enum Fixtures {
        static let cart = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Cassettes/cart.json")
    }

    @Test(.cassette("checkout") { mock in
        mock.addResponses(forPath: "/v1/cart", host: "shop.example.test") {
            MockResponse.file(url: Fixtures.cart)
        }
    })
    func bodyFilesBesideACassette() async throws {
        let (data, _) = try await URLSession.shared.data(from: URL(string: "https://shop.example.test/v1/cart")!)
        #expect(String(decoding: data, as: UTF8.self).contains("A-1"))
    }
}

/// The article's suite: each test plays the cassette named after it in `Cassettes/Weather/`.
@Suite(.cassette("Weather"))
struct WeatherTests {
    @Test func today() async throws {
        let url = URL(string: "https://weather.example.test/today?city=Lyon")!
        let (data, _) = try await URLSession.shared.data(from: url)
        #expect(String(decoding: data, as: UTF8.self).contains("sunny"))
    }
}
