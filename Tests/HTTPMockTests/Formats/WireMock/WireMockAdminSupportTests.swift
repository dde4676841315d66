import Foundation
import Testing
@testable import HTTPMock

/// What HTTPMockServer's admin API and `httpmock serve` use of WireMock files: a read that registers later (in a
/// slot), request patterns on their own, and saving mappings into a WireMock folder.
@Suite struct WireMockAdminSupportTests {
    static let root = fixtures.appendingPathComponent("WireMock/api")

    @Test func preparedThenRegisteredInASlotServesWhatALoadServes() async throws {
        let loaded = HTTPMock()
        let load = try loaded.loadWireMockMappings(from: Self.root)
        let mock = HTTPMock()
        let prepared = try mock.prepareWireMockMappings(from: Self.root)
        #expect(prepared.stubCount == load.stubCount)
        #expect(mock.stubUsage.isEmpty)
        try mock.register([prepared], slot: "wiremock")
        #expect(try await mock.urlSession.fetch("http://localhost/single").text == "one mapping in the file")
        // Registering into the slot again replaces the set: no stub twice.
        try mock.register([try mock.prepareWireMockMappings(from: Self.root)], slot: "wiremock")
        #expect(mock.stubUsage.count == load.stubCount)
    }

    @Test func aRequestPatternAloneIsMatchers() throws {
        let matches = try WireMockStubMapping.requestPattern(
            json: Data(#"{"method": "POST", "urlPath": "/notes", "headers": {"Content-Type": {"contains": "json"}}}"#.utf8),
            source: "the request pattern")
        let predicate = try RequestPredicate(matches)
        let url = URL(string: "https://api.example.com/notes?draft=1")!
        #expect(predicate.matches(CapturedRequest(method: "POST", url: url, headers: ["Content-Type": "application/json"])))
        #expect(!predicate.matches(CapturedRequest(method: "GET", url: url, headers: ["Content-Type": "application/json"])))
        #expect(!predicate.matches(CapturedRequest(method: "POST", url: url, headers: ["Content-Type": "text/plain"])))
        #expect(try WireMockStubMapping.requestPattern(json: Data("{}".utf8), source: "p").isEmpty)
        #expect { try WireMockStubMapping.requestPattern(json: Data(#"{"urlPath": "notes"}"#.utf8), source: "the request pattern") } throws: { error in
            (error as? HTTPMockError)?.message == #"the request pattern at urlPath: "notes" is not a path: it starts with "/""#
        }
    }

    @Test func savedMappingsLoadBack() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wiremock-save-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let mapping = try WireMockStubMapping(json: Data(#"{"name": "saved", "request": {"url": "/saved"}, "response": {"body": "from disk"}}"#.utf8),
                                              source: "admin")
        let files = try WireMockStubMapping.save([mapping], inRoot: root)
        #expect(files.map(\.lastPathComponent) == ["\(mapping.id.uuidString.lowercased()).json"])
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: root)
        #expect(try await mock.urlSession.fetch("http://localhost/saved").text == "from disk")
    }

    @Test("a saved mapping's numbers load back the same: every digit past a double, and 100.0 still no integer")
    func savedNumbersLoadBack() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wiremock-save-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let text = #"{"request": {"method": "POST", "urlPath": "/n", "bodyPatterns": [{"equalToJson": {"n": 123456789012345678901234567890123456789012345, "f": 0.1000000000000000000000000000000000000000001, "w": 100.0}}]}, "response": {"jsonBody": {"big": 98765432109876543210987654321098765432109876}}}"#
        let mapping = try WireMockStubMapping(json: Data(text.utf8), source: "admin")
        let file = try #require(try WireMockStubMapping.save([mapping], inRoot: root).first)
        let saved = try String(contentsOf: file, encoding: .utf8)
        #expect(saved.contains("123456789012345678901234567890123456789012345") && saved.contains("0.1000000000000000000000000000000000000000001")
                && saved.contains("98765432109876543210987654321098765432109876"), "\(saved)")
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: root)
        let exact = #"{"n": 123456789012345678901234567890123456789012345, "f": 0.1000000000000000000000000000000000000000001, "w": 100.0}"#
        let reply = try await mock.urlSession.fetch("http://localhost/n", method: "POST", body: Data(exact.utf8))
        #expect(reply.status == 200 && reply.text.contains("98765432109876543210987654321098765432109876"))
        // As before the save: one digit off, or 100 written as an integer, matches nothing.
        for other in [#"{"n": 123456789012345678901234567890123456789012346, "f": 0.1000000000000000000000000000000000000000001, "w": 100.0}"#,
                      #"{"n": 123456789012345678901234567890123456789012345, "f": 0.1, "w": 100.0}"#] {
            #expect(try await mock.urlSession.fetch("http://localhost/n", method: "POST", body: Data(other.utf8)).status == 404)
        }
    }

    @Test func savingNeverLeavesTheFolder() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("wiremock-escape-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let root = base.appendingPathComponent("root")
        let outside = base.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("mappings"), withDestinationURL: outside)
        let mapping = try WireMockStubMapping(json: Data(#"{"request": {"url": "/a"}}"#.utf8), source: "admin")
        #expect { try WireMockStubMapping.save([mapping], inRoot: root) } throws: { error in
            (error as? HTTPMockError)?.message.contains("leads outside \(root.path)") == true
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
        #expect { try WireMockStubMapping.save([mapping], inRoot: base.appendingPathComponent("missing")) } throws: { error in
            (error as? HTTPMockError)?.code == .missingFile
        }
    }

    @Test("removing a file's mapping from memory leaves another file whose name starts with its own and a mapping mark")
    func removingOneFilesStubs() async throws {
        let root = try WireMockBadInputTests.folder([
            "mappings/a.json": #"{"name": "A", "request": {"urlPath": "/a"}, "response": {"body": "a"}}"#,
            "mappings/a.json, mapping b.json": #"{"name": "B", "request": {"urlPath": "/b"}, "response": {"body": "b"}}"#,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: root)
        let listed = WireMockStubMapping.listed(inFolder: root)
        let first = try #require(listed.first { $0.file.hasSuffix("a.json") })
        #expect(mock.removeLoadedStubs(of: first.mapping))
        #expect(try await mock.urlSession.fetch("http://localhost/a").status == 404)
        #expect(try await mock.urlSession.fetch("http://localhost/b").text == "b")
    }
}

@Suite("base64 in mapping files is read as WireMock reads it")
struct Base64ReadingTests {
    @Test("padding left out or too long is read; a last group of one character, a character outside the alphabet or padding inside is refused")
    func padding() {
        #expect(Base64.decode("aGVsbG8=") == Data("hello".utf8))
        #expect(Base64.decode("aGVsbG8") == Data("hello".utf8))
        #expect(Base64.decode("aGVsbA") == Data("hell".utf8))
        #expect(Base64.decode("aGVsbG8h=") == Data("hello!".utf8))
        #expect(Base64.decode("aGVs\nbG8=") == Data("hello".utf8))
        #expect(Base64.decode("") == Data())
        for bad in ["a", "aGVsb", "aGV=sbG8", "aGVsbG8_", "aGVs-G8=", "é"] {
            #expect(Base64.decode(bad) == nil, "\(bad)")
        }
        // Every length of bytes, encoded and stripped of its padding, reads back.
        for count in 0..<40 {
            let bytes = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
            let encoded = bytes.base64EncodedString()
            #expect(Base64.decode(encoded) == bytes)
            var unpadded = encoded
            while unpadded.last == "=" { unpadded.removeLast() }
            #expect(Base64.decode(unpadded) == bytes, "\(count) bytes")
        }
    }
}
