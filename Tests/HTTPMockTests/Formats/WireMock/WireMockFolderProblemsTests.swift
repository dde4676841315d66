import Foundation
import Testing
import TestSupport
@testable import HTTPMock

/// A WireMock folder with several problems: one error lists them all, or, skipping what is invalid, the good
/// mappings are served and each bad one is named.
@Suite struct WireMockFolderProblemsTests {
    /// Four mappings in one file (one escapes `__files`, one has an unknown key), a file that is not JSON, and a
    /// file written with comments and single quotes, as WireMock's parser reads them.
    static let files = [
        "mappings/four.json": """
            {"mappings": [
              {"request": {"url": "/a"}, "response": {"body": "a"}},
              {"name": "escapes", "request": {"url": "/b"}, "response": {"bodyFileName": "../secret.txt"}},
              {"request": {"url": "/c", "bodyPattern": []}, "response": {"body": "c"}},
              {"request": {"url": "/d"}, "response": {"body": "d"}}
            ]}
            """,
        "mappings/broken.json": #"{"request": {"url": "/e""#,
        "mappings/relaxed.json": """
            {
              // written by hand
              'request': {'url': '/f'},
              'response': {'body': 'f', /* trailing comma next */ },
            }
            """,
        "__files/a.txt": "a",
        "secret.txt": "secret",
    ]

    @Test("a load lists every problem of the folder, each with its file, mapping and key, and registers nothing")
    func everyProblemAtOnce() throws {
        let root = try WireMockBadInputTests.folder(Self.files)
        defer { try? FileManager.default.removeItem(at: root) }
        let mock = HTTPMock()
        var message = ""
        do {
            try mock.loadWireMockMappings(from: root)
            Issue.record("loaded without an error")
        } catch {
            message = error.message
        }
        #expect(mock.stubUsage.isEmpty)
        let lines = message.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.first == "\(root.standardizedFileURL.path): 3 problems, nothing was loaded; fix each of them:")
        #expect(lines.count == 4)
        #expect(lines.contains { $0.hasPrefix("- mappings/broken.json line 1, column") && $0.contains("the JSON is malformed") })
        #expect(lines.contains { $0.hasPrefix(#"- mappings/four.json mappings[1], mapping "escapes" at response.bodyFileName"#) })
        #expect(lines.contains { $0.hasPrefix(#"- mappings/four.json mappings[2] at request: unknown key "bodyPattern""#) })
    }

    @Test("skipping what is invalid serves the other mappings of the same file, and names each one left out")
    func skippingLeavesOutTheMappingNotTheFile() async throws {
        let root = try WireMockBadInputTests.folder(Self.files)
        defer { try? FileManager.default.removeItem(at: root) }
        let mock = HTTPMock()
        let prepared = try mock.prepareWireMockMappings(from: root, skippingInvalid: true)
        #expect(prepared.stubCount == 3)
        #expect(prepared.skipped.count == 3)
        try mock.register([prepared], slot: "folder")
        #expect(try await mock.urlSession.fetch("http://localhost/a").text == "a")
        #expect(try await mock.urlSession.fetch("http://localhost/d").text == "d")
        #expect(try await mock.urlSession.fetch("http://localhost/f").text == "f")
        #expect(mock.stubUsage.count == 3)
    }

    @Test("a file that is neither JSON nor UTF-8 is a problem named with its place, never a stop of the process")
    func notUTF8() throws {
        var bytes = Array(#"{"mappings": [{"request": {"method": "GET", "u"#.utf8)
        bytes += [0xA2] + Array(#"rl": "/a"},}]}"#.utf8)
        let root = try WireMockBadInputTests.folder([:])
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        try Data(bytes).write(to: root.appendingPathComponent("mappings/odd.json"))
        #expect { try HTTPMock().loadWireMockMappings(from: root) } throws: { error in
            ((error as? HTTPMockError)?.message ?? "").hasPrefix("mappings/odd.json")
        }
    }

    @Test("one problem is thrown as it is, without a list")
    func oneProblemAlone() throws {
        let root = try WireMockBadInputTests.folder(["mappings/one.json": #"{"request": {"url": 7}}"#])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect { try HTTPMock().loadWireMockMappings(from: root) } throws: { error in
            (error as? HTTPMockError)?.message == "mappings/one.json at request.url: expected a string, not a number (7)"
        }
    }
}

/// Mapping files reached through a symbolic link out of the WireMock folder are refused, never read.
@Suite struct WireMockFolderLinkTests {
    @Test("a mapping file that links out of the folder, and a subfolder that does, are refused or never listed")
    func linksOutAreRefused() throws {
        let outside = try WireMockBadInputTests.folder(["away/x.json": #"{"request": {"url": "/outside"}, "response": {"body": "secret"}}"#])
        defer { try? FileManager.default.removeItem(at: outside) }
        let root = try WireMockBadInputTests.folder(["mappings/ok.json": #"{"request": {"url": "/ok"}, "response": {"body": "ok"}}"#])
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("mappings/linked.json"),
                                                   withDestinationURL: outside.appendingPathComponent("away/x.json"))
        #expect { try HTTPMock().loadWireMockMappings(from: root) } throws: { error in
            let message = (error as? HTTPMockError)?.message ?? ""
            return message.contains("mappings/linked.json") && message.contains("leaves the folder") && message.contains("symbolic link")
        }
        try FileManager.default.removeItem(at: root.appendingPathComponent("mappings/linked.json"))
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("mappings/away"),
                                                   withDestinationURL: outside.appendingPathComponent("away"))
        let mock = HTTPMock()
        do {
            let loaded = try mock.loadWireMockMappings(from: root)
            #expect(loaded.stubCount == 1, "only mappings/ok.json is listed: the listing does not follow the link")
        } catch {
            #expect(error.message.contains("leaves the folder"))
        }
    }
}

/// A folder large enough to be read on every core gives what reading its files one by one, in order, gives.
@Suite struct WireMockLargeFolderTests {
    @Test("1,300 files of every size, in nested folders, some broken: the same stubs, files and problems, in file order")
    func largeFolderReadsAsOnePass() async throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("WireMockLargeFolderTests seed: \(seed)")
        var random = SplitMix(seed: seed)
        let count = WireMockFolderPart.parallelFrom + 300
        // Folder names that sort between their own files (`a.json` < `a/b.json` < `a/c.json`), so that a core goes
        // back to a folder it left.
        let folders = ["", "a/", "a/b/", "a-b/", "z/deep/er/"]
        // Around the page and socket-buffer sizes, and empty.
        let sizes = [0, 1, 4_095, 4_096, 4_097, 65_535, 65_537, 300_000]
        var files: [String: String] = [:]
        var expected: [(name: String, url: String?, body: String)] = []
        for index in 0..<count {
            let name = "mappings/\(folders.randomElement(using: &random)!)m\(index).json"
            let padding = String(repeating: " ", count: index % 97 == 0 ? sizes.randomElement(using: &random)! : 0)
            if index % 151 == 7 {
                files[name] = index % 2 == 0 ? "" : #"{"request": {"url": 7}}"# + padding
                expected.append((name, nil, ""))
            } else {
                let body = "body \(index)"
                files[name] = #"{"request": {"method": "GET", "url": "/f/\#(index)"}, "response": {"body": "\#(body)"}}"# + padding
                expected.append((name, "/f/\(index)", body))
            }
        }
        let root = try WireMockBadInputTests.folder(files)
        defer { try? FileManager.default.removeItem(at: root) }
        expected.sort { $0.name < $1.name }
        let mock = HTTPMock()
        let prepared = try mock.prepareWireMockMappings(from: root, skippingInvalid: true, trackingFiles: true)
        let good = expected.filter { $0.url != nil }
        #expect(prepared.files.map(\.path) == good.map { root.standardizedFileURL.path + "/" + $0.name }, "seed \(seed)")
        #expect(prepared.files.allSatisfy { $0.count == 1 }, "seed \(seed)")
        let broken = expected.filter { $0.url == nil }.map(\.name)
        #expect(prepared.skipped.map { String($0.message.prefix { $0 != " " }) } == broken, "seed \(seed)")
        try mock.register([prepared], slot: "folder")
        for _ in 0..<40 {
            let pick = good.randomElement(using: &random)!
            #expect(try await mock.urlSession.fetch("http://localhost\(pick.url!)").text == pick.body, "seed \(seed)")
        }
    }
}

/// A large folder read on every core gives, file by file, what reading each file on its own gives.
@Suite struct WireMockLargeFolderFileByFileTests {
    @Test("files of several mappings, broken mappings among good ones, broken files: stubs, files and problems as each file alone gives them, in file order")
    func asEachFileAlone() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("WireMockLargeFolderFileByFileTests seed: \(seed)")
        var random = SplitMix(seed: seed)
        let count = WireMockFolderPart.parallelFrom + 150
        var files: [String: String] = ["__files/x.txt": "x"]
        for index in 0..<count {
            var mappings: [String] = []
            for position in 0..<(1 + Int(random.next() % 3)) {
                switch random.next() % 6 {
                case 0: mappings.append("5")  // not an object: refused when the file is read
                case 1: mappings.append(#"{"request": {"url": 7}}"#)  // refused when translated
                default: mappings.append(#"{"request": {"method": "GET", "url": "/f/\#(index)/\#(position)"}, "response": {"body": "b"}}"#)
                }
            }
            let text = switch random.next() % 8 {
            case 0: "not JSON"
            case 1 where mappings.count == 1: mappings[0]
            default: #"{"mappings": [\#(mappings.joined(separator: ", "))]}"#
            }
            files[String(format: "mappings/m%05d", Int(random.next() % 100_000)) + "-\(index).json"] = text
        }
        let root = try WireMockBadInputTests.folder(files)
        defer { try? FileManager.default.removeItem(at: root) }
        let mock = HTTPMock()
        let whole = try mock.prepareWireMockMappings(from: root, skippingInvalid: true, trackingFiles: true)
        var paths: [String] = [], problems: [String] = [], tracked: [String] = []
        for name in files.keys.filter({ $0.hasPrefix("mappings/") }).sorted() {
            let alone = try mock.prepareWireMockMappings(from: root.appendingPathComponent(name), skippingInvalid: true, trackingFiles: true)
            paths += alone.definitions.map { String(describing: $0.path) }
            problems += alone.skipped.map(\.message)
            tracked += alone.files.map { "\($0.path) \($0.count)" }
        }
        #expect(whole.definitions.map { String(describing: $0.path) } == paths, "seed \(seed)")
        #expect(whole.skipped.map(\.message) == problems, "seed \(seed)")
        #expect(whole.files.map { "\($0.path) \($0.count)" } == tracked, "seed \(seed)")
        #expect(!problems.isEmpty && paths.count > count / 2, "seed \(seed)")
    }
}

/// One mapping file of a served folder read again on its own (a tool that watches the folder) is held to the
/// folder's rules: no symbolic link out of it.
@Suite struct WireMockOneFileInFolderTests {
    @Test("a mapping file read in its folder is refused when it links out of the folder, and read when its link stays inside")
    func linkOutRefused() throws {
        let mapping = #"{"request": {"urlPath": "/x"}, "response": {"body": "x"}}"#
        let root = try WireMockBadInputTests.folder(["mappings/a.json": mapping, "__files/inside.json": mapping])
        let outside = try WireMockBadInputTests.folder(["secret.json": mapping])
        defer { for folder in [root, outside] { try? FileManager.default.removeItem(at: folder) } }
        let out = root.appendingPathComponent("mappings/out.json"), inside = root.appendingPathComponent("mappings/in.json")
        try FileManager.default.createSymbolicLink(at: out, withDestinationURL: outside.appendingPathComponent("secret.json"))
        try FileManager.default.createSymbolicLink(at: inside, withDestinationURL: root.appendingPathComponent("__files/inside.json"))
        let mock = HTTPMock()
        #expect {
            try mock.prepareWireMockMappings(from: out, trackingFiles: true, inFolder: root)
        } throws: { "\($0)".contains("\"mappings/out.json\" leaves the folder") }
        // Through the mappings folder's path as a tool names it, too.
        #expect(throws: HTTPMockError.self) {
            try mock.prepareWireMockMappings(from: URL(fileURLWithPath: root.path + "/mappings/../mappings/out.json"), inFolder: root)
        }
        #expect(try mock.prepareWireMockMappings(from: inside, trackingFiles: true, inFolder: root).stubCount == 1)
        #expect(try mock.prepareWireMockMappings(from: root.appendingPathComponent("mappings/a.json"), inFolder: root).stubCount == 1)
        // A file named on its own, without its folder, is read through its link, as before.
        #expect(try mock.prepareWireMockMappings(from: out).stubCount == 1)
    }
}
