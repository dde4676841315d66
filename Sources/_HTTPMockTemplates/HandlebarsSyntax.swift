import Foundation

/// A place in a template, from 1: the line, and the character on it.
package struct TemplatePosition: Sendable, Hashable, CustomStringConvertible {
    let line: Int
    let column: Int

    package var description: String { "line \(line), column \(column)" }
}

/// What a template expression names: a literal, a path into the data, or a helper's result (a subexpression).
indirect enum HandlebarsExpression: Sendable {
    case literal(TemplateValue)
    case path(HandlebarsPath)
    case call(HandlebarsCall)

    var position: TemplatePosition? {
        switch self {
        case .literal: nil
        case .path(let path): path.position
        case .call(let call): call.position
        }
    }
}

/// `request.headers.[X-Id]`, `this.name`, `../name`, `@index`: the steps, read from the current context (`this`),
/// a parent one (`../`), the private data of a block (`@`), or, for a plain name, the innermost context that has it.
package struct HandlebarsPath: Sendable {
    var isData = false
    /// How many `../` lead it.
    var depth = 0
    /// Starts with `this` or `.`: read from the current context only.
    var isThis = false
    var parts: [String] = []
    /// As written, for messages.
    var source = ""
    var position: TemplatePosition

    /// A path of one plain name: what may name a helper.
    var simpleName: String? {
        !isData && depth == 0 && !isThis && parts.count == 1 ? parts[0] : nil
    }
}

/// A helper with its arguments, or a lone path or literal (`{{request.url}}`) when `helper` is `nil`.
package struct HandlebarsCall: Sendable {
    var helper: TemplateHelper?
    /// The path or literal a `{{…}}` without a helper prints (or, with arguments, names the unknown helper).
    var target: HandlebarsExpression?
    var params: [HandlebarsExpression] = []
    var hash: [(key: String, value: HandlebarsExpression)] = []
    /// A helper the lone name also names (`{{size}}`): read as a value, as a block it is the helper.
    var shadowedHelper: TemplateHelper?
    /// The expression as written, for messages: `math 1 '+' 2`.
    var source: String
    var position: TemplatePosition

    func hashValue(_ key: String) -> HandlebarsExpression? { hash.first { $0.key == key }?.value }
}

/// One piece of a parsed template.
indirect enum HandlebarsNode: Sendable {
    case text(String)
    /// `{{…}}`, `{{{…}}}` or `{{&…}}`: all three print the value as it is, as WireMock 3 does (it turned
    /// Handlebars' HTML escaping off; WireMock 2 escaped `{{…}}`).
    case output(HandlebarsCall)
    case block(HandlebarsBlock)
}

/// `{{#helper args as |a b|}}body{{else}}inverse{{/helper}}`; `{{else if …}}` chains nest as the inverse.
/// `{{^path}}…{{/path}}` is an inverted block: its body renders when the value is empty.
package struct HandlebarsBlock: Sendable {
    var call: HandlebarsCall
    var blockParams: [String] = []
    var body: [HandlebarsNode] = []
    var inverse: [HandlebarsNode] = []
    var inverted = false
}

/// A problem of a template: what is wrong, where, and what to write instead.
package struct TemplateProblem: Error, Sendable, CustomStringConvertible {
    let position: TemplatePosition?
    let message: String

    init(_ message: String, at position: TemplatePosition?) {
        self.message = message
        self.position = position
    }

    package var description: String { position.map { "\($0): \(message)" } ?? message }
}
