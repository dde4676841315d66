import Foundation
import Testing
@testable import _HTTPMockTemplates

/// A template cannot loop for ever or build gigabytes: steps, output, text built and list sizes are bounded, and
/// passing a bound gives a problem that says which, and where. Rendered here without any request: `request.body`
/// is all a template of these tests reads.
@Suite struct TemplateRenderingBoundsTests {
    private let request = BodyModel("0123456789")

    private func problem(_ text: String, _ limits: TemplateLimits) throws -> String {
        let template = try HandlebarsTemplate(text, pathNames: [:], place: "test", limits: limits)
        guard case .failure(let problem) = template.result(request) else { return "rendered" }
        return problem.description
    }

    @Test("steps: nested loops stop at the step budget")
    func stepsAreBounded() throws {
        let limits = TemplateLimits(steps: 1_000, output: 1 << 20, work: 4 << 20, collection: 100_000)
        #expect(try problem("{{#each (range 1 100)}}{{#each (range 1 100)}}x{{/each}}{{/each}}", limits)
            .hasSuffix("the template took more than 1000 steps to render (a loop over too many items?); make it do less"))
        #expect(try problem("{{#each (range 1 10)}}x{{/each}}", limits) == "rendered")
        let standard = try HandlebarsTemplate("{{#each (range 1 100000)}}{{#each (range 1 100000)}}x{{/each}}{{/each}}", pathNames: [:], place: "test")
        guard case .failure(let failure) = standard.result(request) else { Issue.record("rendered"); return }
        #expect(failure.message.hasPrefix("the template took more than 1000000 steps"))
    }

    @Test("each character randomValue makes is a step: many long random values stop at the step budget, short ones render")
    func randomValuesCostSteps() throws {
        let many = String(repeating: "{{randomValue length=10000 type='ALPHANUMERIC'}}", count: 101)
        let standard = try HandlebarsTemplate(many, pathNames: [:], place: "test")
        guard case .failure(let failure) = standard.result(request) else { Issue.record("rendered"); return }
        #expect(failure.message.hasPrefix("the template took more than 1000000 steps"))
        let few = try HandlebarsTemplate("{{randomValue length=10000 type='HEXADECIMAL'}}|{{randomValue length=5 type='NUMERIC' uppercase=true}}",
                                         pathNames: [:], place: "test")
        guard case .success(let text) = few.result(request) else { Issue.record("no value"); return }
        let parts = text.split(separator: "|")
        #expect(parts.count == 2)
        #expect(parts.first?.count == 10_000)
        #expect(parts.first?.allSatisfy { "0123456789abcdef".contains($0) } == true)
        #expect(Set(parts.first ?? "").count == 16, "every letter of the alphabet is drawn")
        #expect(parts.last?.count == 5)
        #expect(parts.last?.allSatisfy(\.isNumber) == true)
    }

    @Test("a regular expression in a template has a budget: one that backtracks stops the render, naming it; its work counts as steps")
    func templateRegexesAreBounded() throws {
        let backtracking = BodyModel(String(repeating: "a", count: 26) + "b")
        for text in ["{{regexExtract request.body '(a+)+$' default='none'}}", "{{#if (matches request.body '(a+)+')}}yes{{/if}}"] {
            let template = try HandlebarsTemplate(text, pathNames: [:], place: "test")
            guard case .failure(let failure) = template.result(backtracking) else { Issue.record("rendered \(text)"); continue }
            #expect(failure.message.contains("ran past its matching budget"), "\(failure.message)")
        }
        let quick = try HandlebarsTemplate("{{regexExtract request.body '[0-9]+'}}", pathNames: [:], place: "test")
        guard case .success(let digits) = quick.result(request) else { Issue.record("no value"); return }
        #expect(digits == "0123456789")
    }

    @Test("helpers that read a long body whole (xPath, jsonPath, regexExtract) count what they read as steps: a loop over them stops at the budget",
          arguments: ["{{xPath request.body '/r/i[1]/text()'}}", "{{size (jsonPath request.body '$..a')}}",
                      "{{regexExtract request.body '[0-9]+x' default=''}}"])
    func readingABodyCostsSteps(_ helper: String) throws {
        let xml = "<r>" + String(repeating: "<i>7</i>", count: 1_250) + "</r>"
        let json = "{\"items\": [" + Array(repeating: #"{"a": 1, "b": [1, 2]}"#, count: 500).joined(separator: ",") + "]}"
        let text = helper.contains("xPath") ? xml : helper.contains("jsonPath") ? json : String(repeating: "a", count: 10_000)
        let long = BodyModel(text)
        let limits = TemplateLimits(steps: 100_000, output: 1 << 20, work: 4 << 20, collection: 100_000)
        let looped = try HandlebarsTemplate("{{#each (range 0 1000)}}\(helper){{/each}}", pathNames: [:], place: "test", limits: limits)
        guard case .failure(let failure) = looped.result(long) else { Issue.record("rendered"); return }
        #expect(failure.message.hasPrefix("the template took more than 100000 steps"), "\(failure.message)")
        // Once is well within the budget.
        let once = try HandlebarsTemplate(helper, pathNames: [:], place: "test", limits: limits)
        guard case .success = once.result(long) else { Issue.record("not rendered once"); return }
    }

    @Test("a search that finds nothing in a long body is no overrun: regexExtract gives its default")
    func longSearchWithoutMatch() throws {
        let long = BodyModel(String(repeating: "a", count: 64 << 10))
        let template = try HandlebarsTemplate("[{{regexExtract request.body '[0-9]+' default='none'}}]", pathNames: [:], place: "test")
        guard case .success(let text) = template.result(long) else { Issue.record("not rendered"); return }
        #expect(text == "[none]")
    }

    @Test("output and the text built in all are bounded")
    func outputIsBounded() throws {
        let limits = TemplateLimits(steps: 100_000, output: 1_000, work: 5_000, collection: 100_000)
        let output = try problem("{{#each (range 1 200)}}{{request.body}}{{/each}}", limits)
        #expect(output == "line 1, column 26: the output is larger than 1000 bytes; make the template produce less")
        #expect(try problem("{{#each (range 1 200)}}{{size (replace request.body '0' '0123456789')}}{{/each}}", limits)
            .contains("the template built more than 5000 bytes of text"))
        #expect(try problem("{{ljust 'x' size=100000000}}", TemplateLimits.standard).contains("size=100000000 is wider than the output may be"))
    }

    @Test("selected objects take the document's order from where they are, without a search: selecting each of many objects backwards stays within the budget")
    func keyOrderCostsNoSearch() throws {
        let items = (0..<3_000).map { #"{"b": \#($0), "a": "x"}"# }.joined(separator: ",")
        let body = #"{"items": ["# + items + "]}"
        let model = BodyModel(body)
        let backwards = try HandlebarsTemplate("{{#each (range 0 2999)}}{{{jsonPath request.body (join '$.items[' (math 2999 '-' this) ']' '')}}}{{/each}}",
                                               pathNames: [:], place: "test")
        guard case .success(let objects) = backwards.result(model) else { Issue.record("not rendered"); return }
        #expect(objects.hasPrefix("{\n  \"b\" : 2999,\n  \"a\" : \"x\"\n}{\n  \"b\" : 2998,"))
        #expect(objects.hasSuffix("{\n  \"b\" : 0,\n  \"a\" : \"x\"\n}"))
        let forwards = try HandlebarsTemplate("{{#each (jsonPath request.body '$.items[*]')}}{{b}}{{/each}}|{{jsonPath request.body '$.items[2999].b'}}",
                                              pathNames: [:], place: "test")
        guard case .success(let text) = forwards.result(model) else { Issue.record("no value"); return }
        #expect(text.hasSuffix("29982999|2999"))
    }

    @Test("numbers and dates at their edges, and lists nested in a loop, give a value or a problem, never a crash")
    func edges() throws {
        let template = try HandlebarsTemplate("{{math -9223372036854775808 '/' -1}}|{{math 9223372036854775807 '+' 1}}|{{math 5 '%' -1}}|[{{now offset='1000000 years' format='yyyy'}}]",
                                              pathNames: [:], place: "test")
        guard case .success(let text) = template.result(request) else { Issue.record("no value"); return }
        #expect(text.hasPrefix("9.223372036854776E18|9.223372036854776E18|0|["))
        #expect(try problem("{{parseDate '1e300' format='epoch'}}", .standard).hasSuffix("'1e300' is not a date in the format 'epoch'"))
        #expect(try problem("{{range 0 9223372036854775807}}", .standard).hasSuffix("a list of more than 9223372036854775807 items is more than the 100000 a template may build"))
        let nested = try problem("{{#each (range 1 100)}}{{val (array nested) assign='nested'}}{{/each}}", .standard)
        #expect(nested == "line 1, column 31: {{array nested}}: lists nest more than 64 deep")
        #expect(try problem("{{math 1 '/' 0}}", .standard).hasSuffix("{{math 1 '/' 0}}: division by zero"))
    }
}

/// What `request.…` reads in these tests: a body, and nothing else.
struct BodyModel: TemplateModel {
    let body: String

    init(_ body: String) {
        self.body = body
    }

    func attribute(_ name: String) -> TemplateValue? {
        name == "body" ? .string(body) : nil
    }

    var materialized: TemplateValue { .object(TemplateObject([("body", .string(body))])) }
}
