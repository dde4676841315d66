import Foundation
import Testing
@testable import HTTPMock

/// Walks the bad-input corpus (`Fixtures/BadInput/`): every malformed pattern, template and format file in it must
/// be refused with an ``HTTPMockError`` whose message names what and where, must not crash, and must leave the mock
/// exactly as it was (nothing half registered).
///
/// - `patterns.tsv`, `templates.tsv`: kind, input, expected message substrings.
/// - `expectations.tsv`: a file or folder under `HAR/`, `Mappings/`, `Mockingbird/`, then expected substrings.
///   Every input there must have a row, and every row an input.
@Suite struct BadInputCorpusTests {
    static let root = fixtures.appendingPathComponent("BadInput")

    @Test func everyBadInputIsRefusedWithItsMessageAndRegistersNothing() throws {
        var checked = 0
        for file in ["patterns.tsv", "templates.tsv"] {
            for row in try Self.rows(file) {
                let input = row.fields[0]
                try expectRefusal(of: "\(file):\(row.line) \(row.kind) \(input.debugDescription)", expected: Array(row.fields.dropFirst()),
                                  namesInput: input) { mock throws(HTTPMockError) in
                    _ = try mock.stub(Self.matcher(row.kind, input), responses: [.plaintext("never")])
                }
                checked += 1
            }
        }

        let rows = try Self.rows("expectations.tsv")
        let listed = Set(rows.map(\.kind))
        let present = try Self.formatInputs()
        #expect(present.subtracting(listed).isEmpty, "inputs without a row in expectations.tsv: \(present.subtracting(listed).sorted())")
        #expect(listed.subtracting(present).isEmpty, "rows of expectations.tsv without an input: \(listed.subtracting(present).sorted())")
        for row in rows {
            let url = Self.root.appendingPathComponent(row.kind)
            try expectRefusal(of: "expectations.tsv:\(row.line) \(row.kind)", expected: row.fields, namesInput: nil) { mock throws(HTTPMockError) in
                switch row.kind.split(separator: "/").first {
                case "HAR": _ = try mock.loadHAR(at: url)
                case "Mappings": _ = try mock.loadMappings(from: url)
                case "Mockingbird": _ = try mock.loadMockingbirdBundle(at: url)
                default: Issue.record("expectations.tsv:\(row.line): \(row.kind) is in no known format folder")
                }
            }
            checked += 1
        }
        // The corpus is not empty by accident (a moved folder would make this test pass vacuously).
        #expect(checked >= 60, "only \(checked) bad inputs were checked")
    }

    /// Registers a sentinel stub, runs `load`, and checks it threw the expected message and changed nothing.
    private func expectRefusal(of name: String, expected: [String], namesInput input: String?,
                               _ load: (HTTPMock) throws(HTTPMockError) -> Void) throws {
        let mock = HTTPMock()
        _ = try mock.stub(.host("sentinel.test"), responses: [.plaintext("sentinel")])
        let before = mock.stubUsage.map(\.summary)
        do {
            try load(mock)
            Issue.record("\(name): was accepted; it must be refused")
        } catch {
            for part in expected {
                #expect(error.message.contains(part), "\(name): the message does not say \(part.debugDescription): \(error.message)")
            }
            if let input, !input.isEmpty {
                #expect(error.message.contains(input), "\(name): the message does not quote the input: \(error.message)")
            }
        }
        #expect(mock.stubUsage.map(\.summary) == before, "\(name): the refused input left stubs behind")
    }

    private static func matcher(_ kind: String, _ input: String) -> Match {
        switch kind {
        case "host": .host(input)
        case "path": .path(input)
        case "regex": .urlRegex(input)
        case "url": .url(input)
        case "template": .uriTemplate(input)
        default: .invalid(kind, HTTPMockError(.invalidPattern, "unknown kind \(kind) in the corpus"))
        }
    }

    // MARK: Reading the corpus

    struct Row {
        let line: Int
        let kind: String
        let fields: [String]
    }

    /// The rows of a corpus file: tab-separated, `#` comments and blank lines skipped, inputs unescaped.
    static func rows(_ file: String) throws -> [Row] {
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        var rows: [Row] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 2 else {
                Issue.record("\(file):\(index + 1): a row needs a kind (or path) and at least one more field")
                continue
            }
            rows.append(Row(line: index + 1, kind: fields[0], fields: fields.dropFirst().enumerated().map { $0 == 0 ? unescape($1) : $1 }))
        }
        return rows
    }

    /// `<empty>` is the empty string; `\t`, `\n`, `\\` and `\u{XX}` are what they say.
    static func unescape(_ text: String) -> String {
        if text == "<empty>" { return "" }
        var result = ""
        var rest = Substring(text)
        while let backslash = rest.firstIndex(of: "\\") {
            result += rest[..<backslash]
            rest = rest[rest.index(after: backslash)...]
            switch rest.first {
            case "t": result += "\t"; rest = rest.dropFirst()
            case "n": result += "\n"; rest = rest.dropFirst()
            case "\\": result += "\\"; rest = rest.dropFirst()
            case "u":
                if let close = rest.firstIndex(of: "}"), let value = UInt32(rest[rest.index(rest.startIndex, offsetBy: 2)..<close], radix: 16),
                   let scalar = Unicode.Scalar(value) {
                    result.unicodeScalars.append(scalar)
                    rest = rest[rest.index(after: close)...]
                } else { result += "\\" }
            default: result += "\\"
            }
        }
        return result + rest
    }

    /// The format inputs present: each `HAR/*.har`, and each folder under `Mappings/` and `Mockingbird/`.
    static func formatInputs() throws -> Set<String> {
        let manager = FileManager.default
        var inputs = Set<String>()
        for folder in ["HAR", "Mappings", "Mockingbird"] {
            for name in try manager.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path) where !name.hasPrefix(".") {
                inputs.insert("\(folder)/\(name)")
            }
        }
        return inputs
    }
}
