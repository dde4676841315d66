import Foundation
import Testing
@testable import _HTTPMockTemplates

/// Corners where a template's output once differed from WireMock 2.35.1's standalone server: each expected text is
/// what that server answered (the WireMock oracle corpus keeps them equal).
@Suite struct TemplateWireMockCornersTests {
    private func render(_ text: String, body: String = "") throws -> String {
        let template = try HandlebarsTemplate(text, pathNames: [:], place: "test")
        switch template.result(BodyModel(body)) {
        case .success(let rendered): return rendered
        case .failure(let problem): throw problem
        }
    }

    private static var seed: UInt64 { SplitMix64.seed }

    @Test("regexExtract and matches read their expression as WireMock's Java does: \\d, \\w, \\s in ASCII")
    func javaRegexDialect() throws {
        #expect(try render("{{regexExtract request.body '\\d+' default='none'}}", body: "n٣ 42") == "42")
        #expect(try render("{{regexExtract request.body '\\w+'}}", body: "éte") == "te")
        #expect(try render("{{#if (matches request.body 'a\\sb')}}yes{{else}}no{{/if}}", body: "a\u{A0}b") == "no")
        #expect(try render("{{#if (matches request.body 'a\\sb')}}yes{{else}}no{{/if}}", body: "a b") == "yes")
    }

    @Test("jsonPath: a list prints as json-smart writes it (/ as \\/, U+007F–U+009F and U+2000–U+20FF escaped); an object as Jackson does")
    func escapes() throws {
        let body = #"{"a": ["x/y", "<b>", "\u001f\u0080\u009f\u00a0\u2000\u20ac\u20ff\u2100\\/", "\u007f\u2028"], "o": {"k/\u001f": "\u001f\u007f\u2028/"}}"#
        #expect(try render("{{{jsonPath request.body '$.a'}}}", body: body)
            == #"["x\/y","<b>","\u001F\u0080\u009F"# + "\u{a0}" + #"\u2000\u20AC\u20FF"# + "\u{2100}" + #"\\\/","\u007F\u2028"]"#)
        #expect(try render("{{{jsonPath request.body '$.o'}}}", body: body) == "{\n  \"k/\\u001F\" : \"\\u001F\u{7f}\u{2028}/\"\n}")
        #expect(try render(#"{{{jsonPath request.body '$.a[?(@.k == \'a/b\')]'}}}"#, body: #"{"a": [{"k": "a/b"}, {"k": 1.0}]}"#)
            == #"[{"k":"a\/b"}]"#)
    }

    @Test("jsonPath: any string in a selected list reads back as itself, each character escaped as json-smart escapes it (HTTPMOCK_TEMPLATE_SEED replays a run)")
    func generatedEscapes() throws {
        let seed = Self.seed
        var generator = SplitMix64(seed: seed)
        let alphabet: [Unicode.Scalar] = ["a", "/", "\\", "\"", "\n", "\t", "\u{0}", "\u{1f}", "\u{7e}", "\u{7f}", "\u{9f}", "\u{a0}",
                                          "\u{1fff}", "\u{2000}", "\u{2028}", "\u{20ff}", "\u{2100}", "é", "😀"]
        for round in 0..<200 {
            var text = String.UnicodeScalarView()
            for _ in 0..<generator.next(12) { text.append(alphabet[generator.next(alphabet.count)]) }
            let string = String(text)
            let document = String(decoding: try JSONSerialization.data(withJSONObject: ["v": [string]]), as: UTF8.self)
            let printed = try render("{{{jsonPath request.body '$.v'}}}", body: document)
            let context = "HTTPMOCK_TEMPLATE_SEED=\(seed), round \(round): \(string.debugDescription) printed \(printed.debugDescription)"
            // The same string comes back, and nothing json-smart escapes is left as it is.
            let read = try JSONSerialization.jsonObject(with: Data(printed.utf8)) as? [String]
            #expect(read == [string], "\(context)")
            #expect(!printed.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) || (0x2000...0x20FF).contains($0.value) || $0.value < 0x20 },
                    "\(context)")
            #expect(!printed.contains("/") || printed.components(separatedBy: "/").dropLast().allSatisfy { $0.hasSuffix("\\") }, "\(context)")
        }
    }

    @Test("jsonPath: numbers as WireMock's JSONPath reads them: integers past 64 bits and decimals of more than 18 characters exactly, 1e400 infinite, -0 as 0")
    func numbers() throws {
        let big = #"{"a": [123456789012345678901234567890, -123456789012345678901234567890, 9223372036854775807, 9223372036854775808, -9223372036854775809, 2147483648], "b": 9223372036854775808}"#
        #expect(try render("{{{jsonPath request.body '$.a'}}}|{{jsonPath request.body '$.b'}}", body: big)
            == "[123456789012345678901234567890,-123456789012345678901234567890,9223372036854775807,9223372036854775808,-9223372036854775809,2147483648]|9223372036854775808")
        let decimals = #"{"a": [1.0, 1e400, -0, -0.0, 1.5e3, 1E2, 0.1, 1e-7, 12345678.9, 1.0e10, 100.00, 3.14159265358979323846], "b": 1e400, "c": -0}"#
        #expect(try render("{{{jsonPath request.body '$.a'}}}|{{jsonPath request.body '$.b'}}|{{jsonPath request.body '$.c'}}", body: decimals)
            == "[1.0,null,0,-0.0,1500.0,100.0,0.1,1.0E-7,1.23456789E7,1.0E10,100.0,3.14159265358979323846]|Infinity|0")
        let long = #"{"a": [1.00000000000000001, 0.000000000000000000001, 1.000000000000000000e5, 12345678901234567.8, 1234567890123456.7, -1.5E+300, -1.2345678901234567, 1.2345678901234567, -0.00000000000000001, 0.000000000000000000]}"#
        #expect(try render("{{{jsonPath request.body '$.a'}}}", body: long)
            == "[1.00000000000000001,1E-21,100000.0000000000000,12345678901234567.8,1.2345678901234568E15,-1.5E300,-1.2345678901234567,1.2345678901234567,-1E-17,0E-18]")
        #expect(try render("{{{jsonPath request.body '$.o'}}}", body: #"{"o": {"a": 1.0, "b": 1e400, "c": -0, "d": -0.0, "f": 123456789012345678901234567890, "g": null, "h": 0.000000000000000000001}}"#)
            == "{\n  \"a\" : 1.0,\n  \"b\" : \"Infinity\",\n  \"c\" : 0,\n  \"d\" : -0.0,\n  \"f\" : 123456789012345678901234567890,\n  \"h\" : 0.000000000000000000001\n}")
        #expect(try render("{{#each (jsonPath request.body '$.a')}}[{{{this}}}]{{/each}}", body: #"{"a": [1.0, 123456789012345678901234567890, -0]}"#)
            == "[1.0][123456789012345678901234567890][0]")
    }

    @Test("Java's BigDecimal text of a decimal keeps its value: plain with the written scale, or with an exponent (HTTPMOCK_TEMPLATE_SEED replays a run)")
    func generatedBigDecimals() throws {
        let seed = Self.seed
        var generator = SplitMix64(seed: seed)
        for round in 0..<500 {
            let whole = String((0..<(1 + generator.next(12))).map { _ in Character(String(generator.next(10))) }).drop { $0 == "0" }
            let fraction = String((0..<generator.next(25)).map { _ in Character(String(generator.next(10))) })
            var text = (generator.next(2) == 0 ? "-" : "") + (whole.isEmpty ? "0" : String(whole)) + (fraction.isEmpty ? ".0" : "." + fraction)
            if generator.next(3) == 0 { text += "e" + String(generator.next(41) - 20) }
            let context = "HTTPMOCK_TEMPLATE_SEED=\(seed), round \(round): \(text)"
            guard let printed = TemplateNumber.bigDecimalText(text) else { Issue.record("no text: \(context)"); continue }
            #expect(Double(printed) == Double(text), "\(context) printed \(printed)")
            let plain = printed.wholeMatch(of: /-?[0-9]+(\.[0-9]+)?/) != nil
            let scientific = printed.wholeMatch(of: /-?[0-9](\.[0-9]+)?E[+-][0-9]+/) != nil
            #expect(plain != scientific, "\(context) printed \(printed)")
        }
        #expect(TemplateNumber.bigDecimalText("1.000000000000000000e5") == "100000.0000000000000")
        #expect(TemplateNumber.bigDecimalText("1.5e30") == "1.5E+30")
        #expect(TemplateNumber.bigDecimalText("0.0000001") == "1E-7")
        #expect(TemplateNumber.bigDecimalText("0.000001") == "0.000001")
        #expect(TemplateNumber.bigDecimalText("0.000000000000000000001", plain: true) == "0.000000000000000000001")
        #expect(TemplateNumber.bigDecimalText("-1.5e30", plain: true) == "-1500000000000000000000000000000")
        #expect(TemplateNumber.bigDecimalText("1.25e1", plain: true) == "12.5")
        #expect(TemplateNumber.bigDecimalText("-0.0000000000000000000") == "0E-19")
        #expect(TemplateNumber.bigDecimalText("-12345678901234567890") == "-12345678901234567890")
        // A huge exponent is no gigabyte of zeros.
        #expect(TemplateNumber.bigDecimalText("1.000000000000000000e999999999", plain: true) == "1.000000000000000000E+999999999")
        #expect(TemplateNumber.bigDecimalText("1.000000000000000000e-999999999", plain: true) == "1.000000000000000000E-999999999")
        #expect(try render("{{{jsonPath request.body '$.o'}}}", body: #"{"o": {"a": 1.000000000000000000e999999999}}"#)
            == "{\n  \"a\" : 1.000000000000000000E+999999999\n}")
    }

    @Test("jsonPath: an object without the member a path ends in gives null, as WireMock's JSONPath does; objects are walked in the document's order")
    func leafToNull() throws {
        let body = #"{"a": [{"k": 1}, {"j": 2}, {"k": {"z": 3}}, 5, [{"k": 6}]]}"#
        #expect(try render("{{{jsonPath request.body '$.a[*].k'}}}|{{{jsonPath request.body '$.a[*].k.z'}}}|{{{jsonPath request.body '$..k'}}}|{{{jsonPath request.body '$.a[0].q'}}}|{{{jsonPath request.body '$..x'}}}", body: body)
            == #"[1,null,{"z":3}]|[3]|[null,1,null,{"z":3},null,6]||[null,null,null,null,null,null]"#)
        #expect(try render("{{{jsonPath request.body '$..b'}}}", body: #"{"a": [[1, [2, [3]]], [], [{}], {"b": [["x"]]}, null, true]}"#) == #"[null,null,[["x"]]]"#)
        #expect(try render("{{{jsonPath request.body '$.*'}}}|{{{jsonPath request.body '$..n'}}}", body: #"{"z": {"n": 1}, "a": {"n": 2}, "m": 3}"#)
            == #"[{"n":1},{"n":2},3]|[null,1,2]"#)
        #expect(try render("{{jsonPath request.body '$.missing' default='none'}}|{{jsonPath request.body '$.a[1].k' default='none'}}", body: body) == "none|none")
    }

    @Test("jsonPath reads a body as text (quickly where it can) as it reads the same JSON given as a value (HTTPMOCK_TEMPLATE_SEED replays a run)")
    func textAndValueAlike() throws {
        let seed = Self.seed
        var generator = SplitMix64(seed: seed)
        let keys = ["k", "a", "z", "n"]
        func value(_ depth: Int) -> String {
            switch generator.next(depth > 2 ? 5 : 8) {
            case 0: return String(generator.next(2001) - 1000)
            case 1: return ["\"x/y\"", "\"\"", "\"é\\u2028\"", "\"1\""][generator.next(4)]
            case 2: return ["true", "false", "null"][generator.next(3)]
            // No exponent: WireMock reads 2e3 as 2000.0 in a text and as 2E+3 through parseJson, as here.
            case 3: return ["1.5", "-0.25", "0.125"][generator.next(3)]
            case 4: return "\"t\(generator.next(10))\""
            case 5, 6:
                let chosen = keys.shuffled(using: &generator).prefix(generator.next(4))
                return "{" + chosen.map { "\"\($0)\": " + value(depth + 1) }.joined(separator: ", ") + "}"
            default: return "[" + (0..<generator.next(4)).map { _ in value(depth + 1) }.joined(separator: ", ") + "]"
            }
        }
        let paths = ["$.k", "$.a[0]", "$.a[*]", "$.a[*].k", "$..k", "$.*", "$..*", "$.z.n", "$.k.length()", "$..[0]", "$.a[?(@.k)]"]
        for round in 0..<150 {
            let chosen = keys.shuffled(using: &generator)
            let body = "{" + chosen.map { "\"\($0)\": " + value(0) }.joined(separator: ", ") + "}"
            for path in paths {
                let context = "HTTPMOCK_TEMPLATE_SEED=\(seed), round \(round): \(path) of \(body)"
                // The same JSON; a list prints as JSON from a text and as a Java list from a value, as in WireMock.
                let asText = try render("{{{toJson (jsonPath request.body '\(path)')}}}", body: body)
                let asValue = try render("{{parseJson request.body 'parsed'}}{{{toJson (jsonPath parsed '\(path)')}}}", body: body)
                #expect(asText == asValue, "\(context)")
            }
        }
    }

    @Test("jsonPath: unions as WireMock's: indices in their order; names at the end one object, its members in the path's order")
    func unions() throws {
        let body = #"{"a": [{"k": "x", "j": 1}, {"k": "yy"}, {"j": 3, "k": [1, 2]}, 1, 2, "zz"], "b": 5, "o": {"x": {"z": 1}, "y": [1], "w": 0}}"#
        #expect(try render("{{{jsonPath request.body '$.a[2,0]'}}}|{{{jsonPath request.body '$.a[-1,0]'}}}|{{{jsonPath request.body '$.a[0,9]'}}}|{{{jsonPath request.body '$.a[0,2].k'}}}", body: body)
            == #"[{"j":3,"k":[1,2]},{"k":"x","j":1}]|["zz",{"k":"x","j":1}]|[{"k":"x","j":1}]|["x",[1,2]]"#)
        #expect(try render("{{{jsonPath request.body '$.o[\\'y\\',\\'missing\\',\\'x\\']'}}}", body: body) == "{\n  \"y\" : [ 1 ],\n  \"x\" : {\n    \"z\" : 1\n  }\n}")
        #expect(try render("{{{jsonPath request.body '$.a[*][\\'k\\',\\'j\\']'}}}|{{{jsonPath request.body '$[\\'o\\',\\'b\\'].x'}}}", body: body)
            == #"[{"k":"x","j":1},{"k":"yy","j":null},{"k":[1,2],"j":3}]|[{"z":1}]"#)
    }

    @Test("parseJson reads numbers as WireMock's Jackson does (decimals exact, 1.10 stays 1.10); jsonPath of such a value prints its lists as Java's")
    func parsedValues() throws {
        let body = #"{"a": "x/y", "b": [1, 2.0], "c": {"d": 1}, "n": null, "big": 123456789012345678901234567890, "dec": 1.10, "inf": 1e400, "long": 1.00000000000000000001, "e": 2e3}"#
        #expect(try render("{{parseJson request.body 'x'}}{{x.a}}|{{x.b}}|{{x.c}}|{{x.n}}|{{x.big}}|{{x.dec}}|{{x.inf}}|{{x.long}}|{{x.e}}", body: body)
            == "x/y|[1, 2.0]|{d=1}||123456789012345678901234567890|1.10|1E+400|1.00000000000000000001|2E+3")
        #expect(try render("{{#parseJson 'y'}}{\"k\": [1, 1.50, \"x/y\"]}{{/parseJson}}{{y.k}}|{{y.k.[1]}}") == "[1, 1.50, x/y]|1.50")
        #expect(try render("{{parseJson request.body 'x'}}{{math x.dec '*' 2}}|{{math x.dec '+' 1}}|{{#eq x.dec 1.1}}eq{{else}}ne{{/eq}}|{{#gt x.dec 1}}gt{{/gt}}", body: #"{"dec": 1.10}"#)
            == "2.2|2.1|eq|gt")
        let document = #"{"a": [2e3, 1.50, 1.0, "s/t"], "o": {"x": 2e3, "y": [1.50, "q"]}, "l": [{"x": 1, "z": [1, 2]}, [3, "v"]]}"#
        #expect(try render("{{{jsonPath (parseJson request.body) '$.a'}}}|{{{jsonPath (parseJson request.body) '$.o'}}}|{{{jsonPath (parseJson request.body) '$.l[*]'}}}|{{{jsonPath (parseJson request.body) '$..x'}}}|{{#each (jsonPath (parseJson request.body) '$.l')}}[{{{this}}}]{{/each}}",
                           body: document)
            == "[2E+3, 1.50, 1.0, s/t]|{\n  \"x\" : 2000,\n  \"y\" : [ 1.50, \"q\" ]\n}|[{\"x\":1,\"z\":[1,2]},[3,\"v\"]]|[null,2E+3,1]|[{x=1, z=[1, 2]}][[3, v]]")
    }

    @Test("xPath: an element prints as the JDK's serializer writes it, indented, with its own namespace declarations first, and a line break at the end")
    func elements() throws {
        #expect(try render("{{{xPath request.body '/a/b'}}}", body: #"<a><b id="1">text <i>it</i> &amp; more</b><b>two</b></a>"#)
            == "<b id=\"1\">\n  text \n  <i>it</i>\n   &amp; more\n</b>\n")
        #expect(try render("{{{xPath request.body '/a'}}}", body: #"<a><b><c>x</c><d/></b><e f="1"><g>y</g>tail</e></a>"#)
            == "<a>\n  <b>\n    <c>x</c>\n    <d/>\n  </b>\n  <e f=\"1\">\n    <g>y</g>\n    tail\n  </e>\n</a>\n")
        #expect(try render("{{{xPath request.body '/a/b'}}}", body: "<a>\n  <b>\n    <c>1</c>\n    <c>2</c>\n  </b>\n</a>")
            == "<b>\n      \n  <c>1</c>\n      \n  <c>2</c>\n    \n</b>\n")
        #expect(try render("{{{xPath request.body '/r/b'}}}", body: #"<r><b z="1" a="2" xmlns:n="urn:n" n:m="3" xmlns="urn:d" B="5"><n:c/></b></r>"#)
            == "<b xmlns=\"urn:d\" xmlns:n=\"urn:n\" B=\"5\" a=\"2\" n:m=\"3\" z=\"1\">\n  <n:c/>\n</b>\n")
        #expect(try render("{{{xPath request.body '/*/*'}}}|{{xPath request.body '/a/e'}}", body: #"<n:a xmlns:n="urn:x"><n:b at="v">in ns</n:b><e/></n:a>"#)
            == "<n:b at=\"v\">in ns</n:b>\n|<e/>\n")
        #expect(try render("{{#each (xPath request.body '//c')}}{{{this}}}{{/each}}|{{{xPath request.body '/a'}}}", body: #"<a v="x&#10;y&#9;z&amp;&gt;&apos;"><c><d>1</d></c><c>2</c></a>"#)
            == "<c>\n  <d>1</d>\n</c>\n<c>2</c>\n|<a v=\"x&#10;y&#9;z&amp;&gt;'\">\n  <c>\n    <d>1</d>\n  </c>\n  <c>2</c>\n</a>\n")
    }

    @Test("xPath: a node's name is as the document wrote it, its prefix too")
    func nodeNames() throws {
        #expect(try render("{{#each (xPath request.body '/*/*')}}{{name}}|{{text}}|{{attributes.q}};{{/each}}|{{xPath request.body '/a/@*'}}|{{#each (xPath request.body '//@*')}}[{{this}}]{{/each}}",
                           body: #"<n:a xmlns:n="u"><n:b q="1" p="0">x</n:b><c>y</c></n:a>"#)
            == "n:b|x|1;c|y|;||[0][1]")
    }

    @Test("strings count UTF-16 code units as Java does; trim takes what is at or below U+0020; regexExtract without a match prints WireMock's error in place")
    func strings() throws {
        #expect(try render("{{size 'héllo😀'}}|{{size (array 1 2 3)}}|{{size ''}}|[{{size 12345}}]") == "7|3|0|[]")
        #expect(try render("[{{substring 'abcde' 1 3}}][{{substring 'abcde' 3}}][{{substring 'abcde' 5}}][{{substring 'h😀llo' 1 3}}][{{substring 'h😀llo' 2}}]")
            == "[bc][de][][😀][?llo]")
        #expect(try render("[{{abbreviate 'abcdefghij' 5}}][{{abbreviate 'abc' 5}}][{{abbreviate 'abcdefg' 6}}][{{abbreviate 'a😀😀😀😀b' 5}}]")
            == "[ab...][abc][abc...][a?...]")
        #expect(try render("[{{trim '  a b  '}}][{{trim '\t\na\u{a0}'}}][{{trim '\u{2003}x\u{1}'}}]") == "[a b][a\u{a0}][\u{2003}x]")
        #expect(try render("[{{regexExtract 'abc' '[0-9]+'}}][{{regexExtract 'abc' '[0-9]+' default='none'}}][{{regexExtract 'abc' '([0-9]+)' 'p'}}{{p.0}}][{{regexExtract 'a<b' 'x<y'}}]")
            == "[[ERROR: Nothing matched [0-9]+]][none][[ERROR: Nothing matched ([0-9]+)]][[ERROR: Nothing matched x<y]]")
        #expect(throws: TemplateProblem.self) { try render("{{substring 'h😀llo' 1 10}}") }
    }

    @Test("string helpers as Handlebars.java's: Java's final sigma, replace of nothing, pads of several characters in UTF-16, slugify of letters and spaces")
    func moreStrings() throws {
        #expect(try render("{{lower 'ΣΑΣ ΟΔΟΣ. Σ ΑΣ1 Σ\\'Α'}}|{{upper 'ﬁ ŉ'}}|{{lower 'ẞ İ'}}") == "σας οδος. σ ας1 σ'α|FI ʼN|ß i̇")
        #expect(try render("{{replace 'x😀' '' '-'}}|{{replace 'aXbX' 'X' ''}}|{{replace 'a.b' '.' '$0'}}") == "-x-?-?-|ab|a$0b")
        #expect(try render("[{{ljust '😀' size=4 pad='.'}}][{{rjust 'é' size=3}}][{{center 'ab' size=6 pad='xy'}}][{{center 'ab' size=7 pad='xyz'}}][{{rjust 'ab' size=7 pad='😀'}}][{{ljust 'ab' size=1}}]")
            == "[😀..][  é][xyabxy][xyabxyz][😀😀?ab][ab]")
        #expect(try render("{{slugify '  Héllo, World! 2 -- x_y\tz  '}}|{{slugify 'ÀÉÎ-ö😀 ǅ'}}") == "héllo-world---xy-z|àéîö-ǆ")
    }

    @Test("each: @first, @last, @even and @odd print their name or nothing, as Handlebars.java's")
    func eachData() throws {
        #expect(try render("{{#each (array 'a' 'b' 'c')}}{{@index}}[{{@first}}][{{@last}}][{{@even}}][{{@odd}}]{{this}};{{/each}}|{{#each (array 'a')}}{{#if @first}}F{{/if}}{{#if @last}}L{{/if}}{{/each}}|{{#each (jsonPath request.body '$')}}{{@key}}[{{@first}}][{{@last}}];{{/each}}",
                           body: #"{"b": 1, "a": 2}"#)
            == "0[first][][even][]a;1[][][][odd]b;2[][last][even][]c;|FL|b[first][];a[][last];")
    }

    @Test("each: @../index, @../key, @../first and @../last are the enclosing loop's, as Handlebars.java's")
    func outerEachData() throws {
        #expect(try render("{{#each (array 'a' 'b')}}{{#each (array 'x' 'y')}}{{@../index}}{{@index}} {{/each}}{{/each}}") == "00 01 10 11 ")
        #expect(try render(#"{{#each (parseJson '{"p":[1,2],"q":[3]}')}}{{#each this}}{{@../key}}{{this}} {{/each}}{{/each}}"#) == "p1 p2 q3 ")
        #expect(try render(#"{{#each (parseJson '{"p":{"a":1},"q":{"b":2}}')}}{{#each this}}{{@../key}}{{@key}} {{/each}}{{/each}}"#) == "pa qb ")
        #expect(try render("{{#each (array 'a' 'b')}}{{#each (array 'x' 'y')}}[{{@../first}}|{{@../last}}]{{/each}}{{/each}}")
            == "[first|][first|][|last][|last]")
    }

    @Test("matches and contains blocks render their body or nothing, never the else part, as WireMock's")
    func matchesContainsElse() throws {
        #expect(try render("[{{#matches 'abc' '[0-9]+'}}num{{else}}nan{{/matches}}]|[{{#contains 'abc' 'z'}}Y{{else}}N{{/contains}}]|[{{#matches '42' '[0-9]+'}}num{{else}}nan{{/matches}}]|[{{#contains 'abc' 'b'}}Y{{else}}N{{/contains}}]")
            == "[]|[]|[num]|[Y]")
        #expect(try render("{{#if (matches 'abc' '[0-9]+')}}num{{else}}nan{{/if}}|{{#if (contains 'abc' 'z')}}Y{{else}}N{{/if}}") == "nan|N")
    }

    @Test("dates: a Java pattern prints as Java prints it: S in milliseconds, u the day from Monday, five letters a full name; truncateDate in the moment's offset")
    func javaPatterns() throws {
        #expect(try render("{{date (parseDate '2021-10-11T12:34:56.789Z') format='S|SS|SSS|SSSS|SSSSSS|u|uu|EEEEE|E|EEE|MMMMM|M|MMM|LLLLL|aaaa|yyyyy|F|W|D'}}|{{date (parseDate '2021-10-10T01:00:00.005Z') format=\"u S 'S' ''\"}}")
            == "789|789|789|0789|000789|1|01|Monday|Mon|Mon|October|10|Oct|October|PM|02021|2|3|284|7 5 S '")
        #expect(try render("{{truncateDate (parseDate '2021-10-11T01:34:56+02:00') 'first hour of day'}}|{{truncateDate (parseDate '2021-10-01T01:34:56+02:00') 'first day of month'}}|{{truncateDate (parseDate '2021-10-11T12:34:56-03:30') 'first minute of hour'}}|{{truncateDate (parseDate '2021-10-11T12:34:56Z') 'last day of year'}}")
            == "2021-10-11T00:00:00+02:00|2021-10-01T00:00:00+02:00|2021-10-11T12:00:00-03:30|2021-12-31T00:00:00Z")
    }

    @Test("dates: S prints the milliseconds the moment was written with, as Java does (.123 is 123, .001 is 001)")
    func exactMilliseconds() throws {
        #expect(try render("{{date (parseDate '2021-10-11T12:34:56.123Z') format='SSS'}}|{{date (parseDate '2021-10-11T12:34:56.001Z') format='SSS'}}|{{date (parseDate '1969-12-31T23:59:59.123Z') format='ss.SSS'}}|{{date (parseDate '2021-10-11T12:34:56.999Z') format='ss.SSS'}}")
            == "123|001|59.123|56.999")
    }

    @Test("dates: UTC is named UTC; a moment parsed with an offset prints in that offset")
    func dates() throws {
        #expect(try render("{{date (parseDate '2021-10-11T12:34:56.789Z') format='EEE, dd MMM yyyy HH:mm:ss.SSS z'}}|{{date (parseDate '2021-10-11T12:34:56Z') format='Z z zzzz X'}}|{{dateFormat (parseDate '2021-10-11T12:34:56Z') 'zzzz'}}|{{date (parseDate '2021-10-11T12:34:56Z') format=\"'z' z\"}}")
            == "Mon, 11 Oct 2021 12:34:56.789 UTC|+0000 UTC Coordinated Universal Time Z|Coordinated Universal Time|z UTC")
        #expect(try render("{{parseDate '2021-10-11T12:34:56+02:00'}}|{{date (parseDate '2021-10-11T12:34:56+02:00') format='HH:mm Z'}}|{{date (parseDate '2021-10-11T12:34:56+02:00') offset='1 hours'}}|{{date (parseDate '2021-10-11T12:34:56+02:00') format='epoch'}}|{{parseDate '2021-10-11T12:34:56.5-03:30'}}|{{parseDate '2021-10-11T12:34:56Z'}}")
            == "2021-10-11T12:34:56+02:00|12:34 +0200|2021-10-11T13:34:56+02:00|1633948496000|2021-10-11T12:34:56-03:30|2021-10-11T12:34:56Z")
    }
}
