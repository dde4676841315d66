import Foundation
import Testing
@testable import _HTTPMockTemplates

/// `numberFormat` and `wordWrap`; every expected text is what WireMock 2.35.1 printed for the same template (run
/// with the en_US locale, which is the default here).
@Suite struct TemplateNumberFormatTests {
    private func render(_ text: String, body: String = "") throws -> String {
        let template = try HandlebarsTemplate(text, pathNames: [:], place: "test")
        switch template.result(BodyModel(body)) {
        case .success(let rendered): return rendered
        case .failure(let problem): throw problem
        }
    }

    static let numberCases: [(String, String)] = [
        ("{{numberFormat 1234567.891 '#,##0.00'}}|{{numberFormat 0.25 'percent'}}|{{numberFormat 3.7 'integer'}}", "1,234,567.89|25%|4"),
        ("{{numberFormat 2.5 'integer'}}|{{numberFormat 3.5 'integer'}}|{{numberFormat -2.5 'integer'}}|{{numberFormat 1234567 'integer'}}", "2|4|-2|1,234,567"),
        ("{{numberFormat 1234567.891}}|{{numberFormat 1234.5}}|{{numberFormat 0.12345}}|{{numberFormat 0.1235}}|{{numberFormat 1}}|{{numberFormat -1234.5678}}", "1,234,567.891|1,234.5|0.123|0.123|1|-1,234.568"),
        ("{{numberFormat 1234.5 'currency'}}|{{numberFormat -1234.5 'currency'}}|{{numberFormat 0.125 'currency'}}", "$1,234.50|-$1,234.50|$0.12"),
        ("{{numberFormat 1234.5 'currency' 'de_DE'}}|{{numberFormat 1234.5 'currency' 'fr_FR'}}|{{numberFormat 1234.5 'currency' 'en_GB'}}", "1.234,50\u{A0}€|1\u{202F}234,50\u{A0}€|£1,234.50"),
        ("{{numberFormat 1234567.891 '#,##0.00' 'de_DE'}}|{{numberFormat 1234567.891 '#,##0.00' 'fr_FR'}}|{{numberFormat 1234567.891 'de_DE'}}", "1.234.567,89|1\u{202F}234\u{202F}567,89|de_DE1234568"),
        ("{{numberFormat 1234.5 'integer' 'de_DE'}}|{{numberFormat 0.256 'percent' 'de_DE'}}|{{numberFormat 0.256 'percent' 'fr_FR'}}|{{numberFormat 1234.5 'integer' 'fr_FR'}}", "1.234|26\u{A0}%|26\u{A0}%|1\u{202F}234"),
        ("{{numberFormat -1234.56 'currency' 'de_DE'}}|{{numberFormat 1234.56 'currency' 'en'}}|{{numberFormat 1234.56 '0.0' 'de'}}|{{numberFormat -1.5 '0.0' 'fr_FR'}}|{{numberFormat 1234.56 '0.0' '_DE'}}", "-1.234,56\u{A0}€|¤1,234.56|1234,6|-1,5|1234.6"),
        ("{{numberFormat 1234.5 maximumFractionDigits=0}}|{{numberFormat 1234.5 minimumFractionDigits=3}}|{{numberFormat 1234.5 groupingUsed=false}}|{{numberFormat 1234.5 maximumIntegerDigits=2}}|{{numberFormat 5 minimumIntegerDigits=3}}", "1,234|1,234.500|1234.5|34.5|005"),
        ("{{numberFormat 2.5 'integer' roundingMode='HALF_UP'}}|{{numberFormat 2.5 maximumFractionDigits=0 roundingMode='UP'}}|{{numberFormat 2.5 maximumFractionDigits=0 roundingMode='half_up'}}|{{numberFormat 2.5 parseIntegerOnly=true}}", "3|3|3|2.5"),
        ("{{numberFormat 2.5 maximumFractionDigits=0 roundingMode='HALF_DOWN'}}|{{numberFormat 2.6 maximumFractionDigits=0 roundingMode='DOWN'}}|{{numberFormat -2.6 maximumFractionDigits=0 roundingMode='FLOOR'}}|{{numberFormat -2.4 maximumFractionDigits=0 roundingMode='CEILING'}}|{{numberFormat 2.0 maximumFractionDigits=0 roundingMode='UNNECESSARY'}}|{{numberFormat 0.1 maximumFractionDigits=1 roundingMode='UP'}}", "2|2|-3|-2|2|0.1"),
        ("{{numberFormat 1234.5 minimumFractionDigits=3 maximumFractionDigits=1}}|{{numberFormat 1234.5 maximumFractionDigits=1 minimumFractionDigits=3}}|{{numberFormat 1234.5 minimumIntegerDigits=6 maximumIntegerDigits=2}}", "1,234.500|1,234.500|001,234.5"),
        ("{{numberFormat 1234.5 '0.00' maximumFractionDigits=0}}|{{numberFormat 1234.5 'percent' maximumFractionDigits=2}}|{{numberFormat 1234.5 'integer' minimumFractionDigits=2}}|{{numberFormat 1234.5 'currency' maximumFractionDigits=0}}", "1234|123,450%|1,234.50|$1,234"),
        ("{{numberFormat 1234.5 parseIntegerOnly=true maximumFractionDigits=-1 maximumIntegerDigits=0}}", "0"),
        ("{{numberFormat 3.14159 '0.###'}}|{{numberFormat 7 '000'}}|{{numberFormat 0.256 '#%'}}|{{numberFormat 12.5 '$#,##0.00 USD'}}|{{numberFormat 12.5 ''}}", "3.142|007|26%|$12.50 USD|12.5"),
        ("{{numberFormat 1234.5 '#,##,###.0'}}|{{numberFormat 123456789 '#,##,###'}}|{{numberFormat 1234.5 '0,000.0'}}|{{numberFormat 0.5 '#‰'}}|{{numberFormat 0.5 '#.#'}}|{{numberFormat 0.5 '.##'}}|{{numberFormat 1234.5 '#,##0.##;-#'}}|{{numberFormat -1234.5 '#,##0.##;-#'}}|{{numberFormat -1234.5 \"#;'neg'#\"}}", "1,234.5|123,456,789|1,234.5|500‰|0.5|.5|1,234.5|-1,234.5|neg1234"),
        ("{{numberFormat 1234.5 '@@@'}}|{{numberFormat 1234.5 'abc'}}|{{numberFormat 1234.5 '#'}}|{{numberFormat 1234.5 \"'#'0\"}}|{{numberFormat -1234.5 '0.0;(0.0)'}}|{{numberFormat 12.5 '¤0.00'}}|{{numberFormat 12.5 '¤¤0.00'}}|{{numberFormat -12.5 '-0.0'}}", "@@@1234|abc1234|1234|#1234|(1234.5)|$12.50|USD12.50|--12.5"),
        // Values that are not numbers (text too, even text that reads as one) print the format argument.
        ("{{numberFormat 0 'abc'}}|{{numberFormat 'x' 'abc'}}|{{numberFormat 'x'}}|{{numberFormat true}}|{{numberFormat 'x' 'abc' 'de_DE'}}|{{numberFormat '' 'abc'}}|{{numberFormat 0.3 'abc'}}|{{numberFormat 0 '#'}}", "abc0|abc|||abc|abc|abc0|0"),
        ("{{numberFormat 0 '000'}}|{{numberFormat 0}}|{{numberFormat 0.0 '0.00'}}|{{numberFormat false '0.00'}}|{{numberFormat 'abc'}}|{{numberFormat nothing '0.0'}}|{{numberFormat nothing}}|{{numberFormat '1234.5' '#,##0.00'}}", "000|0|0.00|0.00||0.0||#,##0.00"),
        ("{{numberFormat (math 10 '/' 4) '0.00'}}|{{numberFormat (math 10 '*' 4) '0.00'}}|{{numberFormat (jsonPath '{\"a\":7}' '$.a') '0.0'}}|{{numberFormat (jsonPath '{\"a\":12345678901234567890123}' '$.a')}}", "3.00|40.00|7.0|12,345,678,901,234,567,890,123"),
        ("{{numberFormat 123456789012}}|{{numberFormat -0.0}}|{{numberFormat 0.0015 '0.000'}}|{{numberFormat 1.005 '0.00'}}|{{numberFormat 0.125 '0.00'}}|{{numberFormat 0.285 'percent'}}|{{numberFormat 0.1 '0.00000000000000000000'}}", "123,456,789,012|-0|0.002|1.00|0.12|28%|0.10000000000000000000"),
        // Half way in the shortest digits, decided by the exact binary value.
        ("{{numberFormat 0.15 '0.0'}}|{{numberFormat 0.35 '0.0'}}|{{numberFormat 0.45 '0.0'}}|{{numberFormat 2.675 '0.00'}}|{{numberFormat 1.115 '0.00'}}|{{numberFormat 0.005 '0.00'}}|{{numberFormat 0.0025 '0.000'}}|{{numberFormat 0.05 '0.0'}}|{{numberFormat 0.045 '0.00'}}|{{numberFormat 1.0005 '0.000'}}|{{numberFormat 0.0045 '0.000'}}", "0.1|0.3|0.5|2.67|1.11|0.01|0.003|0.1|0.04|1.000|0.004"),
        ("{{numberFormat 1234.5 ''}}|{{numberFormat 0.5 ''}}|{{numberFormat 0.1234567 ''}}|{{numberFormat -3 ''}}", "1,234.5|.5|.1234567|-3"),
        ("{{numberFormat 12345678901234567890}}|{{numberFormat 1.5 minimumFractionDigits=3}}", "12,345,678,901,234,567,000|1.500"),
    ]

    @Test("numberFormat prints as WireMock 2.35.1 does", arguments: numberCases)
    func numberFormat(_ template: String, _ expected: String) throws {
        #expect(try render(template) == expected)
    }

    static let wrapCases: [(String, String)] = [
        ("{{wordWrap 'the quick brown fox jumps over the lazy dog' 10}}", "the quick\nbrown fox\njumps over\nthe lazy\ndog"),
        ("{{wordWrap 'short' 10}}|{{wordWrap 'a verylongwordhere b' 5}}|{{wordWrap 'a  b   c' 1}}|{{wordWrap '  lead' 3}}", "short|a\nverylongwordhere\nb|a\nb\nc|lead"),
        ("{{wordWrap 'line one\nline two is long' 8}}", "line\none\nline\ntwo is\nlong"),
        ("{{wordWrap 'the quick brown fox' 0}}|{{wordWrap 'the quick brown fox' -3}}", "the\nquick\nbrown\nfox|the\nquick\nbrown\nfox"),
        ("{{wordWrap 'exactly ten chars' 7}}|{{wordWrap 'trail   ' 3}}|{{wordWrap 'ab cd' 3 }}", "exactly\nten\nchars|trail\n|ab\ncd"),
    ]

    @Test("wordWrap breaks lines as WireMock 2.35.1 does", arguments: wrapCases)
    func wordWrap(_ template: String, _ expected: String) throws {
        #expect(try render(template) == expected)
    }

    /// WireMock fails these with an error (a 500); a literal that can never work is refused when the file loads.
    @Test("Patterns, locales and options that can never work are refused when the template is read", arguments: [
        "{{numberFormat 12.5 '#,##0.00.00'}}", "{{numberFormat 12.5 '0#'}}", "{{numberFormat 12.5 \"'abc\"}}", "{{numberFormat 12.5 '0,'}}",
        "{{numberFormat 12.5 '#,##0.0#0'}}", "{{numberFormat 12.5 '0.0,0'}}", "{{numberFormat 12.5 '0%%'}}", "{{numberFormat 12.5 ';0'}}",
        "{{numberFormat 1.5 '0.0' 'de-DE'}}", "{{numberFormat 1.5 '0.0' 'EN'}}", "{{numberFormat 1.5 '0.0' 'en_us'}}", "{{numberFormat 1.5 '0' '0'}}",
        "{{numberFormat 2.5 roundingMode='bogus'}}", "{{numberFormat 1.5 maximumFractionDigits='2'}}", "{{numberFormat 1.5 groupingUsed='false'}}",
        "{{numberFormat 1.5 groupingUsed=0}}", "{{numberFormat 1.5 locale='de_DE'}}", "{{numberFormat 1.5 '0.0E0'}}",
        "{{wordWrap 'ab cd'}}", "{{wordWrap 'ab cd' 'x'}}", "{{wordWrap 'ab cd' '3'}}", "{{wordWrap 'ab cd' 4.5}}",
    ])
    func refusedAtLoad(_ template: String) {
        #expect(throws: (any Error).self) { try HandlebarsTemplate(template, pathNames: [:], place: "test") }
    }

    @Test("A pattern or a rounding that fails only with the request's values fails the response, as WireMock's does")
    func failsAtRender() throws {
        #expect(throws: TemplateProblem.self) { try render("{{numberFormat 2.5 maximumFractionDigits=0 roundingMode='UNNECESSARY'}}") }
        #expect(throws: TemplateProblem.self) { try render("{{numberFormat 2.5 (lower '0.0.0')}}") }
        #expect(throws: TemplateProblem.self) { try render("{{numberFormat 2.5 '0' (lower 'EN-x')}}") }
        #expect(throws: TemplateProblem.self) { try render("{{wordWrap 'a b' (math 1 '+' 1.5)}}") }
    }

    @Test("Hostile inputs are bounded: huge digit counts, long patterns, extreme numbers")
    func hostile() throws {
        // WireMock prints at most 309 integer and 340 fraction digits of a decimal.
        let wide = try render("{{numberFormat 1.5 minimumIntegerDigits=2000000000 groupingUsed=false}}")
        #expect(wide.count == 309 + 2)
        let long = try render("{{numberFormat 1.5 minimumFractionDigits=2000000000}}")
        #expect(long.count == 342)
        let pattern = String(repeating: "0", count: 10_000)
        #expect(try render("{{numberFormat 7 '\(pattern)'}}").count == 309)
        let literal = String(repeating: "x", count: 10_000)
        #expect(try render("{{numberFormat 7 '\(literal)'}}") == literal + "7")
        #expect(try render("{{numberFormat (jsonPath '{\"a\":1e308}' '$.a') '0.00'}}").count == 309 + 3)
        #expect(try render("{{numberFormat (jsonPath '{\"a\":1e-300}' '$.a') '0.00'}}") == "0.00")
        #expect(try render("{{numberFormat (jsonPath '{\"a\":-1.7976931348623157e308}' '$.a') 'integer'}}").hasPrefix("-179,769,313,486,231,570,000"))
        #expect(try render("{{numberFormat (jsonPath '{\"a\":5e-324}' '$.a') maximumFractionDigits=2000}}").hasPrefix("0.000"))
        let words = String(repeating: "ab ", count: 20_000)
        #expect(try render("{{wordWrap '\(words)' 1}}").count == 60_000)
        // Numbers a request can give that are past any plain spelling, and a width past any text: no crash.
        for body in [#"{"p": 1.00000000000000000e2000}"#, #"{"p": 1.00000000000000000e-2000}"#, #"{"p": 1.0000000000000000000e-9223372036854775808}"#] {
            _ = try? render("{{numberFormat (jsonPath request.body '$.p') '#,##0.00'}}", body: body)
            _ = try? render("{{jsonPath request.body '$.p'}}", body: body)
        }
        #expect(try render("{{wordWrap 'a b' 9223372036854775807}}") == "a b")
    }
}
