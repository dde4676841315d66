import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
@testable import HTTPMock

/// The Handlebars language of WireMock templates, through mapping files: escaping, comments, whitespace control,
/// blocks, subexpressions, literals, named arguments, paths; and the errors a template that is wrong gives.
@Suite struct HandlebarsSyntaxTests {
    @Test("{{…}}, {{{…}}} and {{&…}} all print & < > \" ' ` = as they are, as WireMock 3 does; \\{{ is literal braces; comments print nothing")
    func escapingAndComments() async throws {
        let server = try TemplateServer([
            "/escape": "{{request.query.v}}|{{{request.query.v}}}|{{&request.query.v}}",
            "/literal": #"\{{request.path}} {{request.path}}"#,
            "/comments": "a{{! a comment }}b{{!-- a {{long}} comment --}}c",
            "/strings": #"{{'single'}} {{"double"}} {{'it\'s'}} {{1}} {{-2.5}} {{true}} {{null}}|"#,
        ])
        let special = "%26%3C%3E%22'%60%3D"
        try await server.expect("/escape?v=\(special)", "&<>\"'`=|&<>\"'`=|&<>\"'`=")
        try await server.expect("/literal", "{{request.path}} /literal")
        try await server.expect("/comments", "abc")
        try await server.expect("/strings", "single double it's 1 -2.5 true |")
    }

    @Test("~ removes the whitespace beside a tag, newlines included; other whitespace stays")
    func whitespaceControl() async throws {
        let server = try TemplateServer([
            "/strip": "[  {{~request.method~}}  ]",
            "/blocks": "<\n  {{~#if true~}}\n   yes  \n  {{~else~}}\n no \n{{~/if~}}\n>",
            "/kept": "[ {{request.method}} ]",
            "/comment": "a  {{~!-- gone --~}}  b {{~! short ~}} c",
        ])
        try await server.expect("/strip", "[GET]")
        try await server.expect("/blocks", "<yes>")
        try await server.expect("/kept", "[ GET ]")
        try await server.expect("/comment", "abc")
    }

    @Test("blocks with else and else-if chains, inverted blocks, subexpressions, named arguments")
    func blocksAndSubexpressions() async throws {
        let server = try TemplateServer([
            "/chain": "{{#if (eq request.query.n.[0] '1')}}one{{else if (eq request.query.n.[0] '2')}}two{{else}}many{{/if}}",
            "/helper-chain": "{{#eq request.query.name.[0] 'Dan'}}dan{{else eq request.query.name.[0] 'Mark'}}mark{{else}}anon{{/eq}}",
            "/inverted": "{{^request.query.q}}no q{{^}}x{{/request.query.q}}",
            "/nested": "{{upper (substring (lower 'HELLO WORLD') 0 5)}}",
            "/hash": "{{join 'a' 'b' 'c' '-' prefix='[' suffix=']'}}",
        ])
        try await server.expect("/chain?n=1", "one")
        try await server.expect("/chain?n=2", "two")
        try await server.expect("/chain?n=7", "many")
        try await server.expect("/helper-chain?name=Dan", "dan")
        try await server.expect("/helper-chain?name=Mark", "mark")
        try await server.expect("/helper-chain?name=Ann", "anon")
        try await server.expect("/inverted", "no q")
        try await server.expect("/inverted?q=1", "x")
        try await server.expect("/nested", "HELLO")
        try await server.expect("/hash", "[a-b-c]")
    }

    @Test("paths: this, this.name, ../name, @index, @first, @last, @key, @root, block parameters, [segments]")
    func paths() async throws {
        let body = #"{"team": "core", "people": [{"name": "Ann", "age": 30}, {"name": "Bo", "age": 25}]}"#
        let server = try TemplateServer([
            "/this": "{{parseJson request.body 'doc'}}{{#each doc.people}}{{@index}}:{{this.name}}/{{name}}@{{../doc.team}}{{#if @first}}(first){{/if}}{{#if @last}}(last){{/if}};{{/each}}",
            "/keys": "{{#each (parseJson request.body)}}{{@key}}={{#if @first}}F{{/if}}{{#if @last}}L{{/if}},{{/each}}",
            "/params": "{{#each (jsonPath request.body '$.people') as |person i|}}{{i}}.{{person.name}}{{#with person as |p|}}({{p.age}}){{/with}} {{/each}}",
            "/root": "{{#each (array 'x')}}{{@root.request.method}} {{this}}{{/each}}",
            "/brackets": "{{request.headers.[X-Odd.Name]}}|{{lookup request.headers 'x-odd.name'}}",
            "/shadow": "{{#each (parseJson request.body)}}{{size}}/{{date}}/{{this.size}} {{/each}}{{#trim}} t {{/trim}}",
        ])
        try await server.expect("/this", method: "POST", body: body, "0:Ann/Ann@core(first);1:Bo/Bo@core(last);")
        try await server.expect("/keys", method: "POST", body: #"{"a": 1, "b": 2, "c": 3}"#, "a=F,b=,c=L,")
        try await server.expect("/params", method: "POST", body: body, "0.Ann(30) 1.Bo(25) ")
        try await server.expect("/root", "GET x")
        try await server.expect("/brackets", headers: ["X-Odd.Name": "odd"], "odd|odd")
        // A helper's name with no arguments reads the item's field of that name.
        try await server.expect("/shadow", method: "POST", body: #"[{"size": "L", "date": "today"}]"#, "L/today/L t")
    }

    @Test("a value the request lacks, and an unknown name, render as the empty string")
    func missingValues() async throws {
        let server = try TemplateServer(["/missing": "[{{request.query.nothing}}|{{request.headers.X-None}}|{{undefinedName}}|{{request.path.[9]}}]"])
        try await server.expect("/missing", "[|||]")
    }

    @Test("a template that is wrong is refused when the folder loads, naming the place, the line and column, and what to write")
    func parseErrors() {
        let place = "mappings/all.json mappings[0] at response.body"
        func error(_ template: String) -> String { TemplateServer.loadError(template) }
        #expect(error("a\n  {{request.path") == "\(place), line 2, column 3: a \"{{\" is never closed: it is never closed with \"}}\"; close it with \"}}\" (write \\{{ for literal braces)")
        #expect(error("{{#each (array 1)}}x") == "\(place), line 1, column 1: {{#each}} is never closed; add {{/each}}")
        #expect(error("{{#if true}}x{{/each}}") == "\(place), line 1, column 14: {{/each}} closes {{#if}} opened at line 1, column 1; write {{/if}}")
        #expect(error("x{{/if}}") == "\(place), line 1, column 2: {{/if}} closes no block; open it with {{#helper …}} (write \\{{ for literal braces)")
        #expect(error("{{frobnicate 1 2}}").hasPrefix("\(place), line 1, column 3: \"frobnicate\" is not a helper this library knows (in {{frobnicate 1 2}}); use one of: if, unless, each"))
        #expect(error("{{math 1 '+'}}") == "\(place), line 1, column 3: {{math 1 '+'}}: math takes 3 arguments, not 2; write {{math 1 '+' 2}} (with '+', '-', '*', '/' or '%')")
        #expect(error("{{now offst='1 days'}}") == "\(place), line 1, column 3: {{now offst='1 days'}}: now has no named argument \"offst\" (it has format, offset, timezone); write {{now offset='3 days' format='yyyy-MM-dd'}}")
        #expect(error("{{now offset='3 fortnights'}}").contains("'3 fortnights' is not an offset; write offset='3 days'"))
        #expect(error("{{jsonPath request.body '$.a['}}").contains("the JSONPath '$.a[' does not compile"))
        #expect(error("{{request.heders.X}}") == "\(place), line 1, column 3: {{request.heders.X}}: the request has no \"heders\"; use request.url, request.path, request.pathSegments, request.query, request.headers, request.cookies, request.method, request.host, request.port, request.scheme, request.baseUrl, request.body, request.bodyAsBase64, request.clientIp, request.id, request.multipart, request.requestLine")
        #expect(error("{{request.path.name}}").contains("\"name\" is not a position or a variable of the urlPathTemplate; write request.path.[0]"))
        #expect(error("{{each (array 1)}}").contains("each is a block helper; write {{#each"))
        #expect(error("{{> header}}").contains("partials ({{> name}}) are not supported"))
        #expect(error("{{'open}}").contains("a quote in it is never closed"))
        #expect(error("{{upper (lower 'x'}}").contains("the subexpression (lower 'x' is never closed; add \")\""))
        #expect(error("{{#if true}}a{{else}}b{{else}}c{{/if}}").contains("a second {{else}} in the same block"))
        #expect(error("{{random 'Name.first_name'}}").contains("\"random\" is not supported here: it needs WireMock's faker extension"))
        #expect(error("{{xPath request.body '/a/['}}").contains("{{xPath request.body '/a/['}}: the XPath '/a/[' does not compile"))
        #expect(error("{{systemValue key='HOME'}}").contains("systemValue is disabled"))
    }
}
