import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

/// Mockingbird bundles, written exactly as its README documents them, served through a real URLSession.
@Suite struct MockingbirdTests {
    let bundles = fixtures.appendingPathComponent("Mockingbird")
    let bad = fixtures.appendingPathComponent("BadInput/Mockingbird")

    @Test func readmeExampleServesTheFileWithItsMimeTypeOnAnyScheme() async throws {
        let mock = HTTPMock()
        try mock.loadMockingbirdBundle(at: bundles.appendingPathComponent("httpbin"))
        for scheme in ["https", "http"] {
            let reply = try await mock.urlSession.fetch("\(scheme)://httpbin.org/ip")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/json")
            #expect(reply.text.contains("203.0.113.7"))
        }
        // Not used up: Mockingbird answers every matching request.
        #expect(try await mock.urlSession.fetch("https://httpbin.org/ip").status == 200)
    }

    @Test func methodDefaultsToGet() async throws {
        let mock = HTTPMock()
        try mock.loadMockingbirdBundle(at: bundles.appendingPathComponent("httpbin"))
        #expect(try await mock.urlSession.fetch("https://httpbin.org/ip", method: "POST").status == 404)
        #expect(try await mock.urlSession.fetch("https://httpbin.org/anything", method: "DELETE").status == 204)
    }

    @Test func parametersMatchSymmetricallyAndNullMeansAnyValue() async throws {
        let mock = HTTPMock()
        try mock.loadMockingbirdBundle(at: bundles.appendingPathComponent("httpbin"))
        let ok = try await mock.urlSession.fetch("https://httpbin.org/anything?page=2&session=abc", method: "POST")
        #expect(ok.status == 201)
        #expect(try await mock.urlSession.fetch("https://httpbin.org/anything?session=&page=2", method: "POST").status == 201)
        // Missing, wrong and extra parameters all fail to match.
        #expect(try await mock.urlSession.fetch("https://httpbin.org/anything?page=2", method: "POST").status == 404)
        #expect(try await mock.urlSession.fetch("https://httpbin.org/anything?page=3&session=a", method: "POST").status == 404)
        #expect(try await mock.urlSession.fetch("https://httpbin.org/anything?page=2&session=a&x=1", method: "POST").status == 404)
        #expect(try await mock.urlSession.fetch("https://httpbin.org/ip?x=1").status == 404)
    }

    @Test func containsMatchingAllowsExtraParameters() async throws {
        let mock = HTTPMock()
        try mock.loadMockingbirdBundle(at: bundles.appendingPathComponent("httpbin"), queryMatching: .contains)
        #expect(try await mock.urlSession.fetch("https://httpbin.org/anything?page=2&session=a&x=1", method: "POST").status == 201)
        #expect(try await mock.urlSession.fetch("https://httpbin.org/anything?x=1", method: "POST").status == 404)
    }

    @Test func contentTypeHeaderIsKeptWithoutMimeTypeAndOctetStreamIsTheDefault() async throws {
        let mock = HTTPMock()
        try mock.loadMockingbirdBundle(at: bundles.appendingPathComponent("httpbin"))
        let csv = try await mock.urlSession.fetch("https://httpbin.org/anything?page=2&session=1", method: "POST")
        #expect(csv.header("Content-Type") == "text/csv")
        #expect(csv.header("X-Source") == "bundle")
        #expect(csv.text == "a,b\n1,2\n")
        let raw = try await mock.urlSession.fetch("https://httpbin.org/raw")
        #expect(raw.header("Content-Type") == "application/octet-stream")
    }

    @Test func loadingAnotherBundleReplacesOnlyThePreviousBundle() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/status", host: "httpbin.org", responses: [.plaintext("mine", lifetime: .eternal)])
        let first = try mock.loadMockingbirdBundle(at: bundles.appendingPathComponent("httpbin"))
        #expect(try await mock.urlSession.fetch("https://httpbin.org/ip").status == 200)
        let second = try mock.loadMockingbirdBundle(at: bundles.appendingPathComponent("loggedOut"))
        let denied = try await mock.urlSession.fetch("https://httpbin.org/ip")
        #expect(denied.status == 401)
        #expect(denied.text == "log in first\n")
        #expect(try await mock.urlSession.fetch("https://httpbin.org/raw").status == 404)
        #expect(try await mock.urlSession.fetch("https://httpbin.org/status").text == "mine")
        first.remove()   // already replaced: removes nothing of the second bundle
        #expect(try await mock.urlSession.fetch("https://httpbin.org/ip").status == 401)
        second.remove()
        #expect(try await mock.urlSession.fetch("https://httpbin.org/ip").status == 404)
        #expect(try await mock.urlSession.fetch("https://httpbin.org/status").text == "mine")
    }

    @Test func handleAllRequestsIsAPolicyOfOneMock() async throws {
        let strict = HTTPMock()
        let other = HTTPMock()
        try strict.loadMockingbirdBundle(at: bundles.appendingPathComponent("httpbin"))
        try other.loadMockingbirdBundle(at: bundles.appendingPathComponent("httpbin"))
        strict.unmockedPolicy = .mock(.empty(status: .notImplemented))
        #expect(try await strict.urlSession.fetch("https://httpbin.org/nope").status == 501)
        #expect(try await other.urlSession.fetch("https://httpbin.org/nope").status == 404)
    }

    @Test func handleReturnedByALoadRemovesIt() async throws {
        let mock = HTTPMock()
        let loaded = try mock.loadMockingbirdBundle(at: bundles.appendingPathComponent("httpbin"))
        #expect(loaded.stubCount == 4)
        loaded.remove()
        #expect(try await mock.urlSession.fetch("https://httpbin.org/ip").status == 404)
    }

    // MARK: Bad input

    private func loadError(_ folder: String) throws -> HTTPMockError {
        let mock = HTTPMock()
        let error = try #require(throws: HTTPMockError.self) {
            try mock.loadMockingbirdBundle(at: bad.appendingPathComponent(folder))
        }
        return error
    }

    @Test func missingResponseFileIsAnErrorAtLoad() throws {
        let error = try loadError("missing-file")
        #expect(error.code == .missingFile)
        #expect(error.message.contains("bundle.json at [0].response.file"))
        #expect(error.message.contains("\"ip.json\" does not exist"))
    }

    @Test func malformedJSONNamesLineAndColumn() throws {
        let error = try loadError("malformed")
        #expect(error.code == .invalidDefinition)
        #expect(error.message.contains("bundle.json line 4, column"), "\(error.message)")
    }

    @Test func wrongTypeNamesTheKeyPath() throws {
        let error = try loadError("wrong-type")
        #expect(error.message.contains("bundle.json at [1].response.code"), "\(error.message)")
    }

    @Test func urlWithoutSchemeSeparatorIsRefused() throws {
        let error = try loadError("no-scheme")
        #expect(error.message.contains("[0].request.url"))
        #expect(error.message.contains("must start with \"://\""))
    }

    @Test func filesOutsideTheBundleAreRefused() throws {
        for folder in ["escapes-folder", "absolute-path"] {
            let error = try loadError(folder)
            #expect(error.message.contains("leaves the folder"), "\(error.message)")
        }
    }

    @Test func missingBundleJSONIsNamed() throws {
        let error = try loadError("does-not-exist")
        #expect(error.code == .missingFile)
        #expect(error.message.contains("bundle.json"))
    }

    @Test func aFailedLoadRegistersNothingAndKeepsThePreviousBundle() async throws {
        let mock = HTTPMock()
        try mock.loadMockingbirdBundle(at: bundles.appendingPathComponent("loggedOut"))
        #expect(throws: HTTPMockError.self) { try mock.loadMockingbirdBundle(at: self.bad.appendingPathComponent("half-valid")) }
        // The valid first entry of the refused bundle was not registered; the previous bundle still answers.
        #expect(try await mock.urlSession.fetch("https://httpbin.org/ip").status == 401)
    }

    @Test func theFirstMatchingEntryOfTheBundleAnswersAsInMockingbird() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mockingbird-order-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = """
        [
          { "request": { "url": "://o.test/items", "parameters": { "q": null } }, "response": { "code": 200 } },
          { "request": { "url": "://o.test/items", "parameters": { "q": "x" } }, "response": { "code": 201 } },
          { "request": { "url": "://o.test:8080/p" }, "response": { "code": 202 } },
          { "request": { "url": "://o.test/p" }, "response": { "code": 203 } }
        ]
        """
        try Data(bundle.utf8).write(to: folder.appendingPathComponent("bundle.json"))
        let mock = HTTPMock()
        try mock.loadMockingbirdBundle(at: folder)
        // Both of the first two entries match; the first in the file wins, though the second names a value.
        #expect(try await mock.urlSession.fetch("https://o.test/items?q=x").status == 200)
        #expect(try await mock.urlSession.fetch("https://o.test:8080/p").status == 202)
        #expect(try await mock.urlSession.fetch("https://o.test/p").status == 203)
        // Specificity still ranks the bundle against other stubs: a stub with a wildcard loses to the bundle.
        mock.addResponses(forPath: "/*", host: "o.test", responses: [.empty(status: .other(299))])
        #expect(try await mock.urlSession.fetch("https://o.test/p").status == 203)
    }
}
