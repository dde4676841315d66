import Foundation
import Testing
@testable import _HTTPMockTemplates

/// Helpers that came with WireMock 3 (WireMock 2.35.1, the oracle run in CI, has none of them): what they print, as
/// WireMock 3's helpers print it.
@Suite struct TemplateWireMock3HelpersTests {
    private func render(_ text: String, body: String = "") throws -> String {
        let template = try HandlebarsTemplate(text, pathNames: [:], place: "test")
        switch template.result(BodyModel(body)) {
        case .success(let rendered): return rendered
        case .failure(let problem): throw problem
        }
    }

    @Test("toJson of no value prints nothing, not null")
    func toJsonOfNothing() throws {
        #expect(try render("[{{toJson missing}}]|{{toJson (array 1 2)}}") == "[]|[ 1, 2 ]")
    }

    @Test("arrayJoin: the first argument's items when it is a list, else the arguments; nothing to join prints nothing; a block gets each item without an @index; WireMock's errors")
    func arrayJoin() throws {
        #expect(try render("[{{arrayJoin ',' (array) prefix='(' suffix=')'}}]") == "[]")
        #expect(try render("{{arrayJoin ',' (array 'a' 'b') 'c'}}") == "a,b")
        #expect(try render("{{arrayJoin ',' 'a' (array 'b' 'c')}}") == "a,[b, c]")
        #expect(try render("{{arrayJoin ' - ' 'a' 'b' 'c'}}|{{arrayJoin ',' (array 1 2) prefix='(' suffix=')'}}") == "a - b - c|(1,2)")
        // WireMock's errors in place: a separator that is not text, nothing after it; an item that is no value fails.
        #expect(try render("{{arrayJoin ','}}|{{arrayJoin ',' missing prefix='(' suffix=')'}}|{{arrayJoin 1 'a' 'b'}}")
            == "[ERROR: The parameter must be list]|[ERROR: The parameter must be list]|[ERROR: Separator parameter must be a String]")
        #expect(throws: TemplateProblem.self) { try render("{{arrayJoin ',' 'a' missing}}") }
        #expect(try render("{{#arrayJoin ',' (array 1 2) as |n|}}<{{n}}{{@index}}>{{/arrayJoin}}") == "<1>,<2>")
    }

    @Test("arrayAdd to no list gives the empty list; position start and end in any case")
    func arrayPositions() throws {
        #expect(try render("{{arrayAdd missing 'x'}}") == "[]")
        #expect(try render("{{arrayAdd (array 1 2) 0 position='START'}}|{{arrayAdd (array 1 2) 3 position='End'}}") == "[0, 1, 2]|[1, 2, 3]")
        #expect(try render("{{arrayRemove (array 1 2 3) position='Start'}}|{{arrayRemove (array 1 2 3) position='END'}}") == "[2, 3]|[1, 2]")
    }

    @Test("parseJson of no value or of a blank text is an empty map; no value assigns nothing")
    func parseJsonOfNothing() throws {
        #expect(try render("{{parseJson missing}}|{{parseJson '  '}}|{{parseJson ''}}|{{parseJson '\u{1}\u{1F} \u{0}'}}") == "{}|{}|{}|{}")
        #expect(try render("{{parseJson '' 'v'}}{{v}}|{{parseJson missing 'w'}}[{{w}}]") == "{}|{}[]")
        #expect(try render("{{parseJson '{\"a\": 1}' 'o'}}{{o.a}}") == "1")
    }

    @Test("jsonArrayAdd writes as Jackson does: slashes and characters past ASCII as they are, plain decimals, no null members")
    func jsonArrayAddText() throws {
        #expect(try render("{{jsonArrayAdd '[\"a/b\"]' '\"c\u{2013}d\"'}}") == "[\"a/b\",\"c\u{2013}d\"]")
        #expect(try render("{{jsonArrayAdd '[1e2, 1.50]' '3'}}") == "[100,1.50,3]")
        #expect(try render("{{jsonArrayAdd '[{\"a\": null, \"b\": 1}]' '{\"c\": null}'}}") == "[{\"b\":1},{}]")
        #expect(try render("{{size (jsonArrayAdd '[1]' '2')}}") == "5")
    }

    @Test("toJson leaves out members whose value is null, as WireMock's Jackson writes a map; lists keep their nulls")
    func toJsonOmitsNullMembers() throws {
        #expect(try render("{{toJson (parseJson '{\"a\": null, \"b\": 1, \"c\": [null, 2]}')}}") == "{\n  \"b\" : 1,\n  \"c\" : [ null, 2 ]\n}")
    }

    @Test("formatJson: compact prints decimals as Java does (1E+2, 1E-7), pretty without an exponent; both keep null members")
    func formatJsonNumbers() throws {
        let json = "{\"a\": 1e2, \"b\": 1E-7, \"c\": 0.0000001, \"d\": 1.50, \"e\": 100, \"f\": null}"
        #expect(try render("{{formatJson '\(json)' format='compact'}}") == "{\"a\":1E+2,\"b\":1E-7,\"c\":1E-7,\"d\":1.50,\"e\":100,\"f\":null}")
        #expect(try render("{{formatJson '{\"a\": 1e2, \"f\": null}'}}") == "{\n  \"a\" : 100,\n  \"f\" : null\n}")
    }

    @Test("jsonMerge gives text: compact, null members kept, and jsonPath reads it again as a document")
    func jsonMergeText() throws {
        #expect(try render("{{jsonMerge '{\"a\": [1, 2], \"n\": 1}' '{\"n\": null, \"b\": 1e2}'}}") == "{\"a\":[1,2],\"n\":null,\"b\":100}")
        #expect(try render("{{size (jsonMerge '{\"a\": 1}' '{}')}}|{{jsonPath (jsonMerge '{\"a\": [1, 2]}' '{}') '$.a'}}") == "7|[1,2]")
    }

    @Test("jsonRemove takes out what its JSONPath selects and writes the rest as Jackson does; a path that selects nothing leaves the text as it was")
    func jsonRemove() throws {
        let body = #"{ "id": 1, "secret": "x", "n": null, "s": "a/b–c", "d": 1.50, "items": [{"k": 1}, {"k": 2, "drop": true}, {"k": 3}] }"#
        func remove(_ path: String, _ text: String = body) throws -> String {
            try render("{{jsonRemove request.body \"\(path)\"}}", body: text)
        }
        #expect(try remove("$.secret") == #"{"id":1,"s":"a/b–c","d":1.50,"items":[{"k":1},{"k":2,"drop":true},{"k":3}]}"#)
        #expect(try remove("$.items[?(@.drop)]") == #"{"id":1,"secret":"x","s":"a/b–c","d":1.50,"items":[{"k":1},{"k":3}]}"#)
        #expect(try remove("$..k") == #"{"id":1,"secret":"x","s":"a/b–c","d":1.50,"items":[{},{"drop":true},{}]}"#)
        #expect(try remove("$.items[0,2]") == #"{"id":1,"secret":"x","s":"a/b–c","d":1.50,"items":[{"k":2,"drop":true}]}"#)
        #expect(try remove("$['id','secret','none']") == #"{"s":"a/b–c","d":1.50,"items":[{"k":1},{"k":2,"drop":true},{"k":3}]}"#)
        #expect(try remove("$.items.length()") == #"{"id":1,"secret":"x","s":"a/b–c","d":1.50}"#)
        // Nothing selected: the text as it was, spaces and nulls and all.
        for path in ["$.none.deeper", "$.items[7]", "$.items[?(@.k > 5)]", "$.items[*].none.deeper", "$.id[0]"] {
            #expect(try remove(path) == body, "\(path)")
        }
        // A member missing at the end is selected as null, as Jayway selects it: nothing taken out, the rest written again.
        #expect(try remove("$.missing", #"{ "a" : 1, "b": null }"#) == #"{"a":1}"#)
        #expect(try remove("$", "null") == "null")
    }

    @Test("jsonRemove takes the elements of a list from the highest index down, each at its index at the time, as Jayway does")
    func jsonRemoveIndices() throws {
        func remove(_ path: String, _ text: String) throws -> String {
            try render("{{jsonRemove request.body '\(path)'}}", body: text)
        }
        #expect(try remove("$[0,0]", "[1, 2, 3]") == "[3]")
        #expect(try remove("$[1,0,1]", "[1, 2, 3, 4]") == "[4]")
        #expect(try remove("$[*]", "[1, 2, 3]") == "[]")
        #expect(try remove("$[1:]", "[1, 2, 3]") == "[1]")
        #expect(try remove("$[:2]", "[1, 2, 3]") == "[3]")
        #expect(try remove("$[-2:]", "[1, 2, 3]") == "[1]")
        // Taking out an element and something inside a later one: each from the element it was selected in.
        #expect(try remove("$..[?(@.drop)]", #"{"a": [{"drop": 1}, {"x": {"drop": 1, "y": 2}}, {"y": 3}]}"#) == #"{"a":[{},{"y":3}]}"#)
        // More than the list holds: WireMock fails (a 500); so does the template here.
        #expect(throws: TemplateProblem.self) { try remove("$[0,0]", "[1]") }
    }

    @Test("jsonRemove prints WireMock's errors in place; a negative index is refused when the template is read, and when a path is built")
    func jsonRemoveErrors() throws {
        #expect(try render("{{jsonRemove request.body '$'}}", body: #"{"a": 1}"#) == "[ERROR: Delete operation cannot be applied to JSONPath expression ('$')]")
        #expect(try render("{{jsonRemove request.body '$[?(@.a)]'}}", body: #"{"a": 1}"#) == "[ERROR: Delete operation cannot be applied to JSONPath expression ('$[?(@.a)]')]")
        #expect(try render("{{jsonRemove (parseJson request.body) '$.a'}}", body: #"{"a": 1}"#) == "[ERROR: Input JSON must be a string]")
        #expect(try render("{{jsonRemove request.body '$.a'}}", body: "{x") == "[ERROR: Input JSON string is not valid JSON ('{x')]")
        #expect(try render("{{#assign 'p'}}$[{{/assign}}{{jsonRemove request.body p}}", body: "[1]") == "[ERROR: JSONPath parameter is not a valid JSONPath expression ('$[')]")
        for path in ["$[-1]", "$.a[0,-1]", "$[-3:-1]", "$[0:-1]", "$..[-1]"] {
            #expect("\(path)", performing: { try HandlebarsTemplate("{{jsonRemove request.body '\(path)'}}", pathNames: [:], place: "test") },
                    throws: { "\($0)".contains("WireMock fails on a negative index") })
        }
        #expect(throws: TemplateProblem.self) { try render("{{#assign 'p'}}$[-1]{{/assign}}{{jsonRemove request.body p}}", body: "[1]") }
    }

    @Test("jsonRemove of a definite path to any place of a generated document takes out that place alone (HTTPMOCK_TEMPLATE_SEED replays a run)")
    func jsonRemoveGenerated() throws {
        let seed = SplitMix64.seed
        var random = SplitMix64(seed: seed)
        func document(_ depth: Int) -> Any {
            switch depth > 3 ? random.next() % 3 : random.next() % 5 {
            case 0: return Int(random.next() % 100)
            case 1: return ["a\"b", "x/y", "é", "", "\u{1}"][Int(random.next() % 5)]
            case 2: return random.next() % 2 == 0
            case 3: return (0..<Int(random.next() % 4)).map { _ in document(depth + 1) }
            default:
                var object: [String: Any] = [:]
                for _ in 0..<Int(random.next() % 4) { object[["k", "a b", "x.y", "é"][Int(random.next() % 4)] + String(random.next() % 3)] = document(depth + 1) }
                return object
            }
        }
        for index in 0..<40 {
            var root: Any = document(0)
            if !(root is [Any] || root is [String: Any]) { root = ["v": root] }
            // A place: walk down at random.
            var path = "$", steps: [Any] = [], current = root
            while true {
                if let object = current as? [String: Any], !object.isEmpty, random.next() % 4 != 0 {
                    let key = object.keys.sorted()[Int(random.next() % UInt64(object.count))]
                    path += "['\(key)']"; steps.append(key); current = object[key]!
                } else if let list = current as? [Any], !list.isEmpty, random.next() % 4 != 0 {
                    let at = Int(random.next() % UInt64(list.count))
                    path += "[\(at)]"; steps.append(at); current = list[at]
                } else { break }
            }
            guard !steps.isEmpty else { continue }
            func removing(_ value: Any, _ steps: ArraySlice<Any>) -> Any {
                guard let first = steps.first else { return value }
                if var object = value as? [String: Any], let key = first as? String {
                    object[key] = steps.count == 1 ? nil : removing(object[key]!, steps.dropFirst())
                    return object
                }
                var list = value as! [Any]
                let at = first as! Int
                if steps.count == 1 { list.remove(at: at) } else { list[at] = removing(list[at], steps.dropFirst()) }
                return list
            }
            let text = String(decoding: try JSONSerialization.data(withJSONObject: root), as: UTF8.self)
            let rendered = try render("{{jsonRemove request.body \"\(path)\"}}", body: text)
            let got = try JSONSerialization.jsonObject(with: Data(rendered.utf8)) as? NSObject
            let expected = removing(root, steps[...]) as? NSObject
            #expect(got != nil && got == expected, "seed \(seed), case \(index): \(path) of \(text) gave \(rendered)")
        }
    }

    @Test("jsonRemove's work is bounded: taking out every element of a long list stops at the step budget with a problem")
    func jsonRemoveBounded() throws {
        let long = "[" + Array(repeating: "0", count: 700_000).joined(separator: ",") + "]"
        #expect(throws: TemplateProblem.self) { try render("{{jsonRemove request.body '$[*]'}}", body: long) }
        #expect(try render("{{jsonRemove request.body '$[1:]'}}", body: "[" + Array(repeating: "0", count: 2_000).joined(separator: ",") + "]") == "[0]")
    }
}
