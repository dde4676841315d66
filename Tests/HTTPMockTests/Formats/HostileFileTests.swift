import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import HTTPMock

/// Files built to trick the loaders: symbolic links out of the folder, files too large to read, named pipes and
/// folders where a file should be. What cannot live in the bad-input corpus (links, pipes, sparse files of many
/// megabytes) is built here, in a temporary folder, at test time.
@Suite struct HostileFileTests {
    /// A temporary folder with an `outside/secret.txt` next to a `bundle/` (or `mappings/`) folder to load.
    final class Scratch {
        let root: URL
        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("httpmock-hostile-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root.appendingPathComponent("outside"), withIntermediateDirectories: true)
            try Data("the secret".utf8).write(to: root.appendingPathComponent("outside/secret.txt"))
        }
        deinit { try? FileManager.default.removeItem(at: root) }

        func folder(_ name: String) throws -> URL {
            let url = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }

        func write(_ text: String, to path: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }

        func link(_ path: String, to destination: String) throws {
            try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent(path).path, withDestinationPath: destination)
        }

        /// A sparse file of `size` bytes: no disk space used, nothing to write.
        func sparse(_ path: String, size: UInt64) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: size)
            try handle.close()
        }

        var outside: String { root.appendingPathComponent("outside").path }
    }

    private func refusal(_ load: () throws(HTTPMockError) -> Void) -> HTTPMockError? {
        do { try load() } catch { return error }
        return nil
    }

    private func expectMessage(_ error: HTTPMockError?, _ parts: String..., sourceLocation: SourceLocation = #_sourceLocation) {
        guard let error else {
            Issue.record("was accepted; it must be refused", sourceLocation: sourceLocation)
            return
        }
        for part in parts {
            #expect(error.message.contains(part), "the message does not say \(part.debugDescription): \(error.message)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Symbolic links

    @Test func aBundleEntryUnderALinkedFolderOutsideIsRefused() throws {
        let scratch = try Scratch()
        let bundle = try scratch.folder("bundle")
        try scratch.link("bundle/d", to: scratch.outside)
        try scratch.write(#"[{"request": {"url": "://a.test/p"}, "response": {"code": 200, "file": "d/secret.txt"}}]"#, to: "bundle/bundle.json")
        let mock = HTTPMock()
        let error = refusal { () throws(HTTPMockError) in try mock.loadMockingbirdBundle(at: bundle) }
        expectMessage(error, "bundle.json at [0].response.file", "\"d/secret.txt\" leaves the folder", "symbolic link")
        #expect(mock.stubUsage.isEmpty)
    }

    @Test func aBundleEntryThatIsALinkToAFileOutsideIsRefused() throws {
        let scratch = try Scratch()
        let bundle = try scratch.folder("bundle")
        try scratch.link("bundle/body.txt", to: scratch.outside + "/secret.txt")
        try scratch.write(#"[{"request": {"url": "://a.test/p"}, "response": {"code": 200, "file": "body.txt"}}]"#, to: "bundle/bundle.json")
        let error = refusal { () throws(HTTPMockError) in try HTTPMock().loadMockingbirdBundle(at: bundle) }
        expectMessage(error, "bundle.json at [0].response.file", "leaves the folder", "symbolic link")
    }

    @Test func aLinkThatStaysInsideTheFolderIsServed() async throws {
        let scratch = try Scratch()
        let bundle = try scratch.folder("bundle")
        try scratch.write("inside", to: "bundle/real/body.txt")
        try scratch.link("bundle/alias", to: "real")
        try scratch.write(#"[{"request": {"url": "://a.test/p"}, "response": {"code": 200, "file": "alias/body.txt"}}]"#, to: "bundle/bundle.json")
        let mock = HTTPMock()
        try mock.loadMockingbirdBundle(at: bundle)
        let (data, _) = try await mock.urlSession.data(from: URL(string: "https://a.test/p")!)
        #expect(String(decoding: data, as: UTF8.self) == "inside")
    }

    @Test func aMappingBodyFileThatLinksOutIsRefused() throws {
        let scratch = try Scratch()
        let mappings = try scratch.folder("mappings")
        try scratch.link("mappings/d", to: scratch.outside)
        try scratch.write(#"{"mocks": [{"request": {"path": "/p"}, "response": {"file": "d/secret.txt"}}]}"#, to: "mappings/x.mock.json")
        let error = refusal { () throws(HTTPMockError) in try HTTPMock().loadMappings(from: mappings) }
        expectMessage(error, "x.mock.json at mocks[0].responses[0].file", "leaves the folder", "symbolic link")
    }

    @Test func aMappingFileThatLinksOutOfTheFolderIsRefused() throws {
        let scratch = try Scratch()
        let mappings = try scratch.folder("mappings")
        try scratch.write(#"{"mocks": [{"request": {"path": "/p"}, "response": {"text": "outside"}}]}"#, to: "outside/y.mock.json")
        try scratch.link("mappings/y.mock.json", to: scratch.outside + "/y.mock.json")
        let error = refusal { () throws(HTTPMockError) in try HTTPMock().loadMappings(from: mappings) }
        expectMessage(error, "y.mock.json", "leaves the folder", "symbolic link")
    }

    @Test func aRecordingNeverWritesThroughALinkOutOfItsFolder() throws {
        let scratch = try Scratch()
        let folder = try scratch.folder("recording")
        try scratch.link("recording/recorded.mock.json", to: scratch.outside + "/secret.txt")
        var entry = JournalEntry(id: 0, request: CapturedRequest(method: "GET", url: URL(string: "https://a.test/p")!, headers: [:], body: nil),
                                 receivedAt: Date(), resolution: .passedThrough)
        entry.outcome = .response(status: 200, headers: [:], body: Data("new".utf8))
        for appending in [false, true] {
            let error = refusal { () throws(HTTPMockError) in
                try MappingWriter.write([entry], to: folder, redaction: .default, appending: appending)
            }
            expectMessage(error, "recorded.mock.json", "symbolic link", "outside the recording folder")
        }
        #expect(try String(contentsOfFile: scratch.outside + "/secret.txt", encoding: .utf8) == "the secret")
    }

    // MARK: Size limits

    @Test func aDefinitionFileOverTheLimitIsRefusedBeforeItIsRead() throws {
        let scratch = try Scratch()
        let bundle = try scratch.folder("bundle")
        try scratch.sparse("bundle/bundle.json", size: 2 << 30)  // 2 GiB, sparse: nothing is written
        let error = refusal { () throws(HTTPMockError) in try HTTPMock().loadMockingbirdBundle(at: bundle) }
        expectMessage(error, "bundle.json", "2 GiB", "64 MiB", "mock.fileSizeLimits.definitions")
        #expect(error?.code == .invalidDefinition)

        try scratch.sparse("big.har", size: 65 << 20)
        expectMessage(refusal { () throws(HTTPMockError) in try HTTPMock().loadHAR(at: scratch.root.appendingPathComponent("big.har")) },
                      "big.har", "65 MiB", "64 MiB", "fileSizeLimits.definitions")
        let mappings = try scratch.folder("mappings")
        try scratch.sparse("mappings/big.mock.json", size: 65 << 20)
        expectMessage(refusal { () throws(HTTPMockError) in try HTTPMock().loadMappings(from: mappings) },
                      "big.mock.json", "65 MiB", "fileSizeLimits.definitions")
    }

    @Test func theLimitCanBeRaisedPerMock() throws {
        let scratch = try Scratch()
        let bundle = try scratch.folder("bundle")
        try scratch.write(#"[{"request": {"url": "://a.test/p"}, "response": {"code": 204}}]"#, to: "bundle/bundle.json")
        let mock = HTTPMock()
        #expect(mock.fileSizeLimits.definitions == 64 << 20)
        #expect(mock.fileSizeLimits.templatedBodies == 16 << 20)
        mock.fileSizeLimits.definitions = 10
        expectMessage(refusal { () throws(HTTPMockError) in try mock.loadMockingbirdBundle(at: bundle) }, "bundle.json", "10 bytes")
        mock.fileSizeLimits.definitions = 1000
        try mock.loadMockingbirdBundle(at: bundle)
        #expect(HTTPMock().fileSizeLimits.definitions == 64 << 20)  // per mock
    }

    @Test func aTemplatedBodyOverTheLimitIsRefusedAndAPlainOneIsStillServedFromDisk() throws {
        let scratch = try Scratch()
        let mappings = try scratch.folder("mappings")
        try scratch.sparse("mappings/big.json", size: 17 << 20)
        try scratch.write(#"{"mocks": [{"request": {"path": "/p"}, "response": {"file": "big.json", "template": true}}]}"#, to: "mappings/x.mock.json")
        let error = refusal { () throws(HTTPMockError) in try HTTPMock().loadMappings(from: mappings) }
        expectMessage(error, "x.mock.json at mocks[0].responses[0].file", "17 MiB", "16 MiB", "mock.fileSizeLimits.templatedBodies")

        try scratch.write(#"{"mocks": [{"request": {"path": "/p"}, "response": {"file": "big.json"}}]}"#, to: "mappings/x.mock.json")
        let loaded = try HTTPMock().loadMappings(from: mappings)
        #expect(loaded.stubCount == 1)
    }

    // MARK: What is not a regular file

    @Test func aNamedPipeOrAFolderWhereAFileShouldBeSaysSo() throws {
        let scratch = try Scratch()
        let bundle = try scratch.folder("bundle")
        #expect(mkfifo(bundle.appendingPathComponent("bundle.json").path, 0o644) == 0)
        expectMessage(refusal { () throws(HTTPMockError) in try HTTPMock().loadMockingbirdBundle(at: bundle) },
                      "bundle.json", "is a FIFO (named pipe), not a regular file")

        let other = try scratch.folder("other")
        #expect(mkfifo(other.appendingPathComponent("pipe").path, 0o644) == 0)
        _ = try scratch.folder("other/dir")
        try scratch.write(#"[{"request": {"url": "://a.test/p"}, "response": {"code": 200, "file": "pipe"}}, {"request": {"url": "://a.test/q"}, "response": {"code": 200, "file": "dir"}}]"#, to: "other/bundle.json")
        let pipe = refusal { () throws(HTTPMockError) in try HTTPMock().loadMockingbirdBundle(at: other) }
        expectMessage(pipe, "bundle.json at [0].response.file", "\"pipe\" is a FIFO (named pipe)")
        #expect(pipe?.message.contains("permission") == false)

        try scratch.write(#"[{"request": {"url": "://a.test/q"}, "response": {"code": 200, "file": "dir"}}]"#, to: "other/bundle.json")
        expectMessage(refusal { () throws(HTTPMockError) in try HTTPMock().loadMockingbirdBundle(at: other) },
                      "bundle.json at [0].response.file", "\"dir\" is a folder, not a file")

        let mappings = try scratch.folder("mappings")
        _ = try scratch.folder("mappings/folder.mock.json")
        expectMessage(refusal { () throws(HTTPMockError) in try HTTPMock().loadMappings(from: mappings) },
                      "folder.mock.json", "is a folder, not a file")
    }

    // MARK: Values in code

    @Test func aStatusOutsideTheHTTPRangeIsARegistrationError() throws {
        for response in [MockResponse.plaintext("x", status: 1000), MockResponse(status: 99), MockResponse.empty(status: .other(0)),
                         { var r = MockResponse.empty(); r.status = 600; return r }()] {
            let mock = HTTPMock()
            let error = refusal { () throws(HTTPMockError) in _ = try mock.stub(.host("a.test"), responses: [response]) }
            expectMessage(error, "status \(response.status.code) is not an HTTP status code", "100-599")
            #expect(error?.code == .invalidResponse)
            #expect(mock.stubUsage.isEmpty)
        }
        let mock = HTTPMock()
        _ = try mock.stub(.host("a.test"), responses: [.empty(status: 599), .empty(status: 100), .failure(URLError(.timedOut))])
    }

    @Test func aFailureNeedsNoStatus() throws {
        var failure = MockResponse.failure(URLError(.timedOut))
        failure.status = 0
        _ = try HTTPMock().stub(.host("a.test"), responses: [failure])
    }
}
