import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
@testable import HTTPMock

/// `equalToXml` and `matchesXPath` in WireMock mappings, through a real URLSession, with the answers WireMock's
/// documentation gives.
@Suite struct WireMockXMLPatternsTests {
    static func post(_ mock: HTTPMock, _ path: String, _ xml: String) async throws -> Int {
        try await mock.urlSession.fetch("http://localhost" + path, method: "POST", headers: ["Content-Type": "application/xml"],
                                        body: Data(xml.utf8)).status
    }

    @Test("equalToXml ignores whitespace, attribute order and prefixes; placeholders and exemptions as WireMock reads them")
    func equalToXml() async throws {
        let mock = try WireMockMorePatternsTests.mock([
            #"{"request": {"method": "POST", "urlPath": "/order", "bodyPatterns": [{"equalToXml": "<order id=\"7\" kind=\"a\"><item>pen</item></order>"}]}, "response": {"status": 201}}"#,
            #"{"request": {"method": "POST", "urlPath": "/any-date", "bodyPatterns": [{"equalToXml": "<stamp><at>${xmlunit.ignore}</at><n>${xmlunit.isNumber}</n></stamp>", "enablePlaceholders": true}]}, "response": {"status": 202}}"#,
            #"{"request": {"method": "POST", "urlPath": "/names", "bodyPatterns": [{"equalToXml": "<a><b>1</b><b>2</b></a>", "ignoreOrderOfSameNode": true}]}, "response": {"status": 203}}"#,
        ])
        #expect(try await Self.post(mock, "/order", "<order kind='a'  id='7'>\n  <item>pen</item>\n</order>") == 201)
        #expect(try await Self.post(mock, "/order", #"<o:order xmlns:o="urn:x" id="7" kind="a"><o:item>pen</o:item></o:order>"#) == 404)
        #expect(try await Self.post(mock, "/order", #"<order id="7" kind="a"><item>pencil</item></order>"#) == 404)
        #expect(try await Self.post(mock, "/order", "not xml") == 404)
        #expect(try await Self.post(mock, "/any-date", "<stamp><at>2026-11-26</at><n>12.5</n></stamp>") == 202)
        #expect(try await Self.post(mock, "/any-date", "<stamp><at>now</at><n>twelve</n></stamp>") == 404)
        #expect(try await Self.post(mock, "/names", "<a><b>2</b><b>1</b></a>") == 203)
    }

    @Test("matchesXPath selects something, or something that meets the pattern beside it, with the namespaces named")
    func matchesXPath() async throws {
        let mock = try WireMockMorePatternsTests.mock([
            #"{"request": {"method": "POST", "urlPath": "/x", "bodyPatterns": [{"matchesXPath": "/todo-list[count(todo-item) = 2]"}]}, "response": {"status": 201}}"#,
            #"{"request": {"method": "POST", "urlPath": "/y", "bodyPatterns": [{"matchesXPath": {"expression": "//item/@sku", "matches": "AB-[0-9]+"}}]}, "response": {"status": 202}}"#,
            #"{"request": {"method": "POST", "urlPath": "/z", "bodyPatterns": [{"matchesXPath": "//s:Body/m:Ping", "xPathNamespaces": {"s": "http://schemas.xmlsoap.org/soap/envelope/", "m": "urn:ping"}}]}, "response": {"status": 203}}"#,
        ])
        #expect(try await Self.post(mock, "/x", "<todo-list><todo-item/><todo-item/></todo-list>") == 201)
        #expect(try await Self.post(mock, "/x", "<todo-list><todo-item/></todo-list>") == 404)
        #expect(try await Self.post(mock, "/y", #"<cart><item sku="AB-12"/></cart>"#) == 202)
        #expect(try await Self.post(mock, "/y", #"<cart><item sku="CD-12"/></cart>"#) == 404)
        let soap = #"<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><e:Body><p:Ping xmlns:p="urn:ping"/></e:Body></e:Envelope>"#
        #expect(try await Self.post(mock, "/z", soap) == 203)
        #expect(try await Self.post(mock, "/z", soap.replacingOccurrences(of: "urn:ping", with: "urn:pong")) == 404)
    }

    @Test("the pattern beside a matchesXPath expression is given an element as WireMock prints it, a text or attribute as its value")
    func matchesXPathGivesElementsAsXML() async throws {
        let mock = try WireMockMorePatternsTests.mock([
            #"{"request": {"method": "POST", "urlPath": "/element", "bodyPatterns": [{"matchesXPath": {"expression": "//a", "equalTo": "1"}}]}, "response": {"status": 201}}"#,
            #"{"request": {"method": "POST", "urlPath": "/printed", "bodyPatterns": [{"matchesXPath": {"expression": "//a", "equalTo": "<a>\n  <b>1</b>\n</a>\n"}}]}, "response": {"status": 202}}"#,
            #"{"request": {"method": "POST", "urlPath": "/text", "bodyPatterns": [{"matchesXPath": {"expression": "//a/text()", "equalTo": "1"}}]}, "response": {"status": 203}}"#,
            #"{"request": {"method": "POST", "urlPath": "/xml", "bodyPatterns": [{"matchesXPath": {"expression": "/r", "equalToXml": "<r><a>1</a></r>"}}]}, "response": {"status": 204}}"#,
            #"{"request": {"method": "POST", "urlPath": "/count", "bodyPatterns": [{"matchesXPath": "count(/r/a) = 2"}]}, "response": {"status": 205}}"#,
            #"{"request": {"method": "POST", "urlPath": "/count-equal", "bodyPatterns": [{"matchesXPath": {"expression": "count(/r/a)", "equalTo": "2"}}]}, "response": {"status": 206}}"#,
            #"{"request": {"method": "POST", "urlPath": "/predicate", "bodyPatterns": [{"matchesXPath": "/r[count(a) = 2]"}]}, "response": {"status": 207}}"#,
        ])
        #expect(try await Self.post(mock, "/count", "<r><a/><a/></r>") == 404, "a truth is no node: WireMock matches nothing")
        #expect(try await Self.post(mock, "/count-equal", "<r><a/><a/></r>") == 404, "a number is no node")
        #expect(try await Self.post(mock, "/predicate", "<r><a/><a/></r>") == 207)
        #expect(try await Self.post(mock, "/element", "<r><a>1</a></r>") == 404, "the element is given as <a>1</a>, not as its text")
        #expect(try await Self.post(mock, "/printed", "<r><a><b>1</b></a></r>") == 202)
        #expect(try await Self.post(mock, "/text", "<r><a>1</a></r>") == 203)
        #expect(try await Self.post(mock, "/xml", "<r>\n <a>1</a></r>") == 204)
    }

    @Test("a bad expected document, expression or modifier is named where it is written")
    func badInput() {
        func message(_ pattern: String) -> String {
            do {
                _ = try WireMockMorePatternsTests.mock([#"{"request": {"bodyPatterns": ["# + pattern + "]}}"])
                return "loaded"
            } catch {
                return (error as? HTTPMockError)?.message ?? "\(error)"
            }
        }
        #expect(message(#"{"equalToXml": "<a><b></a>"}"#).contains("request.bodyPatterns[0].equalToXml: equalToXml: the expected document is not well-formed XML"))
        #expect(message(#"{"matchesXPath": "//a[@"}"#).contains("request.bodyPatterns[0].matchesXPath: matchesXPath"))
        #expect(message(#"{"matchesXPath": "//a", "enablePlaceholders": true}"#).contains(#""enablePlaceholders" applies to "equalToXml""#))
        #expect(message(#"{"equalToXml": "<a/>", "exemptedComparisons": ["SOMETHING"]}"#).contains(#""SOMETHING" in exemptedComparisons is not a comparison type"#))
        #expect(message(#"{"equalToXml": "<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a>"}"#).contains("equalToXml"))
    }
}
