import Foundation
import Testing
@testable import _HTTPMockXML

/// `matchesXPath`: XPath 1.0 over request bodies, what it selects and what it refuses.
@Suite struct XPathTests {
    static let shop = """
        <shop name="corner">
          <shelf id="s1">
            <item sku="a1" price="4">pen</item>
            <item sku="b2" price="12.5">book</item>
          </shelf>
          <shelf id="s2">
            <item sku="c3" price="30">lamp</item>
          </shelf>
          <note>  open   late  </note>
        </shop>
        """

    private func select(_ expression: String, in document: String = shop,
                        namespaces: [String: String] = [:]) throws -> [String]? {
        try XPathExpression(expression, namespaces: namespaces).selects(Data(document.utf8))
    }

    private func refusal(_ expression: String, namespaces: [String: String] = [:]) -> String {
        do {
            _ = try XPathExpression(expression, namespaces: namespaces)
            return "accepted"
        } catch {
            return error.message
        }
    }

    @Test("location paths select nodes, their string values returned in document order", arguments: [
        ("/shop/shelf/item", ["pen", "book", "lamp"]),
        ("shop/shelf[2]/item", ["lamp"]),
        ("//item[@sku = 'b2']", ["book"]),
        ("//item/@price", ["4", "12.5", "30"]),
        ("/shop/@*", ["corner"]),
        ("//shelf[1]/item[last()]/text()", ["book"]),
        ("//item[. = 'lamp']/../@id", ["s2"]),
        ("/shop/*[2]/@id", ["s2"]),
        ("//item[@price > 10][1]", ["book", "lamp"]),
        ("(//item[@price > 10])[1]", ["book"]),
        ("//shelf/item[position() = 2]", ["book"]),
        ("//item[2]/preceding-sibling::item", ["pen"]),
        ("//item[1]/following-sibling::*", ["book"]),
        ("//item[@sku='c3']/ancestor::*[1]/@id", ["s2"]),
        ("//item[@sku='c3']/preceding::item", ["pen", "book"]),
        ("//shelf[@id='s1']/following::*/@sku", ["c3"]),
        ("//note | //shelf[2]/item", ["lamp", "  open   late  "]),
        ("/shop/shelf/item/self::node()[contains(., 'o')]", ["book"]),
        ("//missing", []),
        ("/", ["\n  \n    pen\n    book\n  \n  \n    lamp\n  \n    open   late  \n"]),
    ])
    func locationPaths(_ expression: String, _ expected: [String]) throws {
        #expect(try select(expression) == expected)
    }

    @Test("expressions that are not node-sets give their value; false, empty and NaN select nothing", arguments: [
        ("count(//item)", ["3"]),
        ("count(//item) = 3", ["true"]),
        ("count(//item) > 3", []),
        ("sum(//item/@price)", ["46.5"]),
        ("name(/*)", ["shop"]),
        ("local-name(//shelf[2])", ["shelf"]),
        ("string(//item[2]/@sku)", ["b2"]),
        ("concat(//item[1], '+', (//item)[3])", ["pen+lamp"]),
        ("starts-with(//item[2], 'bo')", ["true"]),
        ("string-length((//item)[3])", ["4"]),
        ("normalize-space(//note)", ["open late"]),
        ("not(//item[@price > 100])", ["true"]),
        ("true() and false()", []),
        ("false() or 1 = 1", ["true"]),
        ("number('12') + 1", ["13"]),
        ("number('twelve')", []),
        ("string(number('twelve'))", ["NaN"]),
        ("1 + 2 * 3 - 4 div 8", ["6.5"]),
        ("7 mod 3", ["1"]),
        ("-(2 - 5)", ["3"]),
        ("string(1 div 0)", ["Infinity"]),
        ("0.0000001 * 1", ["0.0000001"]),
        ("100000000000000000000", ["100000000000000000000"]),
        ("substring('12345', 1.5, 2.6)", ["234"]),
        ("substring-before('a=b', '=')", ["a"]),
        ("substring-after('a=b', '=')", ["b"]),
        ("translate('bar', 'abc', 'AB')", ["BAr"]),
        ("round(2.5)", ["3"]),
        ("floor(-1.5)", ["-2"]),
        ("ceiling(1.2)", ["2"]),
        ("boolean(//shelf)", ["true"]),
        ("string(//nothing)", []),
        ("//item[last()] = 'lamp'", ["true"]),
        ("//item != 'pen'", ["true"]),
        ("//item/@price >= 30", ["true"]),
        ("//shelf = true()", ["true"]),
    ])
    func values(_ expression: String, _ expected: [String]) throws {
        #expect(try select(expression) == expected)
    }

    @Test("prefixes select by namespace URI; unprefixed names select a local name in any namespace")
    func namespaces() throws {
        let document = """
            <stuff:outer xmlns:stuff="http://stuff.example.com" xmlns:more="http://more.example.com">
              <more:inner>111</more:inner><inner>222</inner>
            </stuff:outer>
            """
        let declared = ["s": "http://stuff.example.com", "m": "http://more.example.com"]
        #expect(try select("/s:outer/m:inner[.=111]", in: document, namespaces: declared) == ["111"])
        #expect(try select("/s:outer/m:inner", in: document, namespaces: declared) == ["111"])
        #expect(try select("/s:outer/m:*", in: document, namespaces: declared) == ["111"])
        #expect(try select("/outer/inner", in: document) == ["111", "222"])
        #expect(try select("/s:outer/s:inner", in: document, namespaces: declared) == [])
        #expect(try select("namespace-uri(/*/*[1])", in: document) == ["http://more.example.com"])
        #expect(try select("name(/*/*[1])", in: document) == ["more:inner"])
    }

    @Test("a body that is not XML selects nil")
    func notXML() throws {
        #expect(try select("//a", in: "{\"a\": 1}") == nil)
        #expect(try select("//a", in: "<a>") == nil)
    }

    @Test("node-sets keep each node's string value and, for elements, their markup")
    func nodeResults() throws {
        let root = try XMLElementNode.parse(Data(#"<a xmlns:p="urn:p"><p:b k="1">x<c/></p:b></a>"#.utf8)).get()
        guard case .nodeSet(let nodes) = try XPathExpression("//*[local-name() = 'b']").evaluate(root) else {
            Issue.record("not a node-set")
            return
        }
        #expect(nodes.map(\.kind) == [.element])
        #expect(nodes.first?.name == "p:b")
        #expect(nodes.first?.stringValue == "x")
        #expect(nodes.first?.markup == #"<p:b xmlns:p="urn:p" k="1">x<c/></p:b>"#)
        guard case .number(let count) = try XPathExpression("count(//node())").evaluate(root) else {
            Issue.record("not a number")
            return
        }
        #expect(count == 4) // a, p:b, the text, c
    }

    @Test("evaluation stops at its step budget, and then nothing matches")
    func budget() throws {
        let root = try XMLElementNode.parse(Data(("<r>" + String(repeating: "<i>1</i>", count: 200) + "</r>").utf8)).get()
        let expression = try XPathExpression("count(//i[. = //i]) > 0")
        guard case .boolean(true) = expression.evaluate(root) else {
            Issue.record("the full evaluation should hold")
            return
        }
        guard case .boolean(false) = expression.evaluate(root, stepBudget: 1_000) else {
            Issue.record("the budget should stop the evaluation")
            return
        }
    }

    @Test("what is not XPath 1.0, or not supported, is refused with the token and its position", arguments: [
        ("//item[", "unexpected end of the expression; expected a path, a number, a string or a function call, at position 8"),
        ("//item[@sku = $s]", "variables ($…) are not supported; write the value itself, at position 15"),
        ("//item/comment()", "comment() is not supported"),
        ("//x:item", "the namespace prefix \"x\" is not declared; add it to xPathNamespaces, at position 3"),
        ("/a/namespace::*", "the namespace axis is not supported"),
        ("upper-case(//a)", "upper-case() is not a function this engine has"),
        ("id('x')", "id() needs a DTD's ID attributes"),
        ("count('a')", "count() takes a node-set, but its argument is a string"),
        ("concat('a')", "concat() takes at least 2 arguments, not 1"),
        ("1 | //a", "\"|\" joins node-sets, but one side is a number"),
        ("//a b", "unexpected \"b\"; expected an operator"),
        ("//a ! 1", "\"!\" is not an operator"),
        ("'open", "the string starting here is not closed"),
        ("", "the expression is empty"),
    ])
    func refused(_ expression: String, _ message: String) {
        let refusal = refusal(expression)
        #expect(refusal.hasPrefix("matchesXPath: "))
        #expect(refusal.contains(message))
        #expect(refusal.hasSuffix("of \"\(expression)\""))
    }

    @Test("expressions longer than 4 KB, or nested too deeply, are refused")
    func bounds() {
        #expect(refusal("/a" + String(repeating: "/b", count: 2_100)).contains("the limit is 4096"))
        let deep = String(repeating: "(", count: 100) + "1" + String(repeating: ")", count: 100)
        #expect(refusal(deep).contains("deeper than 64 levels"))
    }
}
