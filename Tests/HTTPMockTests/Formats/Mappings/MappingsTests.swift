import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

/// The mapping-file format (`Sources/HTTPMock/HTTPMock.docc/Articles/FileFormatsReference.md`), served through a real URLSession.
@Suite struct MappingsTests {
    let api = fixtures.appendingPathComponent("Mappings/api")
    let bad = fixtures.appendingPathComponent("BadInput/Mappings")

    private func loaded() throws -> HTTPMock {
        let mock = HTTPMock()
        try mock.loadMappings(from: api)
        return mock
    }

    @Test func namedAndPositionalPathValuesFillATemplatedBodyFile() async throws {
        let mock = try loaded()
        let reply = try await mock.urlSession.fetch("https://api.example.com/users/42")
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type") == "application/json")
        #expect(reply.header("X-Served-By") == "mappings")
        #expect(reply.text == #"{"id": "42", "segment": "users", "name": "User 42"}"# + "\n")
        // The last (only) response repeats.
        #expect(try await mock.urlSession.fetch("https://api.example.com/users/7").text.contains(#""id": "7""#))
        #expect(try await mock.urlSession.fetch("https://api.example.com/users/7", method: "DELETE").status == 404)
    }

    @Test func queryMatchersAndMethodListsAndJSONTemplatesEscapeValues() async throws {
        let mock = try loaded()
        var request = URLRequest(url: URL(string: "https://api.example.com/search?q=swift&tag=b&tag=a&page=3&debug")!)
        request.setValue("say \"hi\"", forHTTPHeaderField: "X-Client")
        let (data, response) = try await mock.urlSession.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["query"] as? String == "swift")
        #expect(json["by"] as? String == "say \"hi\"")
        #expect(try await mock.urlSession.fetch("https://api.example.com/search?q=swift&tag=a&tag=b&page=1&debug", method: "HEAD").status == 200)
        #expect(try await mock.urlSession.fetch("https://api.example.com/search?q=swift&tag=a&page=1&debug").status == 404)
        #expect(try await mock.urlSession.fetch("https://api.example.com/search?q=swift&tag=a&tag=b&page=1&debug&x=1").status == 404)
    }

    @Test func headerAndJSONBodyMatchers() async throws {
        let mock = try loaded()
        var request = URLRequest(url: URL(string: "https://api.example.com/users")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"admin": false, "name": "Ann"}"#.utf8)
        let unauthorised = try await mock.urlSession.data(for: request)
        #expect((unauthorised.1 as? HTTPURLResponse)?.statusCode == 404)
        request.setValue("Bearer abc", forHTTPHeaderField: "Authorization")
        let (data, response) = try await mock.urlSession.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        #expect(String(decoding: data, as: UTF8.self) == "created POST users")
        request.httpBody = Data(#"{"admin": true, "name": "Ann"}"#.utf8)
        #expect((try await mock.urlSession.data(for: request).1 as? HTTPURLResponse)?.statusCode == 404)
    }

    @Test func redirectsAreA3xxWithLocationFollowedInsideTheMock() async throws {
        let mock = try loaded()
        let followed = try await mock.urlSession.fetch("https://api.example.com/old/a/b")
        // /new is not mocked: the redirect was followed there, and the unmocked policy answered.
        #expect(followed.status == 404)
        #expect(followed.url?.absoluteString == "https://api.example.com/new")
        mock.followsRedirects = false
        let reply = try await mock.urlSession.fetch("https://api.example.com/old/a/b")
        #expect(reply.status == 301)
        #expect(reply.header("Location") == "https://api.example.com/new")
    }

    @Test func binaryBodyFilesAreServedAsTheyAre() async throws {
        let mock = try loaded()
        let (data, response) = try await mock.urlSession.data(from: URL(string: "https://api.example.com/logo")!)
        #expect(data == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "image/png")
    }

    @Test func orderedResponsesWithLifetimesFailuresAndDelaysFromASubfolder() async throws {
        let mock = try loaded()
        let url = URL(string: "https://eu.status.example.com/health")!
        let error = await #expect(throws: URLError.self) { _ = try await mock.urlSession.data(from: url) }
        #expect(error?.code == .notConnectedToInternet)
        #expect(try await mock.urlSession.fetch(url.absoluteString).status == 503)
        #expect(try await mock.urlSession.fetch(url.absoluteString).text == "warming up")
        let ok = try await mock.urlSession.fetch(url.absoluteString)
        #expect(ok.text == "ok")
        #expect(ok.header("Content-Type") == "text/x-health")
        #expect(try await mock.urlSession.fetch(url.absoluteString).text == "ok")
    }

    @Test func oneFileCanBeLoadedAndRemovedAlone() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/mine", host: "api.example.com", responses: [.plaintext("mine", lifetime: .eternal)])
        let flaky = try mock.loadMappings(from: api.appendingPathComponent("flaky/flaky.mock.json"))
        #expect(flaky.stubCount == 1)
        #expect(try await mock.urlSession.fetch("https://api.example.com/users/1").status == 404)
        flaky.remove()
        #expect(try await mock.urlSession.fetch("https://x.status.example.com/health").status == 404)
        #expect(try await mock.urlSession.fetch("https://api.example.com/mine").text == "mine")
    }

    @Test func journalNamesTheMappingThatAnswered() async throws {
        let mock = try loaded()
        _ = try await mock.urlSession.fetch("https://api.example.com/users/1")
        guard case .stub(_, let summary) = mock.journal.last?.resolution else {
            Issue.record("not answered by a stub")
            return
        }
        #expect(summary.contains("from users.mock.json \"one user\""))
    }

    // MARK: Bad input

    private func loadError(_ folder: String) throws -> HTTPMockError {
        let mock = HTTPMock()
        return try #require(throws: HTTPMockError.self) { try mock.loadMappings(from: bad.appendingPathComponent(folder)) }
    }

    @Test func malformedJSONNamesFileLineAndColumn() throws {
        let message = try loadError("malformed").message
        #expect(message.contains("x.mock.json line 4, column"), "\(message)")
    }

    @Test func unknownKeysAreNamedWithTheirPlace() throws {
        let message = try loadError("unknown-key").message
        #expect(message.contains("x.mock.json at mocks[0].response"), "\(message)")
        #expect(message.contains("unknown key \"staus\""))
    }

    @Test func missingBodyFileIsAnErrorAtLoad() throws {
        let error = try loadError("missing-body")
        #expect(error.code == .missingFile)
        #expect(error.message.contains("mocks[0].responses[0].file"), "\(error.message)")
    }

    @Test func bodyFilesCannotLeaveTheFolder() throws {
        let message = try loadError("escapes").message
        #expect(message.contains("sub/x.mock.json at mocks[0].responses[0].file"), "\(message)")
        #expect(message.contains("leaves the folder"))
    }

    @Test func unknownFailureNamesSuggestRealOnes() throws {
        let message = try loadError("bad-failure").message
        #expect(message.contains("mocks[0].responses[1].failure"))
        #expect(message.contains("notConnectedToInternet"))
    }

    @Test func templatesNamingUnknownValuesAreRefused() throws {
        let message = try loadError("bad-template").message
        #expect(message.contains("{{path.name}}"))
        #expect(message.contains("path.id"))
    }

    @Test func invalidPatternsAndTwoBodiesAndEmptyFoldersAreRefused() throws {
        #expect(try loadError("bad-pattern").message.contains("mocks[0].request.host"))
        #expect(try loadError("two-bodies").message.contains("give one body"))
        #expect(try loadError("empty").message.contains("no \"*.mock.json\" file"))
    }

    @Test func aFolderWithOneBadFileRegistersNothing() async throws {
        let mock = HTTPMock()
        #expect(throws: HTTPMockError.self) { try mock.loadMappings(from: self.bad.appendingPathComponent("half-valid")) }
        #expect(try await mock.urlSession.fetch("https://half.test/ok").status == 404)
    }
}
