import Foundation
import Testing
@testable import _HTTPMockXML

/// `equalToXml`: XML compared by meaning, with WireMock's placeholders and exemptions, and the reader under it.
@Suite struct XMLComparisonTests {
    private static let dollarBraces = (opening: #"\$\{"#, closing: #"\}"#)

    private func comparison(_ expected: String, placeholders: (opening: String, closing: String)? = nil,
                            exempted: Set<String> = [], ignoringOrder: Bool = false) throws -> XMLComparison {
        try XMLComparison(expected: expected, placeholders: placeholders, exempted: exempted,
                          ignoresOrderOfSameNode: ignoringOrder)
    }

    private func refusal(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "accepted"
        } catch let error as XMLPatternError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    // MARK: Equal

    @Test("whitespace between elements, attribute order, prefixes and CDATA do not matter", arguments: [
        "<things>\n  <one id=\"1\" val=\"a\"/>\n  <two>text</two>\n</things>",
        "<things><two>  text </two><one val=\"a\" id=\"1\"></one></things>",
        "<?xml version=\"1.0\"?><!-- a comment --><things><one val='a' id='1'/><two><![CDATA[text]]></two></things>",
    ])
    func equalDocuments(_ actual: String) throws {
        let expected = try comparison("<things><one id=\"1\" val=\"a\"/><two>text</two></things>")
        #expect(expected.matches(Data(actual.utf8)))
        #expect(expected.differences(Data(actual.utf8)).isEmpty)
    }

    @Test("namespaces are compared by URI, not by the prefix a document chose")
    func prefixesDoNotMatter() throws {
        let expected = try comparison(#"<s:order xmlns:s="urn:shop"><s:item s:sku="7">pen</s:item></s:order>"#)
        #expect(expected.matches(Data(#"<order xmlns="urn:shop"><item xmlns:x="urn:shop" x:sku="7">pen</item></order>"#.utf8)))
        #expect(expected.matches(Data(#"<p:order xmlns:p="urn:shop"><p:item p:sku="7">pen</p:item></p:order>"#.utf8)))
        #expect(!expected.matches(Data(#"<p:order xmlns:p="urn:other"><p:item p:sku="7">pen</p:item></p:order>"#.utf8)))
        #expect(!expected.matches(Data(#"<order><item sku="7">pen</item></order>"#.utf8)))
    }

    // MARK: Different

    @Test("real differences are differences, each reported where it is", arguments: [
        ("<a><b id=\"1\">x</b></a>", "/a/b/text(): expected \"y\" but was \"x\""),
        ("<a><b id=\"2\">y</b></a>", "/a/b/@id: expected \"1\" but was \"2\""),
        ("<a><b>y</b></a>", "/a/b/@id: missing"),
        ("<a><b id=\"1\" extra=\"e\">y</b></a>", "/a/b/@extra: unexpected attribute (value \"e\")"),
        ("<a><b id=\"1\">y</b><c/></a>", "/a: unexpected element <c>"),
        ("<a/>", "/a/b: missing (the element <b>)"),
        ("<z><b id=\"1\">y</b></z>", "/a: expected the element <a> but was <z>"),
        ("<a xmlns=\"urn:x\"><b id=\"1\">y</b></a>", "/a: expected the element in no namespace but it is in the namespace \"urn:x\""),
    ])
    func differences(_ actual: String, _ difference: String) throws {
        let expected = try comparison("<a><b id=\"1\">y</b></a>")
        #expect(!expected.matches(Data(actual.utf8)))
        #expect(expected.differences(Data(actual.utf8)).contains(difference))
    }

    @Test("a body that is not XML does not match, and the report says where it breaks")
    func notXML() throws {
        let expected = try comparison("<a/>")
        #expect(!expected.matches(Data("{\"a\": 1}".utf8)))
        #expect(!expected.matches(Data()))
        let report = expected.differences(Data("<a>\n<b></a>".utf8))
        #expect(report.count == 1)
        #expect(report.first?.hasPrefix("the body is not well-formed XML: line 2") == true)
    }

    @Test("elements with the same name are compared in order, unless ignoreOrderOfSameNode")
    func orderOfSameNode() throws {
        let swapped = Data("<body><entry>2</entry><entry>1</entry></body>".utf8)
        let ordered = try comparison("<body><entry>1</entry><entry>2</entry></body>")
        #expect(!ordered.matches(swapped))
        #expect(ordered.differences(swapped).contains("/body/entry[1]/text(): expected \"1\" but was \"2\""))
        let unordered = try comparison("<body><entry>1</entry><entry>2</entry></body>", ignoringOrder: true)
        #expect(unordered.matches(swapped))
        #expect(!unordered.matches(Data("<body><entry>2</entry><entry>3</entry></body>".utf8)))
        #expect(!unordered.matches(Data("<body><entry>1</entry></body>".utf8)))
        // Elements with different names may always come in any order.
        #expect(ordered.matches(Data("<body><entry>1</entry><entry>2</entry></body>".utf8)))
        #expect(try comparison("<r><a/><b/></r>").matches(Data("<r><b/><a/></r>".utf8)))
    }

    @Test("in any order, each expected node finds its own match, even when a greedy pairing would not")
    func unorderedPairingIsComplete() throws {
        let expected = try comparison("<r><n>${xmlunit.ignore}</n><n>1</n></r>", placeholders: Self.dollarBraces,
                                      ignoringOrder: true)
        #expect(expected.matches(Data("<r><n>1</n><n>2</n></r>".utf8)))
        #expect(!expected.matches(Data("<r><n>2</n><n>3</n></r>".utf8)))
    }

    @Test("in any order, long lists of identical elements pair in linear time; costly pairings stop at the budget")
    func unorderedCost() throws {
        let items = (0..<3_000).map { "<item id=\"\($0)\"><name>n\($0)</name></item>" }
        let expected = try comparison("<r>" + items.joined() + "</r>", ignoringOrder: true)
        #expect(expected.matches(Data(("<r>" + items.reversed().joined() + "</r>").utf8)))
        // 300 × 300 trial pairings: over a budget of 10,000 steps.
        var numbers = try comparison("<r>" + String(repeating: "<n>${xmlunit.isNumber}</n>", count: 300) + "</r>",
                                     placeholders: Self.dollarBraces, ignoringOrder: true)
        numbers.budget = 10_000
        let words = Data(("<r>" + String(repeating: "<n>x</n>", count: 300) + "</r>").utf8)
        #expect(!numbers.matches(words))
        #expect(numbers.differences(words).last?.hasPrefix("the comparison was stopped after 10000 steps") == true)
    }

    // MARK: Placeholders

    @Test("${xmlunit.ignore} accepts any text or attribute value, and ${xmlunit.isNumber} a number")
    func placeholders() throws {
        let expected = try comparison(
            #"<message when="${xmlunit.ignore}"><id>${xmlunit.ignore}</id><n>${xmlunit.isNumber}</n><c>Hello</c></message>"#,
            placeholders: Self.dollarBraces)
        #expect(expected.matches(Data(#"<message when="now"><id>123456</id><n>-12.5</n><c>Hello</c></message>"#.utf8)))
        #expect(expected.matches(Data(#"<message><id/><n> 7 </n><c>Hello</c></message>"#.utf8)))
        #expect(!expected.matches(Data(#"<message><id>1</id><n>seven</n><c>Hello</c></message>"#.utf8)))
        #expect(!expected.matches(Data(#"<message><id>1</id><n>7</n><c>Bye</c></message>"#.utf8)))
        #expect(expected.differences(Data(#"<message><id>1</id><n>1e3x</n><c>Hello</c></message>"#.utf8))
            == ["/message/n/text(): expected a number but was \"1e3x\""])
    }

    @Test("placeholders are plain text unless enabled, and custom delimiters are regular expressions")
    func placeholderDelimiters() throws {
        let off = try comparison("<m><id>${xmlunit.ignore}</id></m>")
        #expect(!off.matches(Data("<m><id>5</id></m>".utf8)))
        #expect(off.matches(Data("<m><id>${xmlunit.ignore}</id></m>".utf8)))
        let brackets = try comparison("<m><id>[[xmlunit.ignore]]</id><c>${xmlunit.ignore}</c></m>",
                                      placeholders: (opening: #"\[\["#, closing: "]]"))
        #expect(brackets.matches(Data("<m><id>5</id><c>${xmlunit.ignore}</c></m>".utf8)))
        #expect(!brackets.matches(Data("<m><id>5</id><c>6</c></m>".utf8)))
    }

    @Test("xmlunit.matchesRegex(…) needs a match anywhere in the value, as WireMock 2.35.1 answered; read as Java reads it")
    func regexPlaceholder() throws {
        let expected = try comparison("<m><code>${xmlunit.matchesRegex([A-Z]{3}-[0-9]+)}</code></m>",
                                      placeholders: Self.dollarBraces)
        #expect(expected.matches(Data("<m><code>ABC-42</code></m>".utf8)))
        #expect(expected.matches(Data("<m><code>xABC-42</code></m>".utf8)))
        #expect(!expected.matches(Data("<m><code>abc-42</code></m>".utf8)))
        let digits = try comparison("<m><n>${xmlunit.matchesRegex(^\\d+$)}</n></m>", placeholders: Self.dollarBraces)
        #expect(digits.matches(Data("<m><n>42</n></m>".utf8)))
        #expect(!digits.matches(Data("<m><n>٤٢</n></m>".utf8)), "\\d is ASCII for Java")
    }

    @Test("placeholders this comparison does not know are refused by name")
    func unknownPlaceholder() {
        let message = refusal {
            _ = try comparison("<m><d>${xmlunit.isDateTime}</d></m>", placeholders: Self.dollarBraces)
        }
        #expect(message.contains("xmlunit.isDateTime"))
        #expect(message.contains("/m/d/text()"))
        #expect(refusal { _ = try comparison("<m/>", placeholders: (opening: "[", closing: "]")) }
            .contains("placeholderOpeningDelimiterRegex \"[\" is not a valid regular expression"))
    }

    // MARK: Exemptions

    @Test("exempted comparisons are not made")
    func exemptions() throws {
        let text = try comparison("<a><b>1</b></a>", exempted: ["TEXT_VALUE"])
        #expect(text.matches(Data("<a><b>2</b></a>".utf8)))
        #expect(!text.matches(Data("<a><c>1</c></a>".utf8)))

        let attribute = try comparison(#"<a id="1"/>"#, exempted: ["ATTR_VALUE"])
        #expect(attribute.matches(Data(#"<a id="2"/>"#.utf8)))
        #expect(!attribute.matches(Data("<a/>".utf8)))

        let names = try comparison("<thing>Hello</thing>", exempted: ["NAMESPACE_URI", "ELEMENT_TAG_NAME"])
        #expect(names.matches(Data(#"<other xmlns="urn:x">Hello</other>"#.utf8)))
        #expect(!names.matches(Data("<other>Bye</other>".utf8)))

        let schema = #"<a xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="urn:a a.xsd"/>"#
        let moved = #"<a xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="urn:a b.xsd"/>"#
        #expect(!(try comparison(schema)).matches(Data(moved.utf8)))
        #expect(try comparison(schema, exempted: ["SCHEMA_LOCATION"]).matches(Data(moved.utf8)))
    }

    @Test("CHILD_LOOKUP with CHILD_NODELIST_LENGTH lets the body have more children; alone it still counts them")
    func childExemptions() throws {
        let body = Data("<a><b>1</b><extra/></a>".utf8)
        #expect(!(try comparison("<a><b>1</b></a>")).matches(body))
        #expect(!(try comparison("<a><b>1</b></a>", exempted: ["CHILD_LOOKUP"])).matches(body))
        #expect(try comparison("<a><b>1</b></a>", exempted: ["CHILD_LOOKUP"]).differences(body)
            == ["/a: expected 1 child nodes but found 2"])
        #expect(try comparison("<a><b>1</b></a>", exempted: ["CHILD_LOOKUP", "CHILD_NODELIST_LENGTH"]).matches(body))
        // The children that are there are still compared.
        #expect(!(try comparison("<a><b>1</b></a>", exempted: ["CHILD_LOOKUP", "CHILD_NODELIST_LENGTH"]))
            .matches(Data("<a><b>2</b><extra/></a>".utf8)))
    }

    @Test("ATTR_NAME_LOOKUP with ELEMENT_NUM_ATTRIBUTES lets the body have other attributes")
    func attributeExemptions() throws {
        let body = Data(#"<a id="1" extra="x"/>"#.utf8)
        #expect(!(try comparison(#"<a id="1"/>"#, exempted: ["ATTR_NAME_LOOKUP"])).matches(body))
        #expect(try comparison(#"<a id="1"/>"#, exempted: ["ATTR_NAME_LOOKUP", "ELEMENT_NUM_ATTRIBUTES"]).matches(body))
        #expect(!(try comparison(#"<a id="1"/>"#, exempted: ["ATTR_NAME_LOOKUP", "ELEMENT_NUM_ATTRIBUTES"]))
            .matches(Data(#"<a id="2"/>"#.utf8)))
    }

    @Test("exemptions that cannot be honoured, and names that are not comparison types, are refused by name")
    func refusedExemptions() throws {
        #expect(refusal { _ = try comparison("<a/>", exempted: ["NODE_TYPE"]) }.contains("NODE_TYPE cannot be exempted"))
        let unknown = refusal { _ = try comparison("<a/>", exempted: ["TEXT"]) }
        #expect(unknown.contains("\"TEXT\" in exemptedComparisons is not a comparison type"))
        #expect(unknown.contains("TEXT_VALUE"))
        #expect(refusal { _ = try comparison("<a/>", exempted: ["text_value"]) }.contains("(write it in capitals)"))
        // What is never compared may be exempted: WireMock stubs that list it load.
        _ = try comparison("<a/>", exempted: ["NAMESPACE_PREFIX", "CHILD_NODELIST_SEQUENCE", "XML_VERSION"])
    }

    @Test("an expected document that is not XML is refused with where and what")
    func invalidExpected() {
        let message = refusal { _ = try comparison("<a>\n  <b>x & y</b>\n</a>") }
        #expect(message.hasPrefix("equalToXml: the expected document is not well-formed XML at line 2"))
        #expect(message.contains("&amp;"))
    }

    // MARK: Reading XML

    @Test("the reader resolves namespaces, joins text and CDATA, and keeps attributes apart from declarations")
    func parsedTree() throws {
        let text = #"<p:a xmlns:p="urn:p" xmlns="urn:d" p:x="1" y="2"><b>one <![CDATA[<two>]]> three</b></p:a>"#
        let root = try XMLElementNode.parse(Data(text.utf8)).get()
        #expect(root.name == "a" && root.prefix == "p" && root.namespaceURI == "urn:p")
        #expect(root.attributes.map(\.qualifiedName).sorted() == ["p:x", "y"])
        #expect(root.attributes.first { $0.name == "x" }?.namespaceURI == "urn:p")
        #expect(root.attributes.first { $0.name == "y" }?.namespaceURI == nil)
        guard case .element(let b)? = root.children.first else {
            Issue.record("no child element")
            return
        }
        #expect(b.namespaceURI == "urn:d")
        #expect(b.children == [.text("one <two> three")])
        // Written back, it reads as the same tree.
        #expect(try XMLElementNode.parse(Data(root.markup.utf8)).get() == root)
    }

    @Test("a prefix that is not declared is refused")
    func undeclaredPrefix() {
        guard case .failure(let problem) = XMLElementNode.parse(Data("<a><x:b/></a>".utf8)) else {
            Issue.record("accepted")
            return
        }
        #expect(problem.message.contains("namespace prefix") && problem.message.contains("not declared"))
        #expect(problem.line == 1)
    }

    @Test("a DOCTYPE that declares entities is refused before anything expands", arguments: [
        "<!DOCTYPE a [<!ENTITY e \"boom\">]><a>&e;</a>",
        "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n <!ENTITY lol2 \"&lol;&lol;&lol;\">\n]>\n<lolz>&lol2;</lolz>",
        "<!DOCTYPE a [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]><a>&xxe;</a>",
        "<!DOCTYPE a [<!ENTITY % p \"x\"> %p;]><a/>",
    ])
    func entitiesRefused(_ document: String) throws {
        guard case .failure(let problem) = XMLElementNode.parse(Data(document.utf8)) else {
            Issue.record("accepted")
            return
        }
        #expect(problem.message.contains("entities"))
        #expect(!(try comparison("<a>boom</a>")).matches(Data(document.utf8)))
    }

    @Test("UTF-16 documents are read, and their DOCTYPE is scanned for entities too")
    func utf16() throws {
        func utf16(_ text: String) -> Data { Data([0xFF, 0xFE]) + text.data(using: .utf16LittleEndian)! }
        #expect(try comparison("<a>é</a>").matches(utf16("<?xml version=\"1.0\" encoding=\"UTF-16\"?><a>é</a>")))
        guard case .failure(let problem) = XMLElementNode.parse(utf16("<!DOCTYPE a [<!ENTITY e \"x\">]><a>&e;</a>")) else {
            Issue.record("accepted")
            return
        }
        #expect(problem.message.contains("entities"))
    }

    @Test("a DOCTYPE without entity declarations is read; an entity it does not declare is an error")
    func plainDoctype() {
        #expect((try? XMLElementNode.parse(Data("<!DOCTYPE a [<!-- <!ENTITY no> -->]><a>ok</a>".utf8)).get())?.stringValue == "ok")
        guard case .failure(let problem) = XMLElementNode.parse(Data("<a>&nbsp;</a>".utf8)) else {
            Issue.record("accepted")
            return
        }
        #expect(problem.message.contains("undeclared entity"))
    }

    @Test("documents nested deeper than 256 elements are refused")
    func depth() {
        func nested(_ depth: Int) -> Data {
            Data((String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)).utf8)
        }
        #expect((try? XMLElementNode.parse(nested(XMLElementNode.maximumDepth)).get()) != nil)
        guard case .failure(let problem) = XMLElementNode.parse(nested(XMLElementNode.maximumDepth + 1)) else {
            Issue.record("accepted")
            return
        }
        #expect(problem.message == "elements are nested deeper than 256 levels")
    }

    @Test("malformed documents are refused with line and column", arguments: [
        ("<a>\n<b></a>", 2, "an end tag does not match the start tag it closes"),
        ("<a/><b/>", 1, "there is more after the root element ends (one root element only)"),
        ("", 1, "the document has no root element"),
        ("<a b=\"1\" b=\"2\"/>", 1, "an attribute is written twice on one element"),
    ])
    func malformed(_ document: String, _ line: Int, _ message: String) {
        guard case .failure(let problem) = XMLElementNode.parse(Data(document.utf8)) else {
            Issue.record("accepted")
            return
        }
        #expect(problem.line == line)
        #expect(problem.column >= 1)
        #expect(problem.message.hasPrefix(message))
    }
}
