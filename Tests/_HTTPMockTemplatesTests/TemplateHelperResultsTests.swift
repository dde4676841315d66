import Foundation
import Testing
@testable import _HTTPMockTemplates

/// What the helpers print, as WireMock 2.35.1's standalone server prints it (each case tried against it; the WireMock
/// oracle corpus keeps them equal).
@Suite struct TemplateHelperResultsTests {
    private func render(_ text: String, body: String = "") throws -> String {
        let template = try HandlebarsTemplate(text, pathNames: [:], place: "test")
        switch template.result(BodyModel(body)) {
        case .success(let rendered): return rendered
        case .failure(let problem): throw problem
        }
    }

    @Test("jsonPath filters compare numbers past a double exactly with their literals, as Jayway does")
    func jsonPathBigNumbers() throws {
        let body = #"{"items": [{"id": 12345678901234567890, "n": "big"}, {"id": 12345678901234567891, "n": "next"}, {"id": 0.10000000000000000001, "n": "long"}]}"#
        #expect(try render("{{jsonPath request.body '$.items[?(@.id == 12345678901234567890)].n'}}", body: body) == #"["big"]"#)
        #expect(try render("{{jsonPath request.body '$.items[?(@.id > 12345678901234567890)].n'}}", body: body) == #"["next"]"#)
        #expect(try render("{{jsonPath request.body '$.items[?(@.id == 0.10000000000000000001)].n'}}", body: body) == #"["long"]"#)
    }

    @Test("math: a quotient keeps the dividend's digits after the point, rounded half away from zero")
    func division() throws {
        #expect(try render("{{math 7 '/' 2}}|{{math 6 '/' 3}}|{{math -7 '/' 2}}|{{math 7 '/' -2}}|{{math 1 '/' 3}}|{{math 2 '/' 3}}|{{math 10 '/' 4}}|{{math -5 '/' 2}}|{{math 11 '/' 4}}")
            == "4|2|-4|-4|0|1|3|-3|3")
        #expect(try render("{{math 7.0 '/' 2}}|{{math 7.5 '/' 2.5}}|{{math 6.0 '/' 3}}|{{math 1.0 '/' 3}}|{{math 2 '/' 3.0}}|{{math 7 '/' 2.0}}|{{math 10 '/' 4.0}}|{{math -7.0 '/' 2}}|{{math 0.1 '/' 3}}|{{math 4.0 '/' 2.0}}")
            == "3.5|3.0|2.0|0.3|1|4|3|-3.5|0.0|2.0")
        let written = try render("{{math '9' '/' '4'}}|{{math '9.0' '/' '4'}}|{{math '9.00' '/' '4'}}|{{math 7.25 '/' 2.9}}|{{math 0.001 '/' 3}}|{{math 0.0001 '/' 3}}|{{math 1.125 '/' 1}}|{{math 0 '/' 5}}")
        #expect(written.split(separator: "|") == ["2", "2.3", "2.25", "2.5", "0.0", "3.0E-5", "1.125", "0"])
        #expect(throws: TemplateProblem.self) { try render("{{math 1.0 '/' 0}}") }
    }

    @Test("math: a decimal prints as Java prints a double, whole ones with .0")
    func decimals() throws {
        #expect(try render("{{math 2.5 '*' 2}}|{{math 7 '-' 7.0}}|{{math 5 '%' 3.0}}|{{math 4 '*' '1.5'}}|{{math 0.1 '+' 0.2}}|{{math -9223372036854775808 '/' -1}}")
            == "5.0|0.0|2.0|6.0|0.3|9.223372036854776E18")
        #expect(try render("{{math 0.000001 '*' 1}}|{{math 0.000001 '+' 0}}|{{math 0.000001 '-' 0}}|{{math 1.1 '*' 3}}|{{math 0.0001 '+' 0}}|{{math 0.001 '*' 1}}")
            == "1.0E-6|1.0E-6|1.0E-6|3.3|1.0E-4|0.001")
        #expect(TemplateNumber.javaText(of: 1e7) == "1.0E7")
        #expect(TemplateNumber.javaText(of: 1234567.5) == "1234567.5")
        #expect(TemplateNumber.javaText(of: 1.5e-7) == "1.5E-7")
        #expect(TemplateNumber.javaText(of: -0.001) == "-0.001")
        #expect(TemplateNumber.javaText(of: 1000) == "1000.0")
    }

    @Test("randomValue: letters in lower case, upper case with uppercase=true, as WireMock draws them")
    func randomValueCase() throws {
        let alphabets: [(String, String)] = [
            ("type='ALPHABETIC'", "abcdefghijklmnopqrstuvwxyz"),
            ("type='ALPHABETIC' uppercase=true", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
            ("type='ALPHANUMERIC'", "0123456789abcdefghijklmnopqrstuvwxyz"),
            ("type='ALPHANUMERIC' uppercase=true", "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
            ("type='HEXADECIMAL'", "0123456789abcdef"),
            ("type='HEXADECIMAL' uppercase=true", "0123456789ABCDEF"),
            ("type='ALPHANUMERIC_AND_SYMBOLS'", ##"!"#$%&'()*+,-./0123456789:;<=>?@[\]^_`abcdefghijklmnopqrstuvwxyz{|}"##),
            ("type='ALPHANUMERIC_AND_SYMBOLS' uppercase=true", ##"!"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\]^_`{|}"##),
        ]
        for (arguments, alphabet) in alphabets {
            let text = try render("{{{randomValue length=5000 \(arguments)}}}")
            #expect(text.count == 5000)
            // 5000 draws from at most 91 characters leave none out but with a chance below 1e-20.
            #expect(String(Set(text).sorted()) == alphabet, "\(arguments)")
        }
        let uuid = try render("{{randomValue type='UUID'}}|{{randomValue type='UUID' uppercase=true}}").split(separator: "|")
        #expect(uuid[0] == uuid[0].lowercased() && UUID(uuidString: String(uuid[0])) != nil)
        #expect(uuid[1] == uuid[1].uppercased() && UUID(uuidString: String(uuid[1])) != nil)
    }

    @Test("jsonPath: an object prints indented, in the document's order, without null members; a list compact")
    func selectedJSON() throws {
        let body = #"{"obj": {"b": 1, "a": [1, 2.0, 1e3, -0.5, null], "c": {"z": "q\"x\u00e9\n", "y": null, "x": true}, "e": {}, "f": [], "g": [{"k": 2, "j": null}]}, "arr": [{"z": 1, "b": null}, 1.5e-7, "two", [4]]}"#
        #expect(try render("{{{jsonPath request.body '$.obj'}}}", body: body) == #"""
            {
              "b" : 1,
              "a" : [ 1, 2.0, 1000.0, -0.5, null ],
              "c" : {
                "z" : "q\"xé\n",
                "x" : true
              },
              "e" : { },
              "f" : [ ],
              "g" : [ {
                "k" : 2
              } ]
            }
            """#)
        #expect(try render("{{{jsonPath request.body '$.arr'}}}|{{{jsonPath request.body '$.obj.f'}}}|{{{jsonPath request.body '$.obj.e'}}}", body: body)
            == #"[{"z":1,"b":null},1.5E-7,"two",[4]]|[]|{ }"#)
        #expect(try render("{{{jsonPath request.body '$.arr[0]'}}}|{{{jsonPath request.body '$.obj.g[*]'}}}", body: body)
            == "{\n  \"z\" : 1\n}|[{\"k\":2,\"j\":null}]")
        #expect(try render("{{jsonPath request.body '$.obj.c'}}", body: body)
            == "{\n  \"z\" : \"q\\\"xé\\n\",\n  \"x\" : true\n}")
        #expect(try render("{{#with (jsonPath request.body '$.obj')}}{{b}}-{{c.x}}{{/with}}|{{jsonPath request.body '$.obj.a[1]'}}", body: body) == "1-true|2.0")
    }

    @Test("jsonPath: a function at the end of a definite path gives one value, not a list")
    func functionOfADefinitePath() throws {
        let body = #"{"b": [1, 2], "c": {"x": 1, "y": {"x": 2}}}"#
        #expect(try render("{{jsonPath request.body '$.b.length()'}}|{{jsonPath request.body '$.b.size()'}}|{{jsonPath request.body '$.b.sum()'}}|{{jsonPath request.body '$.b.min()'}}|{{jsonPath request.body '$.b.max()'}}|{{jsonPath request.body '$.b.avg()'}}|{{jsonPath request.body '$.b.stddev()'}}|{{jsonPath request.body '$.c.length()'}}|{{jsonPath request.body '$.c.keys()'}}", body: body)
            == "2|2|3.0|1.0|2.0|1.5|0.5|2|[x, y]")
        #expect(try render("{{#if (eq (jsonPath request.body '$.b.length()') 2)}}two{{/if}}", body: body) == "two")
        // keys() in the document's order, as WireMock's JSONPath gives them.
        #expect(try render("{{jsonPath request.body '$.o.keys()'}}|{{jsonPath request.body '$.keys()'}}", body: #"{"o": {"b": 1, "a": 2, "é": 3}, "c": 1}"#) == "[b, a, é]|[o, c]")
    }

    @Test("jsonPath: an object in what it selects prints alone as Java prints a map, its lists as JSON")
    func objectsInSelectedLists() throws {
        let body = #"{"a": [{"z": 1, "b": [1, {"q": 2}]}, "s", 2.0], "o": {"z": null, "c": {"q": 2}}}"#
        #expect(try render("{{#each (jsonPath request.body '$.a')}}{{{this}}};{{/each}}|{{#each (jsonPath request.body '$.a[*]')}}{{this}};{{/each}}", body: body)
            == #"{z=1, b=[1,{"q":2}]};s;2.0;|{z=1, b=[1,{"q":2}]};s;2.0;"#)
        #expect(try render("{{{jsonPath request.body '$.a'}}}|{{{lookup (jsonPath request.body '$.o') 'c'}}}", body: body)
            == #"[{"z":1,"b":[1,{"q":2}]},"s",2.0]|{q=2}"#)
    }
}
