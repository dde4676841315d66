import Foundation
@testable import HTTPMock
import Testing

/// The request path's byte-level shortcuts give the answers of the Foundation calls they stand for.
@Suite struct FastPathTests {
    static let pieces = ["content-type", "Content-Type", "X-KEY", "x-key", "é", "É", "ß", "SS", "a", "A", "", "-", "Ä-b", "ä-B",
                         "\u{212A}", "k", "K"]

    @Test("header names compare ignoring case as caseInsensitiveCompare does")
    func headerNames() {
        let seed = UInt64.random(in: 0...UInt64.max)
        var state = seed
        func pick() -> String {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let count = Int(state >> 60) % 3 + 1
            return (0..<count).map { index in Self.pieces[Int((state >> UInt64(8 * index)) & 0xFF) % Self.pieces.count] }.joined()
        }
        for _ in 0..<2_000 {
            let a = pick(), b = Bool.random() ? pick() : a.uppercased()
            #expect(ASCIICase.equalIgnoringCase(a, b) == (a.caseInsensitiveCompare(b) == .orderedSame), "seed \(seed): \(a) / \(b)")
        }
    }

    /// The reading of a URL's path and query before it went over the UTF-8 bytes.
    static func reference(_ url: URL) -> (path: String, query: String?) {
        var rest = Substring(url.absoluteString)
        if let scheme = rest.range(of: "://") {
            rest = rest[scheme.upperBound...]
            rest = rest[(rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex)...]
        }
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        guard let mark = rest.firstIndex(of: "?") else { return (String(rest), nil) }
        return (String(rest[..<mark]), String(rest[rest.index(after: mark)...]))
    }

    @Test("a request's path and query as written are read as before", arguments: [
        "https://api.example.com/users/42?x=1#top", "http://127.0.0.1:8080/", "http://h", "http://h?q", "http://h#f",
        "https://h/a%20b/c?u=http://x/y", "mailto:someone@example.com", "urn:isbn:0451450523", "file:///tmp/a?b",
        "http://user:pass@h:1/p?q=é", "custom-scheme://host/path", "http://h/p://q",
    ])
    func relativeURL(_ text: String) throws {
        let url = try #require(URL(string: text))
        let read = RelativeURL(url)
        let expected = Self.reference(url)
        #expect(read.path == expected.path && read.query == expected.query, "\(text)")
    }

    @Test("WireMock's contains finds what the escaped regular expression finds")
    func containsAsTheExpression() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        var state = seed
        func pick(_ count: Int) -> String {
            (0..<count).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return ["a", "b", ".", "*", "(", "é", "e\u{301}", "😀", "\\", " ", "A"][Int(state >> 59) % 11]
            }.joined()
        }
        for _ in 0..<1_000 {
            let needle = pick(1 + Int(state >> 62)), haystack = pick(Int(state >> 60) % 9)
            guard case .test(_, let test, _) = WireMockValuePattern.contains(needle) else { Issue.record("not a test"); return }
            let regex = try NSRegularExpression(pattern: NSRegularExpression.escapedPattern(for: needle))
            let expected = regex.firstMatch(in: haystack, range: NSRange(haystack.startIndex..., in: haystack)) != nil
            #expect(test(haystack) == expected, "seed \(seed): \(String(reflecting: needle)) in \(String(reflecting: haystack))")
        }
    }
}

@Suite struct RandomUUIDTests {
    @Test func versionFourAndDistinctFromManyThreads() async {
        let batches = await withTaskGroup(of: [UUID].self) { group in
            for _ in 0..<8 { group.addTask { (0..<2_000).map { _ in UUID.random() } } }
            return await group.reduce(into: [[UUID]]()) { $0.append($1) }
        }
        let all = batches.flatMap { $0 }
        #expect(Set(all).count == all.count, "a UUID was given twice")
        for id in all {
            let bytes = id.uuid
            #expect(bytes.6 >> 4 == 4, "not version 4: \(id)")
            #expect(bytes.8 >> 6 == 0b10, "not the variant of RFC 9562: \(id)")
            // Foundation reads it back as the same UUID; its text in lower case is Foundation's, lowered.
            #expect(UUID(uuidString: id.uuidString) == id)
            #expect(id.lowercasedText == id.uuidString.lowercased())
        }
        for byte: UInt8 in [0x00, 0xFF, 0xA5] {
            let id = UUID(uuid: (byte, byte, byte, byte, byte, byte, byte, byte, byte, byte, byte, byte, byte, byte, byte, byte))
            #expect(id.lowercasedText == id.uuidString.lowercased())
        }
        // Every bit outside the version and variant varies across 16,000 draws.
        var seenOne = [UInt8](repeating: 0, count: 16), seenZero = [UInt8](repeating: 0, count: 16)
        for id in all {
            withUnsafeBytes(of: id.uuid) { raw in
                for index in 0..<16 {
                    seenOne[index] |= raw[index]
                    seenZero[index] |= ~raw[index]
                }
            }
        }
        seenOne[6] |= 0xF0; seenZero[6] |= 0xF0; seenOne[8] |= 0xC0; seenZero[8] |= 0xC0
        #expect(seenOne == [UInt8](repeating: 0xFF, count: 16) && seenZero == [UInt8](repeating: 0xFF, count: 16))
    }
}

@Suite struct HeaderNameCheckTests {
    @Test("a header name is refused by its bytes exactly when its characters would refuse it")
    func bytesAgreeWithCharacters() {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("HeaderNameCheckTests seed: \(seed)")
        var random = SplitMix(seed: seed)
        let pieces = ["X-Key", "a", ":", " ", "\t", "\r\n", "\u{00A0}", "\u{2028}", "\u{0085}", "\u{7F}", "\u{01}", "\u{1F}", "é",
                      "\u{0301}", "~", "!", "Content-Type", "\u{3000}", ""]
        for _ in 0..<2_000 {
            let name = (0..<Int.random(in: 0...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let refusedByCharacters = name.isEmpty || name.contains { $0.isWhitespace || $0 == ":" }
            #expect((Match.invalidName(name) != nil) == refusedByCharacters, "\(name.debugDescription), seed \(seed)")
        }
    }
}

@Suite struct OpenFolderTests {
    @Test("a folder held open reads its files by name, and is not opened through a symbolic link")
    func refusesALink() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("open-folder-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let real = root.appendingPathComponent("real"), link = root.appendingPathComponent("link")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: real.appendingPathComponent("m.json"))
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        let folder = try #require(LocalFile.OpenFolder(path: real.path))
        guard case .data(let data) = LocalFile.contents(unlessLink: "m.json", in: folder, limit: 100) else {
            Issue.record("m.json not read from its open folder")
            return
        }
        #expect(data == Data("{}".utf8))
        #expect(LocalFile.OpenFolder(path: link.path) == nil, "a link to a folder was opened as the folder")
        #expect(LocalFile.OpenFolder(path: real.appendingPathComponent("m.json").path) == nil, "a file was opened as a folder")
    }
}

@Suite struct FolderWalkTests {
    @Test("a folder tree is listed alike whether its folders are walked on one core or several", arguments: [3, 40])
    func everyCoreListsTheSame(folders: Int) throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SplitMix(seed: seed)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("walk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let manager = FileManager.default
        let outside = root.appendingPathComponent("outside")
        try manager.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: outside.appendingPathComponent("x.json"))
        let mappings = root.appendingPathComponent("mappings")
        var expected: [String] = []
        for folder in 0..<folders {
            // Folders at several depths, each with a few files: some kept, some hidden, some of another kind.
            var relative = "f\(folder)"
            for _ in 0..<Int.random(in: 0..<3, using: &random) { relative += "/s\(Int.random(in: 0..<3, using: &random))" }
            let url = mappings.appendingPathComponent(relative)
            try manager.createDirectory(at: url, withIntermediateDirectories: true)
            for file in 0..<Int.random(in: 0..<4, using: &random) {
                let name = ["m\(file).json", "M\(file).JSON", ".hidden\(file).json", "n\(file).txt"][Int.random(in: 0..<4, using: &random)]
                guard !manager.fileExists(atPath: url.appendingPathComponent(name).path) else { continue }
                try Data("{}".utf8).write(to: url.appendingPathComponent(name))
                if !name.hasPrefix("."), name.lowercased().hasSuffix(".json") { expected.append(relative + "/" + name) }
            }
        }
        try manager.createDirectory(at: mappings.appendingPathComponent(".hiddenfolder"), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: mappings.appendingPathComponent(".hiddenfolder/h.json"))
        // A link to a folder is not followed; a link to a file is listed (the reader checks where it leads).
        try manager.createSymbolicLink(at: mappings.appendingPathComponent("linked"), withDestinationURL: outside)
        try manager.createSymbolicLink(at: mappings.appendingPathComponent("one.json"),
                                       withDestinationURL: outside.appendingPathComponent("x.json"))
        expected.append("one.json")
        #expect(WireMockFolder.mappingFiles(in: mappings) == expected.sorted(), "seed \(seed)")
        // On one core and on several, whatever this machine has.
        let json: @Sendable (String) -> Bool = { !$0.hasPrefix(".") && $0.lowercased().hasSuffix(".json") }
        for cores in [1, 2, 5] {
            #expect(LocalFile.walk(mappings.path, cores: cores, keeping: json).sorted() == expected.sorted(), "seed \(seed), \(cores) cores")
        }
    }
}

