import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
@testable import HTTPMock
import _HTTPMockTemplates

/// The value patterns and request fields of WireMock's schema beyond the common ones: numbers, `anything`,
/// multi-value patterns, method lists, multi-domain mappings, form parameters; and response fields that complete
/// them. Each mapping is written here, with the answer WireMock documents for it.
@Suite struct WireMockMorePatternsTests {
    /// A mock loaded from one mapping file holding `mappings`.
    static func mock(_ mappings: [String]) throws -> HTTPMock {
        let root = try WireMockBadInputTests.folder(["mappings/all.json": #"{"mappings": ["# + mappings.joined(separator: ",\n") + "]}"])
        defer { try? FileManager.default.removeItem(at: root) }
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: root)
        return mock
    }

    @Test("number patterns compare the value as a number; a value that is not one does not match")
    func numbers() async throws {
        let mock = try Self.mock([
            #"{"request": {"urlPath": "/n", "queryParameters": {"age": {"greaterThanEqualNumber": 18}, "score": {"lessThanNumber": 9.5}}}, "response": {"body": "adult"}}"#,
            #"{"request": {"urlPath": "/eq", "headers": {"X-Count": {"equalToNumber": 3}}}, "response": {"body": "three"}}"#,
            #"{"request": {"urlPath": "/gt", "queryParameters": {"v": {"greaterThanNumber": "2"}}}, "response": {"body": "more"}}"#,
            #"{"request": {"urlPath": "/le", "queryParameters": {"v": {"lessThanEqualNumber": -1}}}, "response": {"body": "low"}}"#,
        ])
        let session = mock.urlSession
        #expect(try await session.fetch("http://localhost/n?age=18&score=9.49").text == "adult")
        #expect(try await session.fetch("http://localhost/n?age=17.9&score=1").status == 404)
        #expect(try await session.fetch("http://localhost/n?age=30&score=9.5").status == 404)
        #expect(try await session.fetch("http://localhost/n?age=old&score=1").status == 404)
        #expect(try await session.fetch("http://localhost/eq", headers: ["X-Count": "3.0"]).text == "three")
        #expect(try await session.fetch("http://localhost/eq", headers: ["X-Count": "4"]).status == 404)
        #expect(try await session.fetch("http://localhost/gt?v=2.5").text == "more")
        #expect(try await session.fetch("http://localhost/gt?v=2").status == 404)
        #expect(try await session.fetch("http://localhost/le?v=-1").text == "low")
    }

    @Test("matches and doesNotMatch: a dot matches a line break too, as WireMock compiles its patterns with Java's DOTALL")
    func dotMatchesLineBreaks() async throws {
        let mock = try Self.mock([
            #"{"request": {"method": "POST", "urlPath": "/m", "bodyPatterns": [{"matches": ".*\"id\": 42.*"}]}, "response": {"body": "has id 42"}}"#,
            #"{"request": {"method": "POST", "urlPath": "/not", "bodyPatterns": [{"doesNotMatch": ".*secret.*"}]}, "response": {"body": "no secret"}}"#,
            #"{"request": {"urlPath": "/h", "headers": {"X-A": {"matches": "a.b"}}}, "response": {"body": "a?b"}}"#,
        ])
        let session = mock.urlSession
        for separator in ["\n", "\r\n", "\u{2028}", "\u{85}"] {
            #expect(try await session.fetch("http://localhost/m", method: "POST", body: Data("{\(separator)  \"id\": 42\(separator)}".utf8)).text == "has id 42")
            #expect(try await session.fetch("http://localhost/not", method: "POST", body: Data("a\(separator)secret".utf8)).status == 404)
        }
        #expect(try await session.fetch("http://localhost/not", method: "POST", body: Data("a\nplain".utf8)).text == "no secret")
        #expect(try await session.fetch("http://localhost/m", method: "POST", body: Data("{\"id\": 43}".utf8)).status == 404)
        #expect(try await session.fetch("http://localhost/h", headers: ["X-A": "a\tb"]).text == "a?b")
    }

    @Test("patterns read as WireMock's Java reads them: ASCII classes, ASCII case; equalTo caseInsensitive as equalsIgnoreCase; quoted cookies")
    func javaReadings() async throws {
        let mock = try Self.mock([
            #"{"request": {"urlPath": "/d", "queryParameters": {"x": {"matches": "\\d+"}}}, "response": {"body": "digits"}}"#,
            #"{"request": {"urlPathPattern": "/w/\\w+"}, "response": {"body": "word"}}"#,
            #"{"request": {"urlPath": "/i", "queryParameters": {"x": {"matches": "(?i)é[a-z]"}}}, "response": {"body": "e-acute"}}"#,
            #"{"request": {"urlPath": "/no", "queryParameters": {"x": {"doesNotMatch": ".*\\s.*"}}}, "response": {"body": "no space"}}"#,
            #"{"request": {"urlPath": "/ci", "queryParameters": {"x": {"equalTo": "straße", "caseInsensitive": true}}}, "response": {"body": "street"}}"#,
            #"{"request": {"urlPath": "/ci2", "queryParameters": {"x": {"equalTo": "i", "caseInsensitive": true}}}, "response": {"body": "i"}}"#,
            #"{"request": {"urlPath": "/c", "cookies": {"s": {"equalTo": "x y"}}}, "response": {"body": "cookie"}}"#,
            #"{"request": {"urlPath": "/a", "headers": {"X-A": {"absent": false}}}, "response": {"body": "no X-A"}}"#,
        ])
        let session = mock.urlSession
        #expect(try await session.fetch("http://localhost/a").text == "no X-A", "any value of absent reads as true, as WireMock reads it")
        #expect(try await session.fetch("http://localhost/a", headers: ["X-A": "1"]).status == 404)
        #expect(try await session.fetch("http://localhost/d?x=123").text == "digits")
        #expect(try await session.fetch("http://localhost/d?x=%D9%A3").status == 404, "an Arabic-Indic three is no \\d")
        #expect(try await session.fetch("http://localhost/w/abc_9").text == "word")
        #expect(try await session.fetch("http://localhost/w/Jos%C3%A9").status == 404, "é is no \\w")
        #expect(try await session.fetch("http://localhost/i?x=%C3%A9B").text == "e-acute")
        #expect(try await session.fetch("http://localhost/i?x=%C3%89b").status == 404, "(?i) ignores the case of ASCII letters only")
        #expect(try await session.fetch("http://localhost/no?x=a%C2%A0b").text == "no space", "a no-break space is no \\s")
        #expect(try await session.fetch("http://localhost/no?x=a%20b").status == 404)
        #expect(try await session.fetch("http://localhost/ci?x=STRAẞE".addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)!).text == "street")
        #expect(try await session.fetch("http://localhost/ci?x=STRASSE").status == 404, "ß is compared alone, not as SS")
        for same in ["I", "%C4%B1", "%C4%B0"] {
            #expect(try await session.fetch("http://localhost/ci2?x=\(same)").text == "i", "\(same) equals i ignoring case, as Java compares")
        }
        #expect(try await session.fetch("http://localhost/ci2?x=j").status == 404)
        #expect(try await session.fetch("http://localhost/c", headers: ["Cookie": #"a=1; s="x y""#]).text == "cookie")
        #expect(try await session.fetch("http://localhost/c", headers: ["Cookie": "s=x y"]).text == "cookie")
        #expect(try await session.fetch("http://localhost/c", headers: ["Cookie": #"s="x y"#]).status == 404, "one quote is part of the value")
    }

    @Test("as WireMock 2.35.1 answered: each header line whole, the Basic scheme in any case, negations met by a missing value but a cookie")
    func headerLinesAndNegations() async throws {
        let mock = try Self.mock([
            #"{"request": {"urlPath": "/h", "headers": {"X-M": {"equalTo": "b"}}}, "response": {"body": "b"}}"#,
            #"{"request": {"urlPath": "/r", "headers": {"Accept": {"matches": "text/html"}}}, "response": {"body": "html"}}"#,
            #"{"request": {"urlPath": "/ba", "basicAuthCredentials": {"username": "u", "password": "p"}}, "response": {"body": "in"}}"#,
            #"{"request": {"urlPath": "/q", "queryParameters": {"x": {"doesNotContain": "a"}}}, "response": {"body": "no a"}}"#,
            #"{"request": {"method": "POST", "urlPath": "/b", "bodyPatterns": [{"doesNotContain": "a"}]}, "response": {"body": "body without a"}}"#,
            #"{"request": {"urlPath": "/c", "cookies": {"x": {"doesNotContain": "a"}}}, "response": {"body": "cookie without a"}}"#,
            #"{"request": {"urlPath": "/c-absent", "cookies": {"x": {"absent": true}}}, "response": {"body": "no cookie x"}}"#,
            #"{"request": {"urlPath": "/c-and", "cookies": {"x": {"and": [{"doesNotContain": "a"}]}}}, "response": {"body": "and"}}"#,
        ])
        #expect(try await mock.urlSession.fetch("http://localhost/c-absent").text == "no cookie x")
        #expect(try await mock.urlSession.fetch("http://localhost/c-absent", headers: ["Cookie": "x=1"]).status == 404)
        #expect(try await mock.urlSession.fetch("http://localhost/c-and").status == 404, "a missing cookie meets absent only")
        #expect(try await mock.urlSession.fetch("http://localhost/c-and", headers: ["Cookie": "x=b"]).text == "and")
        let session = mock.urlSession
        #expect(try await session.fetch("http://localhost/h", headers: ["X-M": "b"]).text == "b")
        #expect(try await session.fetch("http://localhost/h", headers: ["X-M": "a, b"]).status == 404, "one line is one value")
        #expect(try await session.fetch("http://localhost/r", headers: ["Accept": "text/html, application/json"]).status == 404)
        #expect(try await session.fetch("http://localhost/r", headers: ["Accept": "text/html"]).text == "html")
        for scheme in ["Basic", "basic", "BASIC"] {
            #expect(try await session.fetch("http://localhost/ba", headers: ["Authorization": "\(scheme) dTpw"]).text == "in", "\(scheme)")
        }
        #expect(try await session.fetch("http://localhost/ba", headers: ["Authorization": "Basic DTPW"]).status == 404, "the credentials as they are")
        #expect(try await session.fetch("http://localhost/ba", headers: ["Authorization": "Basic  dTpw"]).status == 404, "one space")
        #expect(try await session.fetch("http://localhost/q").text == "no a")
        #expect(try await session.fetch("http://localhost/q?x=bab").status == 404)
        #expect(try await session.fetch("http://localhost/b", method: "POST").text == "body without a")
        #expect(try await session.fetch("http://localhost/b", method: "POST", body: Data("bab".utf8)).status == 404)
        #expect(try await session.fetch("http://localhost/c").status == 404, "a missing cookie meets no pattern but absent")
        #expect(try await session.fetch("http://localhost/c", headers: ["Cookie": "x=b"]).text == "cookie without a")
    }

    @Test("bodies read into text as WireMock reads them: the declared charset, else UTF-8 with U+FFFD, a byte order mark kept; equalTo byte for byte")
    func bodyText() async throws {
        let mock = try Self.mock([
            #"{"request": {"method": "POST", "urlPath": "/echo"}, "response": {"body": "[{{{request.body}}}] {{size request.body}}", "transformers": ["response-template"]}}"#,
            #"{"request": {"method": "POST", "urlPath": "/cafe", "bodyPatterns": [{"contains": "café"}]}, "response": {"body": "café"}}"#,
            #"{"request": {"urlPath": "/nfc", "headers": {"X-N": {"equalTo": "é"}}}, "response": {"body": "precomposed"}}"#,
            #"{"request": {"urlPath": "/nfc-query", "queryParameters": {"x": {"equalTo": "é"}}}, "response": {"body": "precomposed"}}"#,
        ])
        #expect(try await mock.urlSession.fetch("http://localhost/nfc-query?x=%C3%A9").text == "precomposed")
        #expect(try await mock.urlSession.fetch("http://localhost/nfc-query?x=e%CC%81").status == 404)
        let session = mock.urlSession
        func echo(_ bytes: [UInt8], _ type: String? = nil) async throws -> String {
            try await session.fetch("http://localhost/echo", method: "POST", headers: type.map { ["Content-Type": $0] } ?? [:], body: Data(bytes)).text
        }
        #expect(try await echo(Array("caf".utf8) + [0xE9]) == "[caf\u{FFFD}] 4", "invalid UTF-8: a replacement character, not an empty body")
        #expect(try await echo(Array("caf".utf8) + [0xE9], "text/plain; charset=ISO-8859-1") == "[café] 4")
        #expect(try await echo([0xFE, 0xFF, 0x00, 0x63, 0x00, 0xE9], "text/plain; charset=utf-16") == "[cé] 2")
        #expect(try await echo([0xEF, 0xBB, 0xBF, 0x78]) == "[\u{FEFF}x] 2", "the byte order mark is kept")
        #expect(try await session.fetch("http://localhost/cafe", method: "POST", headers: ["Content-Type": "text/plain; charset=latin1"],
                                        body: Data(Array("caf".utf8) + [0xE9])).text == "café")
        #expect(try await session.fetch("http://localhost/nfc", headers: ["X-N": "\u{E9}"]).text == "precomposed")
        #expect(try await session.fetch("http://localhost/nfc", headers: ["X-N": "e\u{301}"]).status == 404, "Java's equals compares code points")
    }

    @Test("equalToJson with ignoreExtraElements: extra elements of an array only after the expected ones, as WireMock's JsonUnit allows them")
    func extraArrayElementsAtTheEnd() async throws {
        let mock = try Self.mock([
            #"{"request": {"method": "POST", "urlPath": "/extra", "bodyPatterns": [{"equalToJson": "{\"a\": [1, 3], \"o\": {\"k\": 1}}", "ignoreExtraElements": true}]}, "response": {"body": "extra"}}"#,
            #"{"request": {"method": "POST", "urlPath": "/any-order", "bodyPatterns": [{"equalToJson": "[1, 3]", "ignoreExtraElements": true, "ignoreArrayOrder": true}]}, "response": {"body": "any order"}}"#,
        ])
        let session = mock.urlSession
        func post(_ path: String, _ body: String) async throws -> Int { try await session.fetch("http://localhost\(path)", method: "POST", body: Data(body.utf8)).status }
        #expect(try await post("/extra", #"{"a": [1, 3, 2], "o": {"k": 1, "j": 2}, "more": true}"#) == 200)
        #expect(try await post("/extra", #"{"a": [1, 2, 3], "o": {"k": 1}}"#) == 404)
        #expect(try await post("/extra", #"{"a": [0, 1, 3], "o": {"k": 1}}"#) == 404)
        #expect(try await post("/extra", #"{"a": [1], "o": {"k": 1}}"#) == 404)
        #expect(try await post("/any-order", "[2, 3, 1]") == 200)
        #expect(try await post("/any-order", "[2, 3]") == 404)
    }

    @Test("JsonUnit's placeholders as WireMock 2.35.1 answered them: regex, ignore-element, #{…}; others compared as text")
    func jsonUnitPlaceholders() async throws {
        func mapping(_ path: String, _ placeholder: String) -> String {
            #"{"request": {"method": "POST", "urlPath": "/\#(path)", "bodyPatterns": [{"equalToJson": {"a": "\#(placeholder)", "k": 1}}]}, "response": {"body": "\#(path)"}}"#
        }
        let mock = try Self.mock([mapping("regex", "${json-unit.regex}[a-z]+"), mapping("element", "${json-unit.ignore-element}"),
                                  mapping("hash", "#{json-unit.ignore}"), mapping("unknown", "${json-unit.any-object}")])
        func post(_ path: String, _ body: String) async throws -> Int {
            try await mock.urlSession.fetch("http://localhost/\(path)", method: "POST", body: Data(body.utf8)).status
        }
        #expect(try await post("regex", #"{"a": "abc", "k": 1}"#) == 200)
        #expect(try await post("regex", #"{"a": "ABC", "k": 1}"#) == 404)
        #expect(try await post("regex", #"{"a": "abc1", "k": 1}"#) == 404)
        #expect(try await post("regex", #"{"a": 5, "k": 1}"#) == 404)
        #expect(try await post("element", #"{"a": [1], "k": 1}"#) == 200)
        #expect(try await post("element", #"{"k": 1}"#) == 200)
        #expect(try await post("element", #"{"k": 1, "z": 1}"#) == 404)
        #expect(try await post("hash", #"{"a": null, "k": 1}"#) == 200)
        #expect(try await post("hash", #"{"k": 1}"#) == 404)
        #expect(try await post("unknown", #"{"a": {}, "k": 1}"#) == 404)
        #expect(try await post("unknown", #"{"a": "${json-unit.any-object}", "k": 1}"#) == 200)
    }

    @Test("equalToJson compares texts and keys code unit by code unit, as WireMock does: é is not e with a combining accent")
    func jsonTextsByCodeUnits() async throws {
        let mock = try Self.mock([#"{"request": {"method": "POST", "urlPath": "/t", "bodyPatterns": [{"equalToJson": {"caf\u00e9": "\u00e9"}}]}, "response": {"body": "t"}}"#])
        func post(_ body: String) async throws -> Int {
            try await mock.urlSession.fetch("http://localhost/t", method: "POST", body: Data(body.utf8)).status
        }
        #expect(try await post(#"{"caf\u00e9": "\u00e9"}"#) == 200)
        #expect(try await post(#"{"caf\u00e9": "e\u0301"}"#) == 404)
        #expect(try await post(#"{"cafe\u0301": "\u00e9"}"#) == 404)
    }

    @Test("not, and, doesNotMatch and doesNotContain test each value of a repeated parameter or header whole, as WireMock does")
    func negationsPerValue() async throws {
        let mock = try Self.mock([
            #"{"request": {"urlPath": "/not", "queryParameters": {"v": {"doesNotMatch": "1"}}}, "response": {"body": "a value is not 1"}}"#,
            #"{"request": {"urlPath": "/and", "queryParameters": {"v": {"and": [{"equalTo": "1"}, {"equalTo": "2"}]}}}, "response": {"body": "a value is 1 and 2"}}"#,
            #"{"request": {"urlPath": "/header", "headers": {"X-A": {"not": {"equalTo": "x"}}}}, "response": {"body": "a header is not x"}}"#,
            #"{"request": {"urlPath": "/absent", "queryParameters": {"v": {"not": {"equalTo": "x"}}}}, "response": {"body": "v is not x"}}"#,
        ])
        let session = mock.urlSession
        #expect(try await session.fetch("http://localhost/not?v=1&v=2").text == "a value is not 1")
        #expect(try await session.fetch("http://localhost/not?v=1&v=1").status == 404)
        #expect(try await session.fetch("http://localhost/not").text == "a value is not 1", "a missing parameter meets doesNotMatch, as in WireMock")
        #expect(try await session.fetch("http://localhost/and?v=1&v=2").status == 404)
        #expect(try await session.fetch("http://localhost/header", headers: ["X-A": "x"]).status == 404)
        #expect(try await session.fetch("http://localhost/header", headers: ["X-A": "y"]).text == "a header is not x")
        #expect(try await session.fetch("http://localhost/absent").text == "v is not x")
        #expect(try await session.fetch("http://localhost/absent?v=x&v=y").text == "v is not x")
        #expect(try await session.fetch("http://localhost/absent?v=x").status == 404)
        // A parameter written without `=` has the empty value, as WireMock reads it.
        let empty = try Self.mock([#"{"request": {"urlPath": "/e", "queryParameters": {"v": {"equalTo": ""}}}, "response": {"body": "v is empty"}}"#])
        #expect(try await empty.urlSession.fetch("http://localhost/e?v").text == "v is empty")
        #expect(try await empty.urlSession.fetch("http://localhost/e?v=").text == "v is empty")
        #expect(try await empty.urlSession.fetch("http://localhost/e?v=x").status == 404)
        #expect(try await empty.urlSession.fetch("http://localhost/e?w").status == 404)
    }

    @Test("anything matches a value and its absence; includes and hasExactly test every value of a parameter")
    func anythingAndMultipleValues() async throws {
        let mock = try Self.mock([
            #"{"request": {"urlPath": "/any", "headers": {"X-Trace": {"anything": "anything"}}}, "response": {"body": "any"}}"#,
            #"{"request": {"urlPath": "/in", "queryParameters": {"id": {"includes": [{"equalTo": "1"}, {"matches": "[3-4]"}]}}}, "response": {"body": "includes"}}"#,
            #"{"request": {"urlPath": "/ex", "queryParameters": {"id": {"hasExactly": [{"equalTo": "1"}, {"equalTo": "2"}]}}}, "response": {"body": "exactly"}}"#,
        ])
        let session = mock.urlSession
        #expect(try await session.fetch("http://localhost/any").text == "any")
        #expect(try await session.fetch("http://localhost/any", headers: ["X-Trace": "t"]).text == "any")
        #expect(try await session.fetch("http://localhost/in?id=1&id=9&id=4").text == "includes")
        #expect(try await session.fetch("http://localhost/in?id=1&id=9").status == 404)
        #expect(try await session.fetch("http://localhost/ex?id=2&id=1").text == "exactly")
        #expect(try await session.fetch("http://localhost/ex?id=1&id=2&id=3").status == 404)
        #expect(try await session.fetch("http://localhost/ex?id=1").status == 404)
    }

    @Test("method oneOf and noneOf; basicAuth as basicAuthCredentials; form parameters of a form body")
    func methodsCredentialsAndForms() async throws {
        let mock = try Self.mock([
            #"{"request": {"urlPath": "/m", "method": {"oneOf": ["PUT", "PATCH"]}}, "response": {"body": "write"}}"#,
            #"{"request": {"urlPath": "/m", "method": {"noneOf": ["PUT", "PATCH", "DELETE"]}}, "response": {"body": "other"}}"#,
            #"{"request": {"urlPath": "/auth", "basicAuth": {"username": "ann", "password": "s3cret"}}, "response": {"body": "in"}}"#,
            #"{"request": {"urlPath": "/form", "method": "POST", "formParameters": {"user": {"equalTo": "ann lee"}, "age": {"greaterThanNumber": 20}}}, "response": {"body": "form"}}"#,
        ])
        let session = mock.urlSession
        #expect(try await session.fetch("http://localhost/m", method: "PATCH").text == "write")
        #expect(try await session.fetch("http://localhost/m", method: "POST").text == "other")
        #expect(try await session.fetch("http://localhost/m", method: "DELETE").status == 404)
        let token = Data("ann:s3cret".utf8).base64EncodedString()
        #expect(try await session.fetch("http://localhost/auth", headers: ["Authorization": "Basic \(token)"]).text == "in")
        let form = ["Content-Type": "application/x-www-form-urlencoded"]
        #expect(try await session.fetch("http://localhost/form", method: "POST", headers: form, body: Data("user=ann+lee&age=31".utf8)).text == "form")
        #expect(try await session.fetch("http://localhost/form", method: "POST", headers: form, body: Data("user=ann%20lee&age=19".utf8)).status == 404)
    }

    @Test("multipartPatterns: one part (ANY) or every part (ALL) meets a pattern's headers and body patterns")
    func multipart() async throws {
        let mock = try Self.mock([
            #"{"request": {"urlPath": "/upload", "method": "POST", "multipartPatterns": [{"name": "info", "headers": {"Content-Disposition": {"contains": "name=\"info\""}, "Content-Type": {"contains": "json"}}, "bodyPatterns": [{"equalToJson": {"kind": "photo"}}]}]}, "response": {"body": "info part"}}"#,
            #"{"request": {"urlPath": "/all", "method": "POST", "multipartPatterns": [{"matchingType": "ALL", "headers": {"Content-Disposition": {"matches": "form-data;.*"}}}, {"bodyPatterns": [{"contains": "pixels"}]}]}, "response": {"body": "every part"}}"#,
        ])
        func body(_ parts: [(disposition: String, type: String?, body: String)], boundary: String = "b0undary", newline: String = "\r\n") -> Data {
            var text = "preamble" + newline
            for part in parts {
                text += "--\(boundary)\(newline)Content-Disposition: \(part.disposition)\(newline)"
                if let type = part.type { text += "Content-Type: \(type)\(newline)" }
                text += newline + part.body + newline
            }
            return Data((text + "--\(boundary)--\(newline)").utf8)
        }
        let multipart = ["Content-Type": "multipart/form-data; boundary=\"b0undary\""]
        let info = (disposition: #"form-data; name="info""#, type: Optional("application/json"), body: #"{"kind": "photo"}"#)
        let file = (disposition: #"form-data; name="file"; filename="a.png""#, type: Optional("image/png"), body: "pixels\r\n--not-the-boundary")
        let session = mock.urlSession
        #expect(try await session.fetch("http://localhost/upload", method: "POST", headers: multipart, body: body([file, info])).text == "info part")
        // Lines ending in LF alone are read too.
        #expect(try await session.fetch("http://localhost/upload", method: "POST", headers: multipart, body: body([info], newline: "\n")).text == "info part")
        let other = (disposition: info.disposition, type: info.type, body: #"{"kind": "video"}"#)
        #expect(try await session.fetch("http://localhost/upload", method: "POST", headers: multipart, body: body([file, other])).status == 404)
        // The same bytes that are not declared multipart have no parts.
        #expect(try await session.fetch("http://localhost/upload", method: "POST", headers: ["Content-Type": "text/plain"], body: body([info])).status == 404)
        #expect(try await session.fetch("http://localhost/all", method: "POST", headers: multipart, body: body([file, info])).text == "every part")
        let attachment = (disposition: "attachment", type: Optional<String>.none, body: "x")
        #expect(try await session.fetch("http://localhost/all", method: "POST", headers: multipart, body: body([file, attachment])).status == 404)
        #expect(try await session.fetch("http://localhost/all", method: "POST", headers: multipart, body: body([info])).status == 404)
        #expect {
            try Self.mock([#"{"request": {"multipartPatterns": [{"matchingType": "SOME"}]}, "response": {}}"#])
        } throws: { error in
            "\(error)".contains("multipartPatterns[0].matchingType") && "\(error)".contains("\"SOME\" is not a matching type")
        }
    }

    @Test("a templated bodyFileName picks the file for each request, inside __files only; a missing one answers 500 naming it")
    func templatedBodyFileName() async throws {
        let root = try WireMockBadInputTests.folder([
            "mappings/users.json": #"{"request": {"urlPathPattern": "/users/[^/]+"}, "response": {"bodyFileName": "users/{{request.path.[1]}}.json", "headers": {"Content-Type": "application/json"}, "transformers": ["response-template"]}}"#,
            "__files/users/7.json": #"{"id": 7, "asked": "{{request.path.[1]}}"}"#,
            "__files/users/8.json": #"{"id": 8}"#,
            "secret.txt": "outside __files",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: root)
        let session = mock.urlSession
        #expect(try await session.fetch("http://localhost/users/7").text == #"{"id": 7, "asked": "7"}"#)
        #expect(try await session.fetch("http://localhost/users/8").text == #"{"id": 8}"#)
        let missing = try await session.fetch("http://localhost/users/9")
        #expect(missing.status == 500 && missing.text.contains("users/9.json") && missing.text.contains("does not exist"))
        // A name that climbs out of __files is refused, whatever the request puts in it.
        let escape = try await session.fetch("http://localhost/users/..%2F..%2Fsecret")
        #expect(escape.status == 500 && !escape.text.contains("outside __files"))
    }

    @Test("clientIp: a request made in process comes from this machine, 127.0.0.1")
    func clientIP() async throws {
        let mock = try Self.mock([
            #"{"request": {"urlPath": "/local", "clientIp": {"equalTo": "127.0.0.1"}}, "response": {"body": "from {{request.clientIp}}", "transformers": ["response-template"]}}"#,
            #"{"request": {"urlPath": "/office", "clientIp": {"matches": "10\\..*"}}, "response": {"body": "office"}}"#,
        ])
        #expect(try await mock.urlSession.fetch("http://localhost/local").text == "from 127.0.0.1")
        #expect(try await mock.urlSession.fetch("http://localhost/office").status == 404)
    }

    @Test("scheme, host and port pick one domain's mapping, as WireMock's multi-domain mappings do")
    func multipleDomains() async throws {
        let mock = try Self.mock([
            #"{"request": {"urlPath": "/who", "host": "one.example.com"}, "response": {"body": "one"}}"#,
            #"{"request": {"urlPath": "/who", "host": {"matches": "two\\..*"}, "scheme": "https", "port": 8443}, "response": {"body": "two"}}"#,
        ])
        let session = mock.urlSession
        #expect(try await session.fetch("http://ONE.example.com/who").text == "one")
        #expect(try await session.fetch("https://two.example.com:8443/who").text == "two")
        #expect(try await session.fetch("https://two.example.com/who").status == 404)
        #expect(try await session.fetch("http://two.example.com:8443/who").status == 404)
    }

    @Test("a fixed delayDistribution loads; MALFORMED_RESPONSE_CHUNK without a body still breaks the response")
    func responseFields() async throws {
        let mock = try Self.mock([
            #"{"request": {"urlPath": "/slow"}, "response": {"body": "late", "delayDistribution": {"type": "fixed", "milliseconds": 1}}}"#,
            #"{"request": {"urlPath": "/broken"}, "response": {"status": 200, "fault": "MALFORMED_RESPONSE_CHUNK"}}"#,
        ])
        #expect(try await mock.urlSession.fetch("http://localhost/slow").text == "late")
        #expect(await mock.urlSession.failure("http://localhost/broken") != nil)
    }

    @Test("before, after and equalToDateTime compare moments: fixed or relative to now, in any zone, truncated, in a given format")
    func datesAndTimes() async throws {
        let mock = try Self.mock([
            #"{"request": {"urlPath": "/before", "queryParameters": {"t": {"before": "2026-06-14T12:00:00Z"}}}, "response": {"body": "before"}}"#,
            #"{"request": {"urlPath": "/after", "headers": {"X-Since": {"after": "now -1 days"}}}, "response": {"body": "recent"}}"#,
            #"{"request": {"urlPath": "/future", "queryParameters": {"t": {"after": "now", "expectedOffset": 1, "expectedOffsetUnit": "years"}}}, "response": {"body": "far"}}"#,
            #"{"request": {"urlPath": "/month", "queryParameters": {"t": {"equalToDateTime": "2026-06-01T00:00:00Z", "truncateActual": "first day of month"}}}, "response": {"body": "june"}}"#,
            #"{"request": {"urlPath": "/fixed", "queryParameters": {"t": {"equalToDateTime": "2026-06-15T10:00:00Z", "truncateExpected": "first hour of day"}}}, "response": {"body": "as written"}}"#,
            #"{"request": {"urlPath": "/format", "queryParameters": {"d": {"before": "2026-01-01", "actualFormat": "dd/MM/yyyy"}}}, "response": {"body": "formatted"}}"#,
            #"{"request": {"urlPath": "/unix", "queryParameters": {"s": {"after": "2001-09-09T01:46:39Z", "actualFormat": "unix"}}}, "response": {"body": "unix"}}"#,
        ])
        let session = mock.urlSession
        #expect(try await session.fetch("http://localhost/before?t=2026-06-14T13:59:59%2B02:00").text == "before")
        #expect(try await session.fetch("http://localhost/before?t=2026-06-14T12:00:00Z").status == 404)
        #expect(try await session.fetch("http://localhost/before?t=not-a-date").status == 404)
        let hourAgo = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-3600))
        let weekAgo = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-7 * 86_400))
        #expect(try await session.fetch("http://localhost/after", headers: ["X-Since": hourAgo]).text == "recent")
        #expect(try await session.fetch("http://localhost/after", headers: ["X-Since": weekAgo]).status == 404)
        #expect(try await session.fetch("http://localhost/future?t=2999-01-01").text == "far")
        #expect(try await session.fetch("http://localhost/future?t=\(hourAgo)").status == 404)
        #expect(try await session.fetch("http://localhost/month?t=2026-06-17T08:30:00Z").text == "june")
        #expect(try await session.fetch("http://localhost/month?t=2026-07-01T00:00:00Z").status == 404)
        // Written as Java's ISO parser reads it too: `t` and `z` in any case, no seconds, a region after the offset.
        for written in ["2026-06-15T10:00Z", "2026-06-15t10:00:00z", "2026-06-15T12:00:00%2B02:00%5BEurope/Paris%5D", "2026-06-15T10:00:00.000Z"] {
            #expect(try await session.fetch("http://localhost/fixed?t=\(written)").text == "as written", "\(written)")
        }
        #expect(try await session.fetch("http://localhost/fixed?t=2026-06-15T10:00Zjunk").status == 404)
        // A region only after a zone, and one the system knows.
        for refused in ["2026-06-15T10:00:00%5BEurope/Paris%5D", "2026-06-15T12:00:00%2B02:00%5BBogus/Zone%5D"] {
            #expect(try await session.fetch("http://localhost/fixed?t=\(refused)").status == 404, "\(refused)")
        }
        // truncateExpected truncates an expected now only, as in WireMock: a fixed moment is compared as written.
        #expect(try await session.fetch("http://localhost/fixed?t=2026-06-15T10:00:00Z").text == "as written")
        #expect(try await session.fetch("http://localhost/fixed?t=2026-06-15T00:00:00Z").status == 404)
        #expect(try await session.fetch("http://localhost/format?d=31/12/2025").text == "formatted")
        #expect(try await session.fetch("http://localhost/format?d=2025-12-31").status == 404)
        #expect(try await session.fetch("http://localhost/unix?s=1000000000").text == "unix")
        #expect(try await session.fetch("http://localhost/unix?s=999999999").status == 404)
        // A value with anything after its date is no date, as WireMock reads it (Foundation's formatters read the
        // date at the start and ignore the rest).
        for junk in ["2026-06-14T11:00:00Zjunk", "2026-06-14x", "2026-06-14T11:00:00.123456789012Z",
                     "2026-06-14T11:00:00%2B02:00:00"] {
            #expect(try await session.fetch("http://localhost/before?t=\(junk)").status == 404, "\(junk)")
        }
        #expect(try await session.fetch("http://localhost/before?t=2026-06-14T11:00:00.5%2B0200").text == "before")
        #expect(try await session.fetch("http://localhost/format?d=31/12/2025x").status == 404)
        #expect(try await session.fetch("http://localhost/format?d=1/12/2025").status == 404)
    }

    @Test("applyTruncationLast: an expected now with an offset is truncated after the offset; by default before it, as in WireMock")
    func truncationOrder() async throws {
        let mock = try Self.mock([
            #"{"request": {"urlPath": "/first", "queryParameters": {"t": {"equalToDateTime": "now +1 months", "truncateExpected": "last day of month"}}}, "response": {"body": "first"}}"#,
            #"{"request": {"urlPath": "/last", "queryParameters": {"t": {"equalToDateTime": "now +1 months", "truncateExpected": "last day of month", "applyTruncationLast": true}}}, "response": {"body": "last"}}"#,
        ])
        let now = Date()
        let utc = TemplateDates.utc
        let truncated = TemplateDates.Truncation.lastDayOfMonth
        let truncatedFirst = try #require(utc.date(byAdding: .month, value: 1, to: truncated.apply(to: now)))
        let truncatedLast = truncated.apply(to: try #require(utc.date(byAdding: .month, value: 1, to: now)))
        let iso = ISO8601DateFormatter()
        let session = mock.urlSession
        #expect(try await session.fetch("http://localhost/first?t=\(iso.string(from: truncatedFirst))").text == "first")
        #expect(try await session.fetch("http://localhost/last?t=\(iso.string(from: truncatedLast))").text == "last")
        if truncatedFirst != truncatedLast {
            #expect(try await session.fetch("http://localhost/last?t=\(iso.string(from: truncatedFirst))").status == 404)
            #expect(try await session.fetch("http://localhost/first?t=\(iso.string(from: truncatedLast))").status == 404)
        }
    }

    @Test("transformerParameters with keys of one's own: templates read them as parameters, as WireMock's do")
    func transformerParameters() async throws {
        let mock = try Self.mock([
            #"{"request": {"urlPath": "/hello"}, "response": {"body": "{{parameters.greeting}}, {{request.query.name}} ({{parameters.count}}, {{parameters.nested.a}})", "transformers": ["response-template"], "transformerParameters": {"greeting": "Hello", "count": 3, "nested": {"a": "b"}, "disableBodyFileTemplating": false}}}"#,
        ])
        #expect(try await mock.urlSession.fetch("http://localhost/hello?name=Ann").text == "Hello, Ann (3, b)")
        let refused = #expect(throws: HTTPMockError.self) {
            try Self.mock([#"{"request": {"urlPath": "/x"}, "response": {"body": "x", "transformerParameters": ["not", "an", "object"]}}"#])
        }
        #expect(refused?.message.contains("transformerParameters: expected an object") == true, "\(String(describing: refused))")
    }

    @Test("the shape of a moment: every ISO 8601 form WireMock reads, and nothing with more after it")
    func dateShapes() {
        for text in ["2026-06-14", "2026-06-14T12:00", "2026-06-14T12:00:00", "2026-06-14T12:00:00.1", "2026-06-14T12:00:00.123456789",
                     "2026-06-14T12:00:00Z", "2026-06-14T12:00:00+02:00", "2026-06-14T12:00:00-0200", "2026-06-14T12:00+02",
                     "Sun, 14 Jun 2026 12:00:00 GMT"] {
            #expect(TemplateDates.hasMomentShape(text), "\(text)")
        }
        for text in ["", "2026-06-14 ", " 2026-06-14", "2026-6-14", "2026-06-14T", "2026-06-14T12", "2026-06-14T12:00:00.",
                     "2026-06-14T12:00:00.1234567890", "2026-06-14T12:00:00ZZ", "2026-06-14T12:00:00+2", "2026-06-14T12:00:00+02:0",
                     "Sun, 14 Jun 2026 12:00:00 GMT1", "Sun, 14 Jun 2026 12:00:00", "2100-01-01T00:00:00Zjunk"] {
            #expect(!TemplateDates.hasMomentShape(text), "\(text)")
        }
    }

    @Test("global templating serves a body file that is not text unchanged, and renders one that is")
    func binaryBodyFileUnderGlobalTemplating() async throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0xFF, 0xFE, 0x7B, 0x7B, 0x00])
        let root = try WireMockBadInputTests.folder([
            "mappings/a.json": #"{"mappings": [{"request": {"urlPath": "/logo"}, "response": {"bodyFileName": "logo.png"}}, {"request": {"urlPath": "/hello"}, "response": {"bodyFileName": "hello.txt"}}]}"#,
            "__files/hello.txt": "hello {{request.path}}",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        try png.write(to: root.appendingPathComponent("__files/logo.png"))
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: root, globalTemplating: true)
        let (data, _) = try await mock.urlSession.data(from: URL(string: "http://localhost/logo")!)
        #expect(data == png)
        #expect(try await mock.urlSession.fetch("http://localhost/hello").text == "hello /hello")
    }

    @Test("jsonBody goes out as the file wrote it: keys in its order, no whitespace, numbers with a fraction or an exponent in full (as WireMock 2.35.1 sends them)")
    func jsonBodyAsWritten() async throws {
        let mock = try Self.mock([
            #"{"request": {"urlPath": "/first", "headers": {"X": {"equalTo": "]}\\\"[{"}}}, "response": {"jsonBody": [true, -1.50E+2]}}"#,
            """
            {"request": {"urlPath": "/order"}, "response": {"jsonBody": {
                "zeta": 2.0, "alpha": [1, 1e3, {"y": "a b", "x": "q\\"u"}], "mid": null }}}
            """,
        ])
        #expect(try await mock.urlSession.fetch("http://localhost/order").text == #"{"zeta":2,"alpha":[1,1000,{"y":"a b","x":"q\"u"}],"mid":null}"#)
        #expect(try await mock.urlSession.fetch("http://localhost/first", headers: ["X": #"]}\"[{"#]).text == "[true,-150]")
    }

    @Test("among equal priorities: the more specific by default; with WireMock's ranking, the most recently added")
    func rankingOfEqualPriorities() async throws {
        let root = try WireMockBadInputTests.folder([
            "mappings/1-specific.json": #"{"request": {"method": "GET", "urlPath": "/users/7"}, "response": {"body": "specific"}}"#,
            "mappings/2-broad.json": #"{"mappings": [{"request": {"urlPattern": "/users/.*"}, "response": {"body": "first broad"}}, {"request": {"urlPathPattern": "/users/[0-9]+"}, "response": {"body": "later broad"}}]}"#,
            "mappings/3-low.json": #"{"priority": 9, "request": {"urlPathPattern": "/users/.*"}, "response": {"body": "low priority"}}"#,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let specific = HTTPMock()
        try specific.loadWireMockMappings(from: root)
        #expect(try await specific.urlSession.fetch("http://localhost/users/7").text == "specific")

        let wireMock = HTTPMock()
        try wireMock.loadWireMockMappings(from: root, ranking: .mostRecentlyAdded)
        // The later file, and in it the later mapping; a lower priority (a larger number) still ranks after.
        #expect(try await wireMock.urlSession.fetch("http://localhost/users/7").text == "later broad")
        #expect(try await wireMock.urlSession.fetch("http://localhost/users/x").text == "first broad")
        // A stub added in code later, at the same priority, ranks after the mappings ranked WireMock's way.
        wireMock.addResponses(forPath: "/users/7") { MockResponse.plaintext("in code") }
        #expect(try await wireMock.urlSession.fetch("http://localhost/users/7").text == "later broad")
    }

    @Test("a text body goes out in the charset its Content-Type declares, as WireMock sends it")
    func bodyInItsCharset() async throws {
        let mock = try Self.mock([
            #"{"request": {"urlPath": "/gb"}, "response": {"body": "中文", "headers": {"Content-Type": "text/plain; charset=GB2312"}}}"#,
            #"{"request": {"urlPath": "/latin"}, "response": {"body": "café", "headers": {"content-type": "text/plain;charset=\"ISO-8859-1\""}}}"#,
            #"{"request": {"urlPath": "/utf8"}, "response": {"body": "café", "headers": {"Content-Type": "text/plain; charset=utf-8"}}}"#,
        ])
        func bytes(_ path: String) async throws -> [UInt8] {
            Array(try await mock.urlSession.data(from: URL(string: "http://localhost" + path)!).0)
        }
        #expect(try await bytes("/gb") == [0xD6, 0xD0, 0xCE, 0xC4])
        #expect(try await bytes("/latin") == [0x63, 0x61, 0x66, 0xE9])
        #expect(try await bytes("/utf8") == Array("café".utf8))
    }

    @Test("matchesJsonSchema: the body is valid against the schema, given as JSON or in a string, in WireMock's schema versions")
    func jsonSchema() async throws {
        let schema = #"{"type": "object", "required": ["name", "qty"], "properties": {"name": {"type": "string", "minLength": 1}, "qty": {"type": "integer", "minimum": 1}}, "additionalProperties": false}"#
        let mock = try Self.mock([
            #"{"request": {"method": "POST", "urlPath": "/order", "bodyPatterns": [{"matchesJsonSchema": "# + schema + #"}]}, "response": {"status": 201}}"#,
            #"{"request": {"method": "POST", "urlPath": "/v7", "bodyPatterns": [{"matchesJsonSchema": "{\"type\": \"array\", \"maxItems\": 2}", "schemaVersion": "V7"}]}, "response": {"status": 202}}"#,
            #"{"request": {"urlPath": "/q", "queryParameters": {"n": {"matchesJsonSchema": {"type": "integer", "multipleOf": 5}}}}, "response": {"status": 203}}"#,
            #"{"request": {"method": "POST", "urlPath": "/pair", "bodyPatterns": [{"matchesJsonSchema": {"prefixItems": [{"type": "string"}], "items": {"type": "integer"}}}]}, "response": {"status": 204}}"#,
            #"{"request": {"method": "POST", "urlPath": "/v4", "bodyPatterns": [{"matchesJsonSchema": {"maximum": 5, "exclusiveMaximum": true}, "schemaVersion": "V4"}]}, "response": {"status": 205}}"#,
        ])
        func post(_ path: String, _ body: String) async throws -> Int {
            try await mock.urlSession.fetch("http://localhost" + path, method: "POST", body: Data(body.utf8)).status
        }
        #expect(try await post("/order", #"{"name": "pen", "qty": 2}"#) == 201)
        #expect(try await post("/order", #"{"name": "pen", "qty": 0}"#) == 404)
        #expect(try await post("/order", #"{"name": "pen", "qty": 2, "colour": "red"}"#) == 404)
        #expect(try await post("/order", "not json") == 404)
        #expect(try await post("/v7", "[1, 2]") == 202)
        #expect(try await post("/v7", "[1, 2, 3]") == 404)
        #expect(try await mock.urlSession.fetch("http://localhost/q?n=15").status == 203)
        #expect(try await mock.urlSession.fetch("http://localhost/q?n=16").status == 404)
        // V202012, the default: 2020-12's prefixItems, and items for the rest.
        #expect(try await post("/pair", #"["a", 1, 2]"#) == 204)
        #expect(try await post("/pair", #"["a", 1, "b"]"#) == 404)
        #expect(try await post("/v4", "4") == 205)
        #expect(try await post("/v4", "5") == 404)
    }

    @Test("numbers written in quotes are read as numbers, as WireMock's JSON reader reads them")
    func quotedNumbers() async throws {
        let mock = try Self.mock([
            #"{"priority": "1", "request": {"urlPath": "/q", "port": "80"}, "response": {"status": "201", "fixedDelayMilliseconds": "1"}}"#,
        ])
        #expect(try await mock.urlSession.fetch("http://localhost/q").status == 201)
    }

    @Test("bad input in the new fields is named")
    func badInput() throws {
        func message(_ mapping: String) -> String {
            do {
                _ = try Self.mock([mapping])
                return "loaded"
            } catch {
                return (error as? HTTPMockError)?.message ?? "\(error)"
            }
        }
        #expect(message(#"{"request": {"method": {"oneOf": []}}}"#).contains("request.method.oneOf: list at least one method"))
        #expect(message(#"{"request": {"method": {"someOf": ["GET"]}}}"#).contains(#"unknown key "someOf""#))
        #expect(message(#"{"request": {"port": 0}}"#).contains("request.port: expected a whole number from 1 to 65535"))
        #expect(message(#"{"request": {"scheme": "ftp"}}"#).contains(#"request.scheme: expected "http" or "https""#))
        #expect(message(#"{"request": {"queryParameters": {"a": {"greaterThanNumber": "many"}}}}"#).contains("expected a number"))
        #expect(message(#"{"request": {"clientIp": 10}}"#).contains("request.clientIp"))
        #expect(message(#"{"request": {"bodyPatterns": [{"matchesJsonSchema": {"type": "int"}}]}}"#).contains("request.bodyPatterns[0].matchesJsonSchema: JSON schema at /type"))
        #expect(message(#"{"request": {"bodyPatterns": [{"matchesJsonSchema": {"items": [{}]}}]}}"#).contains(#""items" must be one schema in draft 2020-12, not an array; write the array as "prefixItems""#))
        #expect(message(#"{"request": {"bodyPatterns": [{"matchesJsonSchema": {}, "schemaVersion": "V3"}]}}"#).contains(#""V3" is not a schema version"#))
        #expect(message(#"{"request": {"headers": {"D": {"before": "next tuesday"}}}}"#).contains(#"request.headers.D.before: "next tuesday" is not a date and time"#))
        #expect(message(#"{"request": {"headers": {"D": {"after": "now +3 fortnights"}}}}"#).contains(#""fortnights" is not a unit of time"#))
        #expect(message(#"{"request": {"headers": {"D": {"after": "now", "truncateActual": "first week"}}}}"#).contains(#""first week" is not a truncation"#))
        #expect(message(#"{"request": {"headers": {"D": {"equalTo": "x", "actualFormat": "yyyy"}}}}"#).contains(#""actualFormat" applies to "before""#))
        #expect(message(#"{"request": {"basicAuth": {"username": "a", "password": "b"}, "basicAuthCredentials": {"username": "a", "password": "b"}}}"#)
            .contains("not both"))
    }
}
