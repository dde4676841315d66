import Foundation
import Testing
@testable import _HTTPMockRegex

/// ECMA-262's reading (JSON Schema's `pattern`), checked on the cases where ICU reads the same syntax otherwise.
@Suite struct ECMARegexTests {
    /// Whether `pattern` finds a match anywhere in `text`, as JSON Schema's `pattern` asks.
    func finds(_ pattern: String, _ text: String) throws -> Bool {
        let regex = try NSRegularExpression(pattern: ECMARegex.icu(pattern))
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    @Test("ECMA-262's meaning, where ICU's differs", arguments: [
        ("^\\d+$", "42", true), ("^\\d+$", "৪২", false), ("^\\D$", "߀", true), ("^\\w$", "é", false), ("^\\W$", "é", true),
        ("^\\s$", "\u{FEFF}", true), ("^\\s$", "\u{0B}", true), ("^\\S$", "\u{FEFF}", false), ("^\\s$", "\u{85}", false),
        ("^abc$", "abc", true), ("^abc$", "abc\n", false), ("^a.c$", "a\u{0B}c", true), ("^a.c$", "a\u{85}c", true),
        ("^a.c$", "a\nc", false), ("^a.c$", "a\u{2028}c", false), ("\\bcole", "école", true), ("\\Bcole", "école", false),
        ("^[\\b]$", "\u{08}", true), ("^[\\d.]+$", "1.5", true), ("^[\\d.]+$", "1x5", false), ("^[$]$", "$", true),
        ("^[^]*$", "a\nb", true), ("^a[]$", "a", false), ("^[[]+$", "[[", true), ("^[a&&b]$", "&", true),
        ("^\\p{Letter}cole$", "école", true), ("^\\u00e9$", "é", true), ("^\\$\\.$", "$.", true), ("\\\\d", "\\d", true),
    ])
    func meaning(_ pattern: String, _ text: String, _ expected: Bool) throws {
        #expect(try finds(pattern, text) == expected, "\(pattern) on \(text.debugDescription)")
    }

    @Test("expressions without the constructs the dialects read otherwise are left as written")
    func untouched() {
        var random = Xorshift(start: UInt64(Date().timeIntervalSince1970 * 1000))
        let start = random.state
        let pieces = ["a", "Z", "0", "é", "\\.", "\\t", "[abc]", "[^x-z]", "(", ")", "(?:", "*", "+", "?", "{2}", "|", "^", "\\p{L}", "\\u00e9"]
        for _ in 0..<500 {
            var pattern = ""
            for _ in 0..<Int(random.next() % 12) { pattern += pieces[Int(random.next() % UInt64(pieces.count))] }
            #expect(ECMARegex.icu(pattern) == pattern, "start \(start): \(pattern) became \(ECMARegex.icu(pattern))")
        }
    }
}
