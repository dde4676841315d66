import Foundation
import Testing
@testable import _HTTPMockJSON

/// JSON read straight from bytes and written back without `Codable`: the same values and text as Foundation's.
@Suite struct JSONValueTests {
    static let documents = [
        #"{"b": 1, "a": [true, false, null], "c": {"z": "x", "é": "ü", "B": -0.5}}"#,
        #"[0, -0, 12.5, 1e20, 1E-7, 2.0, 100.0, 9007199254740993, -12, 1.5e15, 123456789.123, 5e-324]"#,
        #"["a\"b\\c\/d", "\n\t\b\f\r", "\u0001\u001f", "\u00e9\u20ac", "\ud83d\ude00", "plain é €"]"#,
        #"  {"nested": [[[{}]], []], "empty": ""}  "#,
        #"9223372036854775807"#, #"-9223372036854775808"#, #"9223372036854775808"#, #""top""#,
    ]

    @Test("strict JSON parses to what JSONDecoder gives, and writes what JSONEncoder writes", arguments: documents)
    func sameAsFoundation(_ text: String) throws {
        let data = Data(text.utf8)
        let parsed = try #require(JSONValue.parse(data))
        let decoded = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(parsed.matches(decoded))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(String(decoding: parsed.data, as: UTF8.self) == String(decoding: try encoder.encode(parsed), as: UTF8.self))
    }

    @Test("anything but strict JSON is left to the slow path, which explains it", arguments: [
        #"{"a": 1,}"#, #"{'a': 1}"#, #"// c"# + "\n{}", #"{"a": 1, "a": 2}"#, #"[01]"#, #"[1.]"#, #"[.5]"#, #"["\x"]"#,
        "[\"tab\there\"]", #"["\ud800"]"#, #"{"a" 1}"#, #"[1 2]"#, #"tru"#, #"{} {}"#, "", #"[1e400]"#,
        String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
    ])
    func refused(_ text: String) {
        #expect(JSONValue.parse(Data(text.utf8)) == nil)
    }

    @Test("bytes that are not UTF-8 are refused")
    func invalidUTF8() {
        #expect(JSONValue.parse(Data([0x22, 0xC3, 0x28, 0x22])) == nil)
        #expect(JSONValue.parse(Data([0x22, 0x5C, 0x6E, 0xFF, 0x22])) == nil)
    }
}
