import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
@testable import HTTPMock
@testable import _HTTPMockTemplates

/// WireMock's template helpers, one group a test, each with the answer WireMock's documentation gives.
@Suite struct TemplateHelpersTests {
    @Test("if, unless, each over lists and maps (with else), with")
    func conditionsAndIteration() async throws {
        let server = try TemplateServer([
            "/if": "{{#if request.query.show}}shown{{else}}hidden{{/if}} {{#unless request.query.show}}no{{/unless}} {{#if 0}}zero{{/if}}{{#if 0 includeZero=true}}zero{{/if}}",
            "/each": "{{#each (array 'a' 'b' 'c')}}{{@index}}{{this}}{{#unless @last}},{{/unless}}{{/each}}|{{#each (array)}}x{{else}}empty{{/each}}",
            "/map": "{{#each request.headers}}{{#if (eq @key 'X-One')}}{{@key}}={{this}}{{/if}}{{/each}}",
            "/with": "{{#with request.headers}}{{X-One}}{{/with}}|{{#with request.query.none}}x{{else}}none{{/with}}",
        ])
        try await server.expect("/if?show=yes", "shown  zero")
        try await server.expect("/if", "hidden no zero")
        try await server.expect("/each", "0a,1b,2c|empty")
        try await server.expect("/map", headers: ["X-One": "1"], "X-One=1")
        try await server.expect("/with", headers: ["X-One": "1"], "1|none")
    }

    @Test("eq, neq, gt, gte, lt, lte, and, or, not, contains, matches: as blocks, in if, and inline")
    func comparisons() async throws {
        let server = try TemplateServer([
            "/eq": "{{#eq request.query.name.[0] 'Jeff'}}jeff{{else}}other{{/eq}} {{#neq request.query.name.[0] 'Jeff'}}not jeff{{/neq}}",
            "/order": "{{#gt request.query.n.[0] 3}}gt{{/gt}} {{#gte request.query.n.[0] 10}}gte{{/gte}} {{#lt request.query.n.[0] 20}}lt{{/lt}} {{#lte request.query.n.[0] 9}}lte{{/lte}} {{gt 'b' 'a'}}",
            "/logic": "{{#if (and true request.query.a)}}and{{/if}} {{#if (or false request.query.a)}}or{{/if}} {{#if (not request.query.a)}}not{{/if}} {{eq 1 1 yes='Y' no='N'}}{{eq 1 2 yes='Y' no='N'}}",
            "/contains": "{{#if (contains 'abcde' 'abc')}}YES{{/if}} {{#if (contains (array 'a' 'b' 'c') 'a')}}YES{{/if}} {{#contains 'abcde' 'xyz'}}YES{{else}}NO{{/contains}}",
            "/matches": "{{#if (matches '123' '[0-9]+')}}YES{{/if}} {{#matches '123a' '[0-9]+'}}YES{{else}}NO{{/matches}} {{matches '1' '[0-9]|[0-9]+'}}",
        ])
        try await server.expect("/eq?name=Jeff", "jeff ")
        try await server.expect("/eq?name=Mark", "other not jeff")
        try await server.expect("/order?n=10", "gt gte lt  true")
        try await server.expect("/logic?a=1", "and or  YN")
        try await server.expect("/logic", "  not YN")
        try await server.expect("/contains", "YES YES ")
        try await server.expect("/matches", "YES  true")
    }

    @Test("trim, upper, lower, capitalize, capitalizeFirst, replace, substring, abbreviate, split, join, size, defaultIfEmpty, and the rest")
    func strings() async throws {
        let server = try TemplateServer([
            "/case": "[{{trim request.headers.X-Padded}}]{{#trim}}  block  {{/trim}}|{{upper 'abc'}}|{{lower 'ABC'}}|{{capitalize 'mock my stuff'}}|{{capitalizeFirst 'mock my stuff'}}|{{capitalize 'mOCK mY' fully=true}}",
            "/cut": "{{replace 'a-b-c' '-' '+'}}|{{substring 'abcde' 1 3}}|{{substring 'abcde' 2}}|{{abbreviate 'Mocking APIs helps you develop faster' 21}}|{{cut 'mocking, stubbing, faults' ','}}",
            "/split": "{{#each (split 'a,b,c' ',')}}<{{this}}>{{/each}}|{{join (split 'a b c' ' ') '+'}}|{{size 'abcde'}}|{{size (array 1 2)}}|{{length 'xyz'}}",
            "/default": "{{defaultIfEmpty 'my value' 'default'}}|{{defaultIfEmpty '' 'default'}}|{{default request.query.q 'none'}}",
            "/pad": "{{center 'hi' size=6 pad='*'}}|{{ljust 'hi' size=4 pad='.'}}|{{rjust 'hi' size=4}}|{{yesno true}}/{{yesno false}}/{{yesno null}}|{{slugify 'Hello World Again'}}|{{stripTags '<b>bold</b> text'}}",
            "/numbers": "{{#each (range 1 4)}}{{stripes @index 'even' 'odd'}}{{isOdd this}}{{isEven this 'E'}} {{/each}}",
            "/regex": "{{regexExtract 'abc-DEF-123' '[A-Z]+'}}|{{regexExtract 'abc-DEF-123' '([a-z]+)-([A-Z]+)-([0-9]+)' 'parts'}}{{parts.0}},{{parts.1}},{{parts.2}}|{{regexExtract 'abc' '[0-9]+' default='my default value'}}",
        ])
        try await server.expect("/case", headers: ["X-Padded": "  padded  "], "[padded]block|ABC|abc|Mock My Stuff|Mock my stuff|Mock My")
        try await server.expect("/cut", "a+b+c|bc|cde|Mocking APIs helps...|mocking stubbing faults")
        try await server.expect("/split", "<a><b><c>|a+b+c|5|2|3")
        try await server.expect("/default", "my value|default|none")
        try await server.expect("/pad", "**hi**|hi..|  hi|yes/no/maybe|hello-world-again|bold text")
        try await server.expect("/numbers", "evenodd oddE evenodd oddE ")
        try await server.expect("/regex", "DEF|abc,DEF,123|my default value")
    }

    @Test("math, range, array, arrayAdd, arrayRemove, arrayJoin")
    func numbersAndLists() async throws {
        let server = try TemplateServer([
            "/math": "{{math 1 '+' 2}} {{math 4 '-' 2}} {{math 2 '*' 3}} {{math 8 '/' 2}} {{math 10 '%' 3}} {{math 10 '/' 4}} {{math request.query.a '*' '1.5'}} {{maths 1 '+' 1}}",
            "/range": "{{range 3 8}} {{range -2 2}} {{array 1 'two' true}} {{array}}",
            "/add": "{{arrayAdd (array 1 'three') 2 position=1}} {{arrayAdd (array 1 'three') 2 position='start'}} {{arrayAdd (array 1 'three') 2 position='end'}} {{arrayAdd (array 1 'three') 2}}",
            "/remove": "{{arrayRemove (array 1 2 'three') position=1}} {{arrayRemove (array 1 2 'three') position='start'}} {{arrayRemove (array 1 2 'three') position='end'}} {{arrayRemove (array 1 2 'three')}}",
            "/join": "{{arrayJoin ',' (array 'One' 'Two' 'Three')}}|{{arrayJoin ' - ' 'a' 'b' 'c'}}|{{arrayJoin ', ' (range 1 5)}}|{{arrayJoin '' (array 'W' 'i' 'r' 'e')}}|{{arrayJoin ',' (array 'One' 'Two') prefix='[' suffix=']'}}|{{arrayJoin ' * ' (array 1 2 3) prefix='(' suffix=')'}}",
            "/join-block": "{{parseJson '[{\"id\": 1, \"name\": \"One\"}, {\"id\": 2, \"name\": \"Two\"}]' 'things'}}{{#arrayJoin ',' things prefix='[' suffix=']' as |item|}}{\"name{{item.id}}\": \"{{item.name}}\"}{{/arrayJoin}}",
        ])
        try await server.expect("/math?a=4", "3 2 6 4 1 3 6.0 2")
        try await server.expect("/range", "[3, 4, 5, 6, 7, 8] [-2, -1, 0, 1, 2] [1, two, true] []")
        try await server.expect("/add", "[1, 2, three] [2, 1, three] [1, three, 2] [1, three, 2]")
        try await server.expect("/remove", "[1, three] [2, three] [1, 2] [1, 2]")
        try await server.expect("/join", "One,Two,Three|a - b - c|1, 2, 3, 4, 5|Wire|[One,Two]|(1 * 2 * 3)")
        try await server.expect("/join-block", #"[{"name1": "One"},{"name2": "Two"}]"#)
    }

    @Test("jsonPath (one value, a list, a default), parseJson, toJson, formatJson, jsonMerge, jsonArrayAdd")
    func json() async throws {
        let body = #"{"outer": {"inner": "Stuff"}, "items": [{"name": "a", "n": 1}, {"name": "b", "n": 2}]}"#
        let server = try TemplateServer([
            "/path": "{{jsonPath request.body '$.outer.inner'}}|{{{jsonPath request.body '$.outer'}}}|{{{jsonPath request.body '$.items[*].name'}}}|{{jsonPath request.body '$.size' default='M'}}|{{#each (jsonPath request.body '$.items')}}{{name}}{{n}}{{/each}}|{{size (jsonPath request.body '$.items')}}",
            "/parse": "{{#parseJson 'parsedObj'}}{\"name\": \"transformed\", \"list\": [1, 2]}{{/parseJson}}{{parsedObj.name}} {{parsedObj.list.[1]}}|{{lookup (parseJson request.body) 'name'}}|{{parsedObj}}",
            "/tojson": "{{toJson (array 1 2 3)}}|{{toJson request.headers}}",
            "/format": "{{#formatJson}}{\"foo\":true,\"bar\":{\"baz\":false}}{{/formatJson}}|{{formatJson '{\"foo\": true, \"bar\": {\"baz\": false}}' format='compact'}}",
            "/merge": "{{#assign 'object1'}}{\"id\": 456, \"address\": {\"number\": \"12\"}, \"hobbies\": [\"chess\"], \"gone\": 1}{{/assign}}{{#jsonMerge object1 removeNulls=true}}{\"nickname\": \"Bob\", \"address\": {\"street\": \"High Street\"}, \"hobbies\": [\"rugby\"], \"gone\": null}{{/jsonMerge}}",
            "/array-add": "{{#assign 'existing'}}[{\"id\": 123}, {\"id\": 321}]{{/assign}}{{#jsonArrayAdd existing maxItems=2}}{\"id\": 456}{{/jsonArrayAdd}}|{{jsonArrayAdd '[1]' '[2, 3]' flatten=true}}",
        ])
        try await server.expect("/path", method: "POST", body: body, "Stuff|{\n  \"inner\" : \"Stuff\"\n}|[\"a\",\"b\"]|M|a1b2|2")
        try await server.expect("/parse", method: "POST", body: #"{"name": "from body"}"#, "transformed 2|from body|{name=transformed, list=[1, 2]}")
        try await server.expect("/tojson", headers: ["Authorization": "whatever"], "[ 1, 2, 3 ]|{\n  \"Authorization\" : \"whatever\"\n}")
        try await server.expect("/format", "{\n  \"foo\" : true,\n  \"bar\" : {\n    \"baz\" : false\n  }\n}|{\"foo\":true,\"bar\":{\"baz\":false}}")
        try await server.expect("/merge", #"{"id":456,"address":{"number":"12","street":"High Street"},"hobbies":["rugby"],"nickname":"Bob"}"#)
        try await server.expect("/array-add", #"[{"id":321},{"id":456}]|[1,2,3]"#)
    }

    @Test("base64, urlEncode, formData, val, assign")
    func encodingsFormsAndVariables() async throws {
        let server = try TemplateServer([
            "/base64": "{{base64 request.headers.X-Plain}}|{{base64 request.headers.X-Encoded decode=true}}|{{#base64 padding=false}}ab{{/base64}}|{{#base64 decode=true}}Q29udGVudCB0byBkZWNvZGU{{/base64}}",
            "/url": "{{urlEncode 'a b&c/é'}}|{{urlEncode 'Content%20to+decode' decode=true}}|{{#urlEncode}}x y{{/urlEncode}}",
            "/form": "{{formData request.body 'form' urlDecode=true}}{{form.formField3}}|{{form.multi.1}}|{{form.multi.first}}, {{form.multi.last}}|{{size form.multi}}",
            "/val": "{{val request.query.search or='default'}}|{{val request.query.search default='d2'}}|[{{val request.query.none}}]|{{val (array 1 2 3) default='123'}}|{{val 'value for myVar' assign='myVar'}}{{myVar}}|{{val null or='other' assign='myVar'}}{{myVar}}|{{val 10 assign='n'}}{{#lt n 20}}Less Than{{else}}More Than{{/lt}}",
            "/assign": "{{#assign 'myCapitalisedQuery'}}  {{capitalize request.query.search}}  {{/assign}}Capitalised query: {{myCapitalisedQuery}}",
        ])
        try await server.expect("/base64", headers: ["X-Plain": "hello", "X-Encoded": "aGVsbG8="], "aGVsbG8=|hello|YWI|Content to decode")
        try await server.expect("/url", "a+b%26c%2F%C3%A9|Content to decode|x+y")
        try await server.expect("/form", method: "POST", body: "formField3=hello+world%21&multi=1&multi=2&multi=3", "hello world!|2|1, 3|3")
        try await server.expect("/val?search=abc", "abc|abc|[]|[1, 2, 3]|value for myVar|other|Less Than")
        try await server.expect("/val", "default|d2|[]|[1, 2, 3]|value for myVar|other|Less Than")
        try await server.expect("/assign?search=mock%20stuff", "Capitalised query: Mock Stuff")
    }

    @Test("now (offset, timezone, format, epoch, unix), date, parseDate, dateFormat, truncateDate")
    func dates() async throws {
        let server = try TemplateServer([
            "/date": "{{date (parseDate '2021-06-15T15:16:17Z') offset='3 days' format='yyyy-MM-dd'}}|{{date (parseDate '2021-06-15T15:16:17Z') timezone='Australia/Sydney' format='yyyy-MM-dd HH:mm:ssZ'}}|{{date (parseDate '2021-06-15T15:16:17Z') offset='-1 months'}}",
            "/parse": "{{parseDate '10/11/2021' format=\"dd/MM/yyyy\"}}|{{parseDate '1577964091000' format=\"epoch\"}}|{{parseDate '1577964091' format='unix'}}|{{date (parseDate request.headers.MyDate) offset='-1 days'}}",
            "/truncate": "{{date (truncateDate (parseDate request.headers.MyDate) 'first day of month')}}|{{truncateDate (parseDate '2021-06-15T15:16:17Z') 'last day of year'}}",
            "/format": "{{dateFormat (parseDate '2012-06-19T10:00:00Z') 'full'}}|{{dateFormat (parseDate '2012-06-19T10:00:00Z') format='yyyy/MM/dd'}}|{{dateFormat (parseDate '2012-06-19T10:00:00Z') 'short'}}",
            "/now": "{{now offset='3 days' format='epoch'}}|{{now format='unix'}}|{{now}}|{{now offset=(join (randomInt lower=1 upper=1) ' days' '') format='epoch'}}",
        ])
        try await server.expect("/date", "2021-06-18|2021-06-16 01:16:17+1000|2021-05-15T15:16:17Z")
        try await server.expect("/parse", headers: ["MyDate": "Tue, 15 Jun 2021 15:16:17 GMT"], "2021-11-10T00:00:00Z|2020-01-02T11:21:31Z|2020-01-02T11:21:31Z|2021-06-14T15:16:17Z")
        try await server.expect("/truncate", headers: ["MyDate": "Tue, 15 Jun 2021 15:16:17 GMT"], "2021-06-01T00:00:00Z|2021-12-31T00:00:00Z")
        try await server.expect("/format", "Tuesday, June 19, 2012|2012/06/19|6/19/12")
        let before = Date()
        let parts = try await server.text("/now").split(separator: "|").map(String.init)
        let after = Date()
        let day: Double = 86_400
        let inThreeDays = try #require(Double(parts[0])) / 1000
        #expect(inThreeDays >= (before.timeIntervalSince1970 + 3 * day).rounded(.down) && inThreeDays <= after.timeIntervalSince1970 + 3 * day)
        let unix = try #require(Double(parts[1]))
        #expect(unix >= before.timeIntervalSince1970.rounded(.down) && unix <= after.timeIntervalSince1970)
        #expect(ISO8601DateFormatter().date(from: parts[2]) != nil)
        let tomorrow = try #require(Double(parts[3])) / 1000
        #expect(tomorrow >= (before.timeIntervalSince1970 + day).rounded(.down) && tomorrow <= after.timeIntervalSince1970 + day)
    }

    @Test("randomValue, randomInt, randomDecimal, pickRandom stay in their bounds; hostname is fixed")
    func randomValues() async throws {
        let server = try TemplateServer([
            "/random": "{{randomValue length=12 type='ALPHANUMERIC'}}|{{randomValue length=8 type='HEXADECIMAL' uppercase=true}}|{{randomValue type='UUID'}}|{{randomValue length=5 type='NUMERIC'}}|{{randomValue}}",
            "/numbers": "{{randomInt lower=5 upper=9}}|{{randomDecimal lower=-10.1 upper=-0.9}}|{{pickRandom '1' '2' '3'}}|{{pickRandom (array 'a' 'b')}}|{{pickRandom 1 2 3 4 5 count=3}}|{{hostname}}",
        ])
        for _ in 0..<10 {
            let random = try await server.text("/random").split(separator: "|").map(String.init)
            #expect(random[0].count == 12 && random[0].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
            #expect(random[1].count == 8 && random[1].allSatisfy { "0123456789ABCDEF".contains($0) })
            #expect(UUID(uuidString: random[2]) != nil)
            #expect(random[3].count == 5 && random[3].allSatisfy(\.isNumber))
            #expect(random[4].count == 36)
            let numbers = try await server.text("/numbers").split(separator: "|").map(String.init)
            #expect((5...9).contains(try #require(Int(numbers[0]))))
            #expect((-10.1 ... -0.9).contains(try #require(Double(numbers[1]))))
            #expect(["1", "2", "3"].contains(numbers[2]))
            #expect(["a", "b"].contains(numbers[3]))
            let picked = numbers[4].dropFirst().dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(picked.count == 3 && Set(picked).count == 3 && picked.allSatisfy { ["1", "2", "3", "4", "5"].contains($0) })
            #expect(numbers[5] == "localhost")
        }
    }

    @Test("xPath and soapXPath: a value, an element as XML, nodes to iterate with name, text and attributes")
    func xml() async throws {
        let server = try TemplateServer([
            "/xpath": "{{xPath request.body '/outer/inner/text()'}}|{{{xPath request.body '/outer/inner'}}}|{{xPath request.body 'count(//inner)'}}|[{{xPath request.body '/none'}}]",
            "/each": "{{#each (xPath request.body '/things/item') as |node|}}name: {{node.name}}, text: {{node.text}}, ID attribute: {{node.attributes.id}};{{/each}}",
            "/soap": "{{soapXPath request.body '/a/test/text()'}}",
        ])
        try await server.expect("/xpath", method: "POST", body: "<outer>\n  <inner>Stuff</inner>\n</outer>", "Stuff|<inner>Stuff</inner>\n|1|[]")
        try await server.expect("/xpath", method: "POST", body: "not xml", "|||[]")
        try await server.expect("/each", method: "POST", body: #"<things><item id="1">one</item><item id="2">two</item></things>"#,
                                "name: item, text: one, ID attribute: 1;name: item, text: two, ID attribute: 2;")
        let soap = #"<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope/"><soap:Body><m:a xmlns:m="urn:m"><m:test>success</m:test></m:a></soap:Body></soap:Envelope>"#
        try await server.expect("/soap", method: "POST", body: soap, "success")
    }

    @Test("systemValue reads the environment only when the caller allows it")
    func systemValue() throws {
        let request = CapturedRequest(url: URL(string: "http://localhost/")!)
        let allowed = try HandlebarsTemplate("{{systemValue key='PATH'}}|{{systemValue key='HTTPMOCK_NO_SUCH_VARIABLE' default='none'}}",
                                             pathNames: [:], place: "test", environmentAccess: true)
        #expect(allowed.render(request) == (ProcessInfo.processInfo.environment["PATH"] ?? "") + "|none")
        #expect(throws: TemplateError.self) { try HandlebarsTemplate("{{systemValue key='PATH'}}", pathNames: [:], place: "test") }
        let template = try BodyTemplate(wireMock: "{{systemValue key='HTTPMOCK_NO_SUCH_VARIABLE' default='d'}}", pathNames: [:], place: "test", environmentAccess: true)
        #expect(template.text(request) == "d")
    }
}
