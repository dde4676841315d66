import Foundation
import Testing
@testable import _HTTPMockTemplates

/// The Handlebars language of WireMock's templates, rendered from a model alone: escaping, blocks, paths, whitespace
/// control, and what is refused when a template is read.
@Suite struct TemplateLanguageTests {
    private func render(_ text: String, body: String = "") throws -> String {
        let template = try HandlebarsTemplate(text, pathNames: [:], place: "test")
        switch template.result(BodyModel(body)) {
        case .success(let text): return text
        case .failure(let problem): return "problem: \(problem.description)"
        }
    }

    @Test("{{…}}, {{{…}}} and {{&…}} print as is, as WireMock 3 does; \\{{ is literal braces; comments print nothing")
    func escaping() throws {
        let body = #"<a href="x">&'`=</a>"#
        #expect(try render("{{request.body}}", body: body) == body)
        #expect(try render("{{{request.body}}}|{{& request.body}}", body: body) == body + "|" + body)
        #expect(try render(#"\{{request.body}}"#, body: "x") == "{{request.body}}")
        #expect(try render("a{{! a comment }}b{{!-- {{nested}} --}}c") == "abc")
    }

    @Test("any text without a tag renders as itself, whatever its characters (HTTPMOCK_TEMPLATE_SEED replays a run)")
    func plainTextIsItself() throws {
        let seed = SplitMix64.seed
        var random = SplitMix64(seed: seed)
        func next(_ bound: Int) -> Int { random.next(bound) }
        let alphabet = Array("ab \n\t{}é😀<>&\"'\u{0}")
        for round in 0..<300 {
            let text = String((0..<next(41)).map { _ in alphabet[next(alphabet.count)] })
            if text.contains("{{") { continue }
            #expect(try render(text) == text, "HTTPMOCK_TEMPLATE_SEED=\(seed), round \(round): \(text.debugDescription)")
        }
    }

    @Test("each over a list with @index, @first, @last and else; if/else if/else chains; unless")
    func blocks() throws {
        #expect(try render("{{#each (split request.body ',')}}{{@index}}={{this}}{{#if @first}}(first){{/if}}{{#if @last}}(last){{/if}};{{/each}}",
                           body: "a,b,c") == "0=a(first);1=b;2=c(last);")
        #expect(try render("{{#each (split request.body ',') as |item index|}}{{index}}:{{item}} {{/each}}", body: "x,y") == "0:x 1:y ")
        #expect(try render("{{#each (array)}}x{{else}}empty{{/each}}") == "empty")
        let chain = "{{#if (eq request.body 'a')}}A{{else if (eq request.body 'b')}}B{{else}}other{{/if}}"
        #expect(try render(chain, body: "a") == "A")
        #expect(try render(chain, body: "b") == "B")
        #expect(try render(chain, body: "c") == "other")
        #expect(try render("{{#unless (eq request.body 'a')}}not a{{/unless}}", body: "z") == "not a")
    }

    @Test("~ strips the whitespace beside a tag, newlines included")
    func whitespaceControl() throws {
        #expect(try render("a \n {{~request.body~}} \n b", body: "X") == "aXb")
        #expect(try render("a {{request.body~}}   b", body: "X") == "a Xb")
    }

    @Test("a template that is wrong is refused when it is read, naming its place, line and column")
    func refusals() {
        func error(_ text: String) -> String {
            do {
                _ = try HandlebarsTemplate(text, pathNames: [:], place: "test")
                return "accepted"
            } catch {
                return error.message
            }
        }
        #expect(error("{{#if true}}x") .hasPrefix("test, line 1, column"))
        #expect(error("{{#if true}}x{{/each}}").hasPrefix("test, line 1, column"))
        #expect(error("{{request.nothing}}").contains("the request has no \"nothing\""))
        #expect(error("ok\n{{}}").hasPrefix("test, line 2, column"))
        #expect(error("{{upper request.body}}") == "accepted")
    }
}
