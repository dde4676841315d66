import Foundation
import Testing
@testable import HTTPMock

/// gzip made by the system's own `gzip` tool (the reference), read back by HTTPMock's inflater.
private func systemGzip(_ data: Data, level: Int) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: FileManager.default.isExecutableFile(atPath: "/usr/bin/gzip") ? "/usr/bin/gzip" : "/bin/gzip")
    process.arguments = ["-c", "-n", "-\(level)"]
    let input = FileManager.default.temporaryDirectory.appendingPathComponent("gzip-input-\(UUID().uuidString)")
    try data.write(to: input)
    defer { try? FileManager.default.removeItem(at: input) }
    process.standardInput = try FileHandle(forReadingFrom: input)
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let compressed = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return compressed
}

@Suite("gzip request bodies are inflated exactly as the gzip tool wrote them, and anything else is refused by name", .disabled(if: ProcessInfo.processInfo.environment["HTTPMOCK_SANITIZED"] == "address", "launches gzip, which Foundation cannot do reliably under AddressSanitizer"))
struct GzipTests {
    /// Bodies of every size and kind: empty, a byte, text that repeats (dynamic Huffman blocks, long matches),
    /// random bytes (stored blocks), runs (distances that overlap the bytes they copy), past 64 KiB (several blocks).
    private static func body(_ kind: Int, size: Int, using random: inout SplitMix) -> Data {
        switch kind {
        case 0: return Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &random) })
        case 1:
            let words = ["{\"id\":", "\"name\":\"Ada\"", ",", "[1,2,3]", "é", "\n", "    ", "null}", "🙂"]
            var text = ""
            while text.utf8.count < size { text += words.randomElement(using: &random)! }
            return Data(text.utf8.prefix(size))
        default: return Data((0..<size).map { index in UInt8(truncatingIfNeeded: index / max(1, size / 7)) })
        }
    }

    @Test("generated bodies from 0 bytes to past 64 KiB, at levels 1, 6 and 9: each inflates to what was compressed (HTTPMOCK_GZIP_START replays a run)")
    func generatedBodiesRoundTrip() throws {
        let start = ProcessInfo.processInfo.environment["HTTPMOCK_GZIP_START"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        var random = SplitMix(seed: start)
        let sizes = [0, 1, 2, 3, 257, 1_000, 32_768, 65_535, 65_536, 70_000, 200_000]
        for size in sizes {
            for kind in 0..<3 {
                let original = Self.body(kind, size: size, using: &random)
                let level = [1, 6, 9].randomElement(using: &random)!
                let compressed = try systemGzip(original, level: level)
                let inflated = try Gzip.decompress(compressed, limit: 1 << 20)
                #expect(inflated == original, "size \(size), kind \(kind), level \(level), HTTPMOCK_GZIP_START=\(start)")
            }
        }
    }

    @Test("members in a row are joined; what follows the last and is no member is left, as Java's GZIPInputStream leaves it")
    func membersAndTrailingBytes() throws {
        let one = try systemGzip(Data("one ".utf8), level: 6)
        let two = try systemGzip(Data("two".utf8), level: 6)
        #expect(try Gzip.decompress(one + two, limit: 100) == Data("one two".utf8))
        #expect(try Gzip.decompress(one + Data("junk".utf8), limit: 100) == Data("one ".utf8))
        // Compressed twice, inflated once: what is left is the inner gzip.
        #expect(try Gzip.decompress(try systemGzip(two, level: 6), limit: 100) == two)
    }

    @Test("cut anywhere or changed in any byte: an error naming the problem or the original bytes, never a wrong body or a crash")
    func damagedDataIsRefused() throws {
        let original = Data(String(repeating: "{\"event\":\"tap\",\"count\":12}", count: 40).utf8)
        let compressed = try systemGzip(original, level: 9)
        for length in 0..<compressed.count {
            #expect(throws: Gzip.Failure.self, "cut at \(length)") { try Gzip.decompress(compressed.prefix(length), limit: 1 << 20) }
        }
        for index in compressed.indices {
            for flip: UInt8 in [0x01, 0x80, 0xFF] {
                var changed = compressed
                changed[index] ^= flip
                // Changing the header's time, flags for extra fields it lacks… may leave the contents whole; a change
                // that reaches the contents is caught by DEFLATE's structure or by the CRC-32 and length.
                if let inflated = try? Gzip.decompress(changed, limit: 1 << 20) {
                    #expect(inflated == original, "byte \(index) ^ \(flip) gave another body")
                }
            }
        }
    }

    @Test("a body that inflates past its limit is stopped there, and says so")
    func inflatingPastTheLimit() throws {
        let zeros = try systemGzip(Data(count: 1 << 20), level: 9)
        #expect(zeros.count < 2_000)
        #expect(try Gzip.decompress(zeros, limit: 1 << 20).count == 1 << 20)
        #expect {
            try Gzip.decompress(zeros, limit: 65_536)
        } throws: { error in
            (error as? Gzip.Failure)?.isTooLarge == true && "\(error)".contains("65536")
        }
    }

    @Test("what is no gzip is refused naming why: another format, another method, data cut short, a reserved block type")
    func notGzip() {
        let cases: [(Data, String)] = [
            (Data("{\"a\":1}".utf8), "magic bytes"),
            (Data([0x1F, 0x8B, 0x07, 0, 0, 0, 0, 0, 0, 0, 0, 0]), "compression method 7"),
            (Data([0x1F, 0x8B, 0x08, 0x20, 0, 0, 0, 0, 0, 0, 0, 0]), "cut short"),
            (Data([0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0, 0, 0xFF]), "reserved type 3"),
        ]
        for (data, words) in cases {
            #expect {
                try Gzip.decompress(data, limit: 100)
            } throws: { error in
                "\(error)".contains(words)
            }
        }
    }

    @Test("a body is inflated where it comes in only when its Content-Encoding names gzip or x-gzip, in any case, among others")
    func whichBodiesAreInflated() throws {
        let packed = try systemGzip(Data("hello".utf8), level: 6)
        func decoded(_ encoding: String?) throws -> Data? {
            var headers = HeaderFields()
            if let encoding { headers.add("Content-Encoding", encoding) }
            return try RequestContentCoding.decoded(packed, headers: headers, limit: 100)
        }
        for encoding in ["gzip", "GZIP", "x-gzip", "gzip, identity", " identity ,gzip "] {
            #expect(try decoded(encoding) == Data("hello".utf8), "\(encoding)")
        }
        for encoding in [nil, "identity", "deflate", "br", "gzipped"] as [String?] {
            #expect(try decoded(encoding) == packed, "\(encoding ?? "none")")
        }
        var marked = HeaderFields()
        marked.add("Content-Encoding", "gzip")
        #expect(try RequestContentCoding.decoded(Data(), headers: marked, limit: 100) == Data())
        #expect(try RequestContentCoding.decoded(nil, headers: marked, limit: 100) == nil)
        #expect(throws: Gzip.Failure.self) { try RequestContentCoding.decoded(Data("plain".utf8), headers: marked, limit: 100) }
    }
}

@Suite("A request body sent gzip is matched, templated and journaled inflated, as WireMock reads it", .disabled(if: ProcessInfo.processInfo.environment["HTTPMOCK_SANITIZED"] == "address", "launches gzip, which Foundation cannot do reliably under AddressSanitizer"))
struct GzipRequestBodyTests {
    private static let mappings = #"""
    {"mappings": [
      {"request": {"method": "POST", "urlPath": "/events", "bodyPatterns": [{"equalToJson": {"event": "tap", "count": 12}}]},
       "response": {"status": 200, "body": "json matched"}},
      {"request": {"method": "POST", "urlPath": "/echo"},
       "response": {"status": 200, "body": "[{{request.body}}]", "transformers": ["response-template"]}}
    ]}
    """#

    @Test("over URLSession: a WireMock equalToJson and a Swift .json stub match the inflated body; a template and the journal read it")
    func interceptedBodies() async throws {
        let root = try WireMockBadInputTests.folder(["mappings/gzip.json": Self.mappings])
        defer { try? FileManager.default.removeItem(at: root) }
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: root)
        try mock.stub(.method(.post), .path("/swift"), .json(object: ["event": "tap"]), responses: [.plaintext("swift matched", lifetime: .eternal)])
        let json = Data(#"{"count": 12, "event": "tap"}"#.utf8)
        let packed = try systemGzip(json, level: 6)
        let gzip = ["Content-Encoding": "gzip", "Content-Type": "application/json"]
        #expect(try await mock.urlSession.fetch("https://api.example.com/events", method: "POST", headers: gzip, body: packed).text == "json matched")
        #expect(try await mock.urlSession.fetch("https://api.example.com/echo", method: "POST", headers: gzip,
                                                body: try systemGzip(Data("hi there".utf8), level: 1)).text == "[hi there]")
        #expect(try await mock.urlSession.fetch("https://api.example.com/swift", method: "POST", headers: gzip,
                                                body: try systemGzip(Data(#"{"event":"tap"}"#.utf8), level: 9)).text == "swift matched")
        // Without the header, gzip bytes are a body of their own: a .gz upload stays a .gz upload.
        #expect(try await mock.urlSession.fetch("https://api.example.com/events", method: "POST", body: packed).status == 404)
        let first = try #require(mock.journal.first)
        #expect(first.request.body == json)
        #expect(first.request.headers["Content-Encoding"] == "gzip")
        #expect(first.request.sentBody == nil)  // the compressed bytes went on with the live request only
        #expect(mock.journal.last?.request.body == packed)
    }

    @Test("over URLSession: a body marked gzip that is not fails the task with cannotDecodeRawData, saying what is wrong")
    func interceptedBodyThatIsNotGzip() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/events") { MockResponse.plaintext("answered", lifetime: .eternal) }
        await #expect {
            _ = try await mock.urlSession.fetch("https://api.example.com/events", method: "POST", headers: ["Content-Encoding": "gzip"],
                                                body: Data(#"{"event":"tap"}"#.utf8))
        } throws: { error in
            (error as? URLError)?.code == .cannotDecodeRawData
                && (error as NSError).localizedDescription.contains("marked Content-Encoding: gzip and cannot be read")
        }
        #expect(mock.journal.isEmpty)
    }
}

@Suite("WireMock's JSON body patterns read the body in the charset its Content-Type names")
struct WireMockJSONCharsetTests {
    @Test("equalToJson and matchesJsonPath match Latin-1 and UTF-16 bodies under their charset, and not without it")
    func charsets() async throws {
        let mappings = #"""
        {"mappings": [
          {"request": {"method": "POST", "urlPath": "/equal", "bodyPatterns": [{"equalToJson": {"name": "José"}}]}, "response": {"body": "equal"}},
          {"request": {"method": "POST", "urlPath": "/path", "bodyPatterns": [{"matchesJsonPath": {"expression": "$.name", "equalTo": "José"}}]}, "response": {"body": "path"}}
        ]}
        """#
        let root = try WireMockBadInputTests.folder(["mappings/charsets.json": mappings])
        defer { try? FileManager.default.removeItem(at: root) }
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: root)
        let document = #"{"name":"José"}"#
        let cases: [(Data, String, Bool)] = [
            (try #require(document.data(using: .isoLatin1)), "application/json; charset=ISO-8859-1", true),
            (try #require(document.data(using: .isoLatin1)), "application/json", false),
            (try #require(document.data(using: .utf16)), "application/json; charset=UTF-16", true),
            (try #require(document.data(using: .utf16)), "application/json", false),
            (Data(("\u{FEFF}" + document).utf8), "application/json", false),
            (Data(#"{"name":"José",}"#.utf8), "application/json", false),
        ]
        for (body, type, matches) in cases {
            let equal = try await mock.urlSession.fetch("https://api.example.com/equal", method: "POST", headers: ["Content-Type": type], body: body)
            #expect((equal.status == 200) == matches, "equalToJson, \(type), \(body.count) bytes")
            let path = try await mock.urlSession.fetch("https://api.example.com/path", method: "POST", headers: ["Content-Type": type], body: body)
            #expect((path.status == 200) == (matches || body.last == UInt8(ascii: "}") && body.dropLast().last == UInt8(ascii: ",")),
                    "matchesJsonPath, \(type), \(body.count) bytes")
        }
    }
}

@Suite("gzip headers are read as Java's GZIPInputStream reads them")
struct GzipHeaderTests {
    @Test("reserved flag bits are left unread; a name, a comment and an extra field are skipped")
    func flags() throws {
        // A member of "hi" made by hand: fixed Huffman codes for 'h', 'i' and the end of the block.
        let deflate: [UInt8] = [0xCB, 0xC8, 0x04, 0x00]
        let trailer: [UInt8] = [0xAC, 0x2A, 0x93, 0xD8, 0x02, 0x00, 0x00, 0x00]
        let plain: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0, 0xFF]
        #expect(try Gzip.decompress(Data(plain + deflate + trailer), limit: 10) == Data("hi".utf8))
        let reserved: [UInt8] = [0x1F, 0x8B, 0x08, 0xE0, 0, 0, 0, 0, 0, 0xFF]
        #expect(try Gzip.decompress(Data(reserved + deflate + trailer), limit: 10) == Data("hi".utf8))
        // FEXTRA (2 bytes), FNAME and FCOMMENT.
        let labelled: [UInt8] = [0x1F, 0x8B, 0x08, 0x1C, 0, 0, 0, 0, 0, 0xFF, 0x02, 0x00, 0xAA, 0xBB] + Array("a.txt".utf8) + [0]
            + Array("note".utf8) + [0]
        #expect(try Gzip.decompress(Data(labelled + deflate + trailer), limit: 10) == Data("hi".utf8))
        // An extra field or a name running past the end is the data cut short, never a read past it.
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress(Data([0x1F, 0x8B, 0x08, 0x04, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF]), limit: 10) }
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress(Data([0x1F, 0x8B, 0x08, 0x08, 0, 0, 0, 0, 0, 0xFF] + Array("name".utf8)), limit: 10) }
    }
}
