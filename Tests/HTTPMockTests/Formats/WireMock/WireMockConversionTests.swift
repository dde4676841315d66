import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

/// `httpmock convert`'s conversions: the WireMock folder answers the source's requests as the source does.
@Suite struct WireMockConversionTests {
    private func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("httpmock-convert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Status and body of each request, in order, through `mock`.
    private func answers(_ mock: HTTPMock, _ requests: [(String, String)]) async -> [String] {
        var result: [String] = []
        for (method, url) in requests {
            var request = URLRequest(url: URL(string: url)!)
            request.httpMethod = method
            if method == "POST" {
                request.httpBody = Data(#"{"user":"ann","password":"REDACTED"}"#.utf8)
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
            do {
                let (data, response) = try await mock.urlSession.data(for: request)
                result.append("\((response as? HTTPURLResponse)?.statusCode ?? 0) \(data.count) \(String(decoding: data.prefix(40), as: UTF8.self))")
            } catch {
                result.append("error \((error as? URLError)?.code.rawValue ?? 0)")
            }
        }
        return result
    }

    @Test func aHARBecomesAFolderThatAnswersTheSameInTheSameOrder() async throws {
        let har = fixtures.appendingPathComponent("HAR/poll.har")
        let folder = try scratch()
        let outcome = try WireMockConversion.convertHAR(at: har, into: folder)
        #expect(outcome.mappings == 6)
        #expect(outcome.files == 1)   // the PNG pixel
        let original = HTTPMock()
        try original.loadHAR(at: har, options: HARReplayOptions(matchesBody: false))
        let converted = HTTPMock()
        try converted.loadWireMockMappings(from: folder)
        let requests = [("GET", "https://api.example.com/jobs/7"), ("GET", "https://api.example.com/jobs/7"),
                        ("GET", "https://api.example.com/jobs/7"), ("GET", "https://api.example.com/jobs/7"),
                        ("POST", "https://api.example.com/login?client=ios"),
                        ("GET", "https://cdn.example.com/pixel.png?token=another"), ("GET", "https://offline.example.com/")]
        let expected = await answers(original, requests)
        #expect(await answers(converted, requests).dropLast() == expected.dropLast())
        // A recorded failure: WireMock drops the connection, so the request fails either way.
        #expect(expected.last?.hasPrefix("error") == true)
        #expect(await answers(converted, requests).last?.hasPrefix("error") == true)
    }

    @Test func aMockingbirdBundleBecomesAFolderThatAnswersTheSame() async throws {
        let bundle = fixtures.appendingPathComponent("Mockingbird/httpbin")
        let folder = try scratch()
        let outcome = try WireMockConversion.convertMockingbird(at: bundle, into: folder)
        #expect(outcome.mappings == 4)
        let original = HTTPMock()
        try original.loadMockingbirdBundle(at: bundle)
        let converted = HTTPMock()
        try converted.loadWireMockMappings(from: folder)
        let requests = [("GET", "https://httpbin.org/ip"), ("POST", "https://httpbin.org/anything?page=2&session=abc"),
                        ("GET", "https://httpbin.org/raw"), ("DELETE", "https://httpbin.org/anything"),
                        ("GET", "https://httpbin.org/ip")]
        #expect(await answers(converted, requests) == answers(original, requests))
    }

    @Test func aBadSourceIsNamedAndNothingIsWritten() throws {
        let folder = try scratch()
        let source = try scratch()
        try Data(#"[{"request": {"url": "httpbin.org/ip"}, "response": {"code": 200}}]"#.utf8).write(to: source.appendingPathComponent("bundle.json"))
        #expect {
            try WireMockConversion.convertMockingbird(at: source, into: folder)
        } throws: { error in
            "\(error)".contains("bundle.json at [0].request.url") && "\(error)".contains("must start with \"://\"")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("mappings").path))
    }
}
