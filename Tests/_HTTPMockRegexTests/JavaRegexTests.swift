import Foundation
import Testing
@testable import _HTTPMockRegex

/// Java's dialect read by ICU: what WireMock's jar answers (each case was sent to WireMock 2.35.1 as a `matches`
/// pattern) and what Java's documentation defines, over generated characters and expressions.
@Suite struct JavaRegexTests {
    /// Whether the whole of `text` matches `pattern`, read as Java reads it.
    func javaMatches(_ pattern: String, _ text: String) throws -> Bool {
        let regex = try NSRegularExpression(pattern: "\\A(?:" + JavaRegex.icu(pattern) + ")\\z")
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    @Test("what WireMock's Java answered", arguments: [
        // ASCII classes: an Arabic-Indic digit, a no-break space, an accented letter are none of them.
        ("\\d+", "٣", false), ("\\d+", "123", true), ("a\\sb", "a\u{A0}b", false), ("a\\sb", "a\tb", true),
        ("[\\w-]+", "é-a", false), ("[\\w-]+", "a-b_9", true), ("\\p{Alpha}+", "é", false), ("\\p{Alpha}+", "abc", true),
        // `[[:alpha:]]` is a class of `:alph` for Java.
        ("[[:alpha:]]+", "abc", false), ("[[:alpha:]]+", "alpha", true), ("[[:alpha:]]+", "a:", true),
        // `(?i)` ignores the case of ASCII letters only; `(?iu)` of every letter.
        ("(?i)é", "É", false), ("(?i)é", "é", true), ("(?iu)é", "É", true), ("(?i)k", "K", true), ("(?i)k", "\u{212A}", false),
    ])
    func answersAsWireMock(_ pattern: String, _ text: String, _ expected: Bool) throws {
        #expect(try javaMatches(pattern, text) == expected, "\(pattern) on \(text.debugDescription)")
    }

    /// Java's definitions of its ASCII classes, written out here scalar by scalar.
    static let definitions: [(pattern: String, holds: @Sendable (Unicode.Scalar) -> Bool)] = [
        ("\\d", { ("0"..."9").contains($0) }),
        ("\\w", { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }),
        ("\\s", { [" ", "\t", "\n", "\u{0B}", "\u{0C}", "\r"].contains($0) }),
        ("\\p{Alpha}", { ("a"..."z").contains($0) || ("A"..."Z").contains($0) }),
        ("\\p{Alnum}", { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }),
        ("\\p{Punct}", { $0.isASCII && "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".unicodeScalars.contains($0) }),
        ("\\p{Upper}", { ("A"..."Z").contains($0) }),
        ("\\p{Lower}", { ("a"..."z").contains($0) }),
        ("\\p{XDigit}", { ("0"..."9").contains($0) || ("a"..."f").contains($0) || ("A"..."F").contains($0) }),
        ("\\p{Space}", { [" ", "\t", "\n", "\u{0B}", "\u{0C}", "\r"].contains($0) }),
        ("\\p{Cntrl}", { $0.value < 0x20 || $0.value == 0x7F }),
        ("\\p{Print}", { (0x20...0x7E).contains($0.value) }),
        ("\\p{Graph}", { (0x21...0x7E).contains($0.value) }),
        ("\\p{Blank}", { $0 == " " || $0 == "\t" }),
        ("\\p{ASCII}", { $0.isASCII }),
    ]

    /// Every ASCII scalar, and non-ASCII ones that ICU counts as letters, digits or spaces.
    static let scalars: [Unicode.Scalar] = (0...0x7F).compactMap(Unicode.Scalar.init)
        + [0xA0, 0xB2, 0xC9, 0xE9, 0x131, 0x17F, 0x660, 0x663, 0x1680, 0x2003, 0x2028, 0x212A, 0x3000, 0xFF11, 0x1D7CE]
            .compactMap(Unicode.Scalar.init)

    @Test("each ASCII class, alone, negated and inside a class, meets exactly what Java's definition names",
          arguments: definitions.indices)
    func asciiClasses(_ which: Int) throws {
        let (pattern, holds) = Self.definitions[which]
        let negated = pattern.hasPrefix("\\p") ? "\\P" + pattern.dropFirst(2) : "\\" + pattern.dropFirst().uppercased()
        for scalar in Self.scalars {
            let text = String(scalar)
            let expected = holds(scalar)
            #expect(try javaMatches(pattern, text) == expected, "\(pattern) on U+\(String(scalar.value, radix: 16))")
            #expect(try javaMatches(negated, text) == !expected, "\(negated) on U+\(String(scalar.value, radix: 16))")
            #expect(try javaMatches("[" + pattern + "]", text) == expected, "[\(pattern)] on U+\(String(scalar.value, radix: 16))")
            #expect(try javaMatches("[^" + negated + "]", text) == expected, "[^\(negated)] on U+\(String(scalar.value, radix: 16))")
        }
    }

    @Test("(?U) asks for Unicode classes, as ICU reads them anyway")
    func unicodeClassesOnRequest() throws {
        #expect(try javaMatches("(?U)\\w+", "José"))
        #expect(try javaMatches("(?U)\\d", "٣"))
        #expect(try !javaMatches("\\w+", "José"))
        // Scoped to its group.
        #expect(try javaMatches("(?U:\\w)\\w", "éa"))
        #expect(try !javaMatches("(?U:\\w)\\w", "aé"))
    }

    @Test("(?i) scoped as Java scopes it: to its group, turned off by (?-i)")
    func caseScopes() throws {
        #expect(try javaMatches("(?i)abc", "AbC"))
        #expect(try javaMatches("(?i)a(?-i)b", "Ab"))
        #expect(try !javaMatches("(?i)a(?-i)b", "AB"))
        #expect(try javaMatches("((?i)a)b", "Ab"))
        #expect(try !javaMatches("((?i)a)b", "AB"))
        #expect(try javaMatches("(?i:s)S", "sS"))
        #expect(try !javaMatches("(?i)s", "\u{17F}"), "the long s is no s")
        #expect(try !javaMatches("(?i)straße", "STRASSE"))
        #expect(try !javaMatches("(?i)[é]", "É"))
        #expect(try javaMatches("(?i)[é]", "é"))
        #expect(try javaMatches("(?i)é+", "éé"))
        #expect(try javaMatches("(?i)[a-z]+", "ABC"))
    }

    @Test("escapes stand for what they stand for in Java, and are not read as the classes they resemble", arguments: [
        ("\\Q\\d+\\E", "\\d+", true), ("\\Q\\d+\\E", "12", false), ("\\x41", "A", true), ("\\u00e9", "é", true),
        ("\\0101", "A", true), ("\\\\d", "\\d", true), ("\\\\d", "1", false), ("\\x{1F600}", "😀", true),
        ("(?<word>a)\\k<word>", "aa", true), ("(?<=a)b|ab", "ab", true), ("\\cA", "\u{01}", true), ("\\01\\d", "\u{01}5", true),
    ])
    func escapes(_ pattern: String, _ text: String, _ expected: Bool) throws {
        #expect(try javaMatches(pattern, text) == expected, "\(pattern) on \(text.debugDescription)")
    }

    @Test("in comments mode, a translated class keeps its space; a comment ends at any line break and is left out")
    func commentsKeepTheWrapper() throws {
        #expect(try javaMatches("(?x)a\\sb", "a b"))
        #expect(try javaMatches("(?x)a\\p{Blank}b", "a b"))
        #expect(try javaMatches("(?x)\\d+ # an id", "12"), "the comment does not swallow the closing of the expression")
        #expect(try javaMatches("(?x)\\d # c\r\\w", "1a"))
        #expect(try !javaMatches("(?x)\\d # c\r\\w", "1é"), "what follows a comment ended by \\r is translated")
    }

    @Test("a ] first in a class is one of its characters, as Java reads it")
    func closingBracketFirst() throws {
        #expect(try javaMatches("[]a]+", "]a]"))
        #expect(try javaMatches("(?i)[]é]", "]"))
        #expect(try !javaMatches("(?i)[]é]", "?"))
        #expect(try javaMatches("[^]a]", "b"))
        #expect(try !javaMatches("[^]a]", "]"))
    }

    @Test("in comments mode, what follows # is not syntax")
    func comments() throws {
        #expect(try javaMatches("(?x) \\d+ # a comment with \\w and (\n", "12"))
        #expect(try !javaMatches("(?x) \\d+ # a comment\n", "١٢"))
    }

    @Test("Java's UNIX_LINES flag and its java… classes are ICU's too")
    func javaOnlySyntax() throws {
        #expect(try javaMatches("\\p{javaLowerCase}+", "éa"))
        #expect(try !javaMatches("\\p{javaLowerCase}", "A"))
        #expect(try javaMatches("(?d)a.b", "a\rb"), "only \\n ends a line")
        #expect(try !javaMatches("(?d)a.b", "a\nb"))
    }

    /// Expressions of constructs both dialects read alike: their translation is themselves.
    @Test("generated expressions without Java's ASCII classes or flags are left as written")
    func untouched() {
        var random = Xorshift(start: UInt64(Date().timeIntervalSince1970 * 1000))
        let start = random.state
        let pieces = ["a", "b", "Z", "0", ".", "é", "日", "\\.", "\\t", "\\n", "[abc]", "[^x-z]", "[0-9]", "(", ")", "(?:", "(?=",
                      "(?<n", "*", "+", "?", "{2}", "{1,3}", "|", "^", "$", "\\b", "\\A", "\\z", "\\x{e9}", "\\p{L}", "\\P{Lu}"]
        for _ in 0..<500 {
            var pattern = ""
            var open = 0
            for _ in 0..<Int(random.next() % 12) {
                var piece = pieces[Int(random.next() % UInt64(pieces.count))]
                if piece == "(?<n" { piece = "(?<n\(open)>" }
                if piece == ")" { if open == 0 { continue }; open -= 1 }
                if piece.hasPrefix("(") { open += 1 }
                pattern += piece
            }
            pattern += String(repeating: ")", count: open)
            #expect(JavaRegex.icu(pattern) == pattern, "start \(start): \(pattern) became \(JavaRegex.icu(pattern))")
        }
    }
}

/// A xorshift generator from a given start, printed with a failing case so that the case can be replayed.
struct Xorshift {
    var state: UInt64
    init(start: UInt64) { state = start | 1 }
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}
