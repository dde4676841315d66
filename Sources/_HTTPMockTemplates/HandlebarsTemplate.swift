import Foundation
import _HTTPMockRegex
import _HTTPMockJSON

/// How much one render of a template may do: a template cannot loop for ever or build gigabytes.
package struct TemplateLimits: Sendable {
    /// Nodes, expressions and loop turns evaluated in one render, and each character `randomValue` makes: a render
    /// costs well under a second of one core, whatever the template.
    var steps = 1_000_000
    /// The longest output, in UTF-8 bytes (the default of ``FileSizeLimits/templatedBodies``).
    var output = 16 << 20
    /// The most text one render may build in all (output, block bodies and helper results together).
    var work = 64 << 20
    /// The most items a list may have (`range`, `array`, `each`, `split`…).
    var collection = 100_000
    /// How deeply the lists a template builds may nest.
    var nesting = 64

    static let standard = TemplateLimits()

    /// These limits for a render tried in place (a server's event loop, ``RegexBudget/Overrun/inPlace``): a
    /// render that needs more is given up there and done again where user code runs, with the whole limits.
    var inPlace: TemplateLimits {
        var limits = self
        limits.steps = min(steps, 20_000)
        limits.output = min(output, 1 << 20)
        limits.work = min(work, 1 << 20)
        return limits
    }
}

/// A WireMock response template, parsed once and rendered for each request (see ``HandlebarsParser`` for the
/// syntax, ``TemplateHelper`` for the helpers, ``TemplateModel`` for `request.…`).
package struct HandlebarsTemplate: Sendable {
    let nodes: [HandlebarsNode]
    /// Where the template is (`mappings/users.json at response.body`), for messages.
    let place: String
    package let pathNames: [String: Int]
    let environmentAccess: Bool
    let limits: TemplateLimits
    /// `{{parameters.…}}`: the mapping's `transformerParameters`.
    let parameters: TemplateObject

    package init(_ text: String, pathNames: [String: Int], place: String, environmentAccess: Bool = false,
         limits: TemplateLimits = .standard, parameters: TemplateObject = TemplateObject()) throws(TemplateError) {
        let checks = TemplateChecks(pathNames: pathNames, environmentAccess: environmentAccess)
        do {
            nodes = try HandlebarsParser(text, checks: checks).parse()
        } catch {
            throw TemplateError("\(place), \(error.description)")
        }
        self.place = place
        self.pathNames = pathNames
        self.environmentAccess = environmentAccess
        self.limits = limits
        self.parameters = parameters
    }

    /// The text, when the template holds nothing but text (no expression, comment or escape).
    package var plainText: String? {
        if nodes.isEmpty { return "" }
        if nodes.count == 1, case .text(let text) = nodes[0] { return text }
        return nil
    }

    /// The template filled from `model` (what `request.…` reads); a problem while rendering (a limit passed, a
    /// value a helper cannot use) gives a text that says what and where, in place of the response.
    package func render(_ model: any TemplateModel) -> String {
        switch result(model) {
        case .success(let text): return text
        case .failure(let problem): return "HTTPMock could not render the WireMock template at \(place), \(problem.description)"
        }
    }

    package func result(_ model: any TemplateModel) -> Result<String, TemplateProblem> {
        let renderer = HandlebarsRenderer(template: self, model: model)
        do {
            var out = ""
            try renderer.render(nodes, into: &out)
            return .success(out)
        } catch {
            // Tried in place: whatever went wrong is found again, with the whole limits, where user code runs.
            renderer.inPlace?.record("template at \(place)")
            return .failure(error)
        }
    }
}

/// One render of a template: the context stack, the variables the template assigns, the limits' counters.
package final class HandlebarsRenderer {
    struct Frame {
        var value: TemplateValue
        /// `@index`, `@key`, `@first`, `@last`.
        var data: [String: TemplateValue] = [:]
        /// `as |item index|`.
        var params: [String: TemplateValue] = [:]
    }

    let template: HandlebarsTemplate
    let model: any TemplateModel
    let limits: TemplateLimits
    /// Set when the render is tried in place, within ``TemplateLimits/inPlace``.
    let inPlace: RegexBudget.Overrun?
    /// The moment of the request: every `now` of one render is the same.
    let now = Date()
    private var steps = 0
    private var work = 0
    var variables: [String: TemplateValue] = [:]
    var frames: [Frame]
    /// What helpers compiled or parsed once in this render: JSONPaths, regular expressions, the last JSON text read.
    var jsonPaths: [String: JSONPath] = [:]
    var regularExpressions: [String: NSRegularExpression] = [:]
    var lastDocument: (text: String, document: (value: TemplateValue?, json: JSONValue)?)?
    var lastQuickDocument: (text: String, json: JSONValue?)?

    init(template: HandlebarsTemplate, model: any TemplateModel) {
        self.template = template
        self.model = model
        let overrun = RegexBudget.overrun
        inPlace = overrun?.inPlace == true ? overrun : nil
        limits = inPlace == nil ? template.limits : template.limits.inPlace
        // `originalRequest`: the same request, as a webhook's templates name it.
        frames = [Frame(value: .object(TemplateObject([("request", .request), ("originalRequest", .request),
                                                         ("parameters", .object(template.parameters))] + model.roots)))]
    }

    // MARK: - Limits

    /// Counts one step, or `count` for a helper whose work grows with its input (one per character it makes).
    func step(_ position: TemplatePosition?, count: Int = 1) throws(TemplateProblem) {
        steps += count
        if steps > limits.steps {
            throw TemplateProblem("the template took more than \(limits.steps) steps to render (a loop over too many items?); make it do less", at: position)
        }
    }

    /// Steps one progress report of ICU's matcher costs beyond those of the positions a search starts from (a few
    /// thousand steps of its own): a render's step budget holds 2,000, one regular expression's whole budget (see
    /// ``RegexBudget``).
    static let stepsPerRegexReport = 500

    /// Bytes of input a helper reads whole (a regular expression's search, an XML document parsed, a JSON document a
    /// path walks) per step: a loop cannot read a long body a hundred thousand times.
    static let bytesPerStep = 4

    /// Counts the steps of reading `bytes` of input whole (see ``bytesPerStep``).
    func read(_ bytes: Int, _ position: TemplatePosition?) throws(TemplateProblem) {
        try step(position, count: 1 + bytes / Self.bytesPerStep)
    }

    /// The steps a helper may still take in this render.
    var stepsLeft: Int { max(0, limits.steps - steps) }

    /// The first match of `regex` in `text`, within ``RegexBudget``: reading the text and backtracking count as
    /// steps, and an expression that runs past its budget (it backtracks on this text) stops the render with a
    /// problem naming it.
    func firstMatch(of regex: NSRegularExpression, in text: String,
                    _ arguments: HelperArguments) throws(TemplateProblem) -> NSTextCheckingResult? {
        let length = text.utf16.count
        try read(text.utf8.count, arguments.call.position)
        var found: NSTextCheckingResult?
        var reports = 0
        var overran = false
        var budget = RegexBudget.progressReports(for: length)
        if inPlace != nil {
            guard length <= RegexBudget.inPlaceLength else {
                throw arguments.problem("the regular expression /\(regex.pattern)/ reads more text than a render in place may")
            }
            budget = min(budget, RegexBudget.inPlaceReports + length)
        }
        regex.enumerateMatches(in: text, options: [.reportProgress], range: NSRange(text.startIndex..., in: text)) { result, flags, stop in
            if let result {
                found = result
                stop.pointee = true
            } else if flags.contains(.internalError) {
                overran = true
            } else if flags.contains(.progress) {
                reports += 1
                if reports >= budget {
                    overran = true
                    stop.pointee = true
                }
            }
        }
        if overran {
            throw arguments.problem("the regular expression /\(regex.pattern)/ ran past its matching budget on this text and was stopped: write it without nested quantifiers (such as a+ for (a+)+)")
        }
        // ICU reports once at every position a search starts from: those are the reading, counted above.
        try step(arguments.call.position, count: max(0, reports - length) * Self.stepsPerRegexReport)
        return found
    }

    /// Counts `bytes` of text built.
    func charge(_ bytes: Int, _ position: TemplatePosition?) throws(TemplateProblem) {
        work += bytes
        if work > limits.work {
            throw TemplateProblem("the template built more than \(Self.size(limits.work)) of text; make it build less", at: position)
        }
    }

    func append(_ text: String, to out: inout String, _ position: TemplatePosition?) throws(TemplateProblem) {
        try charge(text.utf8.count, position)
        out += text
        if out.utf8.count > limits.output {
            throw TemplateProblem("the output is larger than \(Self.size(limits.output)); make the template produce less", at: position)
        }
    }

    /// `16 MiB`, or `1000 bytes` below a mebibyte.
    static func size(_ bytes: Int) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }

    /// A list of `count` items may be built.
    func allow(_ count: Int, _ position: TemplatePosition?) throws(TemplateProblem) {
        if count > limits.collection {
            let items = count == Int.max ? "more than \(Int.max)" : "\(count)"
            throw TemplateProblem("a list of \(items) items is more than the \(limits.collection) a template may build", at: position)
        }
    }

    // MARK: - Nodes

    func render(_ nodes: [HandlebarsNode], into out: inout String) throws(TemplateProblem) {
        for node in nodes {
            switch node {
            case .text(let text):
                try step(nil)
                try append(text, to: &out, nil)
            case .output(let call):
                try step(call.position)
                try append(printed(try evaluate(call)), to: &out, call.position)
            case .block(let block):
                try step(block.call.position)
                try render(block, into: &out)
            }
        }
    }

    func rendered(_ nodes: [HandlebarsNode]) throws(TemplateProblem) -> String {
        var out = ""
        try render(nodes, into: &out)
        return out
    }

    /// The text a value prints as; the request model prints its URL.
    func printed(_ value: TemplateValue) -> String {
        if case .request = value { return model.attribute("url")?.text ?? "" }
        return value.text
    }

    private func render(_ block: HandlebarsBlock, into out: inout String) throws(TemplateProblem) {
        let call = block.call
        if block.inverted {
            let value = try evaluate(call)
            try render(value.isEmpty ? block.body : block.inverse, into: &out)
            return
        }
        guard let helper = call.helper else {
            try section(try evaluate(call), block, into: &out)
            return
        }
        switch helper {
        case .if, .unless:
            let value = try evaluate(call.params[0])
            var truth = !value.isEmpty
            if !truth, try hashFlag(call, "includeZero"), value.number?.double == 0 { truth = true }
            if helper == .unless { truth.toggle() }
            try render(truth ? block.body : block.inverse, into: &out)
        case .each:
            try each(try evaluate(call.params[0]), block, into: &out)
        case .with:
            let value = try evaluate(call.params[0])
            if value.isEmpty {
                try render(block.inverse, into: &out)
            } else {
                try within(value, params: block.blockParams.prefix(1).map { ($0, value) }, data: [:]) { () throws(TemplateProblem) in
                    try render(block.body, into: &out)
                }
            }
        case .arrayJoin:
            try append(try arrayJoin(call, block: block), to: &out, call.position)
        default:
            switch helper.spec.block {
            case .condition:
                var test = call
                test.hash.removeAll { $0.key == "yes" || $0.key == "no" } // as a block, the body and the else part answer
                // WireMock's `matches` and `contains` blocks render their body or nothing: never the else part.
                let inverse = helper == .matches || helper == .contains ? [] : block.inverse
                try render(try evaluate(test).isEmpty ? inverse : block.body, into: &out)
            case .content(let first):
                // The body is the argument the call leaves out (`{{#trim}} x {{/trim}}`, `{{#assign 'name'}}…`).
                let body = call.params.count < helper.spec.params.upperBound ? TemplateValue.string(try rendered(block.body)) : nil
                let value = try evaluate(call, inserting: body, first: first)
                try append(printed(value), to: &out, call.position)
            case .value, .blockOnly:
                try section(try evaluate(call), block, into: &out)
            }
        }
    }

    /// `{{#value}}…{{/value}}`: each item of a list, the body with a value as its context, or the inverse.
    private func section(_ value: TemplateValue, _ block: HandlebarsBlock, into out: inout String) throws(TemplateProblem) {
        if value.isEmpty { try render(block.inverse, into: &out); return }
        switch value {
        case .array, .multi: try each(value, block, into: &out)
        default:
            try within(value, params: block.blockParams.prefix(1).map { ($0, value) }, data: [:]) { () throws(TemplateProblem) in
                try render(block.body, into: &out)
            }
        }
    }

    /// `{{#each}}`: the body for each item of a list or map (`@index`, `@key`, `@first`, `@last`, `@even`, `@odd`), the inverse
    /// when there is none.
    private func each(_ value: TemplateValue, _ block: HandlebarsBlock, into out: inout String) throws(TemplateProblem) {
        var entries: [(key: TemplateValue, value: TemplateValue)] = []
        var keyed = false
        switch value {
        case .array(let items, _): entries = items.enumerated().map { (.int($0.offset), $0.element) }
        case .multi(let multi): entries = multi.values.enumerated().map { (.int($0.offset), $0.element) }
        case .object(let object):
            keyed = true
            entries = object.pairs.map { (.string($0.0), $0.1) }
        default:
            if !value.isEmpty { entries = [(.int(0), value)] }
        }
        try allow(entries.count, block.call.position)
        if entries.isEmpty { try render(block.inverse, into: &out); return }
        for (index, entry) in entries.enumerated() {
            try step(block.call.position)
            // As Handlebars.java: `@first`, `@last`, `@even` and `@odd` are their own name, or empty.
            var data: [String: TemplateValue] = ["index": .int(index), "first": .string(index == 0 ? "first" : ""),
                                                 "last": .string(index == entries.count - 1 ? "last" : ""),
                                                 "even": .string(index % 2 == 0 ? "even" : ""), "odd": .string(index % 2 == 1 ? "odd" : "")]
            if keyed { data["key"] = entry.key }
            var params: [(String, TemplateValue)] = []
            if let name = block.blockParams.first { params.append((name, entry.value)) }
            if block.blockParams.count > 1 { params.append((block.blockParams[1], entry.key)) }
            try within(entry.value, params: params, data: data) { () throws(TemplateProblem) in
                try render(block.body, into: &out)
            }
        }
    }

    func within(_ value: TemplateValue, params: [(String, TemplateValue)], data: [String: TemplateValue],
                _ body: () throws(TemplateProblem) -> Void) throws(TemplateProblem) {
        var frame = Frame(value: value, data: data)
        for (name, item) in params { frame.params[name] = item }
        frames.append(frame)
        defer { frames.removeLast() }
        try body()
    }

    // MARK: - Expressions

    func evaluate(_ expression: HandlebarsExpression) throws(TemplateProblem) -> TemplateValue {
        switch expression {
        case .literal(let value): return value
        case .path(let path): return resolve(path)
        case .call(let call): return try evaluate(call)
        }
    }

    func evaluate(_ call: HandlebarsCall, inserting body: TemplateValue? = nil, first: Bool = true) throws(TemplateProblem) -> TemplateValue {
        try step(call.position)
        guard let helper = call.helper else {
            guard let target = call.target else { return .null }
            return try evaluate(target)
        }
        var params: [TemplateValue] = []
        for expression in call.params { params.append(try evaluate(expression)) }
        if let body { if first { params.insert(body, at: 0) } else { params.append(body) } }
        var hash: [String: TemplateValue] = [:]
        for (key, expression) in call.hash { hash[key] = try evaluate(expression) }
        let arguments = HelperArguments(call: call, params: params, hash: hash)
        let value = try run(helper, arguments)
        switch value {
        case .string(let text): try charge(text.utf8.count, call.position)
        case .array where helper == .array || helper == .arrayAdd:
            // A loop could nest lists without end; nesting that deep cannot even be printed.
            if value.depth(limit: limits.nesting) > limits.nesting {
                throw arguments.problem("lists nest more than \(limits.nesting) deep")
            }
        default: break
        }
        return value
    }

    private func hashFlag(_ call: HandlebarsCall, _ key: String) throws(TemplateProblem) -> Bool {
        guard let expression = call.hashValue(key) else { return false }
        return HelperArguments.flag(try evaluate(expression))
    }

    /// The value a path names: block parameters, then the contexts from the innermost out, then the variables the
    /// template assigned; `null` when none has it.
    func resolve(_ path: HandlebarsPath) -> TemplateValue {
        var base: TemplateValue
        var rest = path.parts[...]
        if path.isData {
            let name = rest.removeFirst()
            if name == "root" {
                base = frames[0].value
            } else {
                // `@../index`: each `../` leaves one context, as it does for a name; the search goes outward from there.
                let outer = frames[...max(0, frames.count - 1 - path.depth)]
                guard let found = outer.reversed().lazy.compactMap({ $0.data[name] }).first else { return .null }
                base = found
            }
        } else if path.isThis || rest.isEmpty {
            base = frames[max(0, frames.count - 1 - path.depth)].value
        } else if path.depth > 0 {
            let frame = frames[max(0, frames.count - 1 - path.depth)]
            let head = rest.removeFirst()
            guard let value = frame.params[head] ?? member(frame.value, head) ?? variables[head] else { return .null }
            base = value
        } else {
            let head = rest.removeFirst()
            var found: TemplateValue?
            for frame in frames.reversed() {
                if let value = frame.params[head] ?? member(frame.value, head) { found = value; break }
            }
            guard let value = found ?? variables[head] else { return .null }
            base = value
        }
        for part in rest {
            guard let next = member(base, part) else { return .null }
            base = next
        }
        return base
    }

    /// The member `name` of a value: a key of a map, an index of a list (`0`, `first`, `last`), an attribute of the
    /// request.
    func member(_ value: TemplateValue, _ name: String) -> TemplateValue? {
        switch value {
        case .object(let object): return object[name]
        case .array(let items, _):
            if let index = Int(name) { return items.indices.contains(index) ? items[index] : nil }
            switch name {
            case "first": return items.first
            case "last": return items.last
            case "length", "size": return .int(items.count)
            default: return nil
            }
        case .multi(let multi):
            if let value = multi.named[name] { return value }
            if let index = Int(name) { return multi.item(index) }
            switch name {
            case "first": return multi.values.first
            case "last": return multi.values.last
            // As WireMock's list of values answers `size` (`{{request.query.ids.size}}`).
            case "size": return .int(multi.values.count)
            default: return nil
            }
        case .request: return model.attribute(name)
        default: return nil
        }
    }

    /// Sets a variable later expressions read by name (`assign`, `val … assign=`, `parseJson … 'name'`).
    func assign(_ name: String, _ value: TemplateValue) {
        variables[name] = value
        if frames.count > 1, frames[frames.count - 1].params[name] != nil { frames[frames.count - 1].params[name] = value }
    }
}

/// The evaluated arguments of one helper call.
package struct HelperArguments {
    let call: HandlebarsCall
    var params: [TemplateValue]
    var hash: [String: TemplateValue]

    func param(_ index: Int) -> TemplateValue { params.indices.contains(index) ? params[index] : .null }
    func text(_ index: Int) -> String { param(index).single.text }
    func hashText(_ key: String) -> String? { hash[key].map { $0.single.text } }
    func hashFlag(_ key: String) -> Bool { hash[key].map(Self.flag) ?? false }

    static func flag(_ value: TemplateValue) -> Bool {
        switch value.single {
        case .bool(let flag): return flag
        case .string(let text): return text.lowercased() == "true"
        default: return !value.isEmpty
        }
    }

    /// A problem with this call: what is wrong and how it is written.
    func problem(_ message: String) -> TemplateProblem {
        TemplateProblem("{{\(call.source)}}: \(message)", at: call.position)
    }

    func integer(_ index: Int, _ what: String) throws(TemplateProblem) -> Int {
        try Self.integer(param(index), what, self)
    }

    func hashInteger(_ key: String) throws(TemplateProblem) -> Int? {
        guard let value = hash[key], !value.isEmpty || value.number != nil else { return nil }
        return try Self.integer(value, key, self)
    }

    static func integer(_ value: TemplateValue, _ what: String, _ arguments: HelperArguments) throws(TemplateProblem) -> Int {
        switch value.number {
        case .int(let number)?: return number
        case .double(let number)? where number == number.rounded() && abs(number) < 9e15: return Int(number)
        default: throw arguments.problem("\(what) must be a whole number, not '\(value.single.text)'")
        }
    }
}
