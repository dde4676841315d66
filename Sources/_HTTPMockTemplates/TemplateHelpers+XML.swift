import Foundation
import _HTTPMockXML

extension HandlebarsRenderer {
    /// `{{xPath request.body '/outer/inner/text()'}}` and `{{soapXPath request.body '/a/test/text()'}}` (the path
    /// read under `/Envelope/Body`), evaluated by ``XPathExpression``. Selected nodes are one or many: they print
    /// as the first (an element as its XML, text and attributes as their text), `each` reaches them all, and each
    /// has `name` (as written, `soap:Body`), `text` and `attributes`. A body that is not XML selects nothing.
    func xml(_ helper: TemplateHelper, _ arguments: HelperArguments) throws(TemplateProblem) -> TemplateValue {
        let expression = try Self.xPath(arguments.text(1), soap: helper == .soapXPath) { (message) throws(TemplateProblem) in
            throw arguments.problem(message)
        }
        let text = arguments.text(0)
        // The document is parsed whole, and the expression's own steps count: within what the render has left.
        try read(text.utf8.count, arguments.call.position)
        guard !text.isEmpty, case .success(let root) = XMLElementNode.parse(Data(text.utf8)) else { return .null }
        let budget = min(XPathExpression.stepBudget, stepsLeft)
        var spent = 0
        let result = expression.evaluate(root, stepBudget: budget, spent: &spent)
        try step(arguments.call.position, count: spent)
        switch result {
        case .nodeSet(let nodes):
            try allow(nodes.count, arguments.call.position)
            return nodes.isEmpty ? .null : .multi(TemplateMulti(values: nodes.map(Self.value)))
        case .string(let text): return .string(text)
        case .number(let number):
            if number.isNaN { return .null }
            return number == number.rounded() && abs(number) < 1e15 ? .int(Int(number)) : .double(number)
        case .boolean(let truth): return .bool(truth)
        }
    }

    /// Compiles the expression of `xPath` (`soap`: of `soapXPath`, under `/Envelope/Body`).
    static func xPath(_ source: String, soap: Bool, fail: (String) throws(TemplateProblem) -> Never) throws(TemplateProblem) -> XPathExpression {
        let text = soap ? "/Envelope/Body" + (source.hasPrefix("/") ? source : "/" + source) : source
        do {
            return try XPathExpression(text)
        } catch {
            let message = error.message.hasPrefix("matchesXPath: ") ? String(error.message.dropFirst(14)) : error.message
            try fail("the XPath '\(source)' does not compile (\(message))")
        }
    }

    private static func value(_ node: XPathNode) -> TemplateValue {
        // The name as the document wrote it, its prefix too, as WireMock gives it.
        var named: [String: TemplateValue] = ["name": .string(node.name), "text": .string(node.stringValue)]
        var attributes = TemplateObject()
        var printed = node.stringValue
        if node.kind == .element || node.kind == .root, let markup = node.markup {
            printed = node.printed ?? markup
            if case .success(let element) = XMLElementNode.parse(Data(markup.utf8)) {
                for attribute in element.attributes { attributes[attribute.qualifiedName] = .string(attribute.value) }
            }
        }
        named["attributes"] = .object(attributes)
        return .multi(TemplateMulti(values: [], text: printed, named: named))
    }
}
