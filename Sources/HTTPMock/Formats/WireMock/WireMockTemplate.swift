import Foundation
import _HTTPMockJSON
import _HTTPMockTemplates

extension BodyTemplate {
    /// Reads a WireMock (Handlebars) template: text, `{{…}}` and `{{{…}}}` (both as they are, as WireMock 3 prints them),
    /// blocks, helpers and the request model (see ``HandlebarsTemplate``). `pathNames` maps the variables of a
    /// `urlPathTemplate` to their segment positions; `place` names the template in errors (`mappings/users.json at
    /// response.body`). `systemValue` may read the process environment only with `environmentAccess`.
    ///
    /// A problem in the template is an error here, naming its line and column; a problem while rendering (a
    /// limit passed) gives a response body that says what and where.
    /// `parameters`: the mapping's `transformerParameters`, read as `{{parameters.…}}`.
    init(wireMock text: String, pathNames: [String: Int], place: String, environmentAccess: Bool = false,
         parameters: JSONValue? = nil) throws(HTTPMockError) {
        var members = TemplateObject()
        if case .object(let object)? = parameters, case .object(let converted) = TemplateJSON.value(.object(object)) {
            members = converted
        }
        let template: HandlebarsTemplate
        do {
            template = try HandlebarsTemplate(text, pathNames: pathNames, place: place, environmentAccess: environmentAccess,
                                              parameters: members)
        } catch {
            throw HTTPMockError(.invalidDefinition, error.message)
        }
        if let plain = template.plainText, plain == text {
            self.init(parts: [.literal(text)], escapesForJSON: false)
        } else {
            self.init(parts: [.handlebars(template)], escapesForJSON: false)
        }
    }
}

extension BodyTemplate {
    /// The text filled from `request`, or the problem that stopped a WireMock template's render (a limit passed, a
    /// value a helper cannot use), where ``text(_:)`` would give a text saying so in its place.
    func result(_ request: CapturedRequest) -> Result<String, TemplateProblem> {
        guard parts.count == 1, case .handlebars(let template) = parts[0] else { return .success(text(request)) }
        return template.result(request)
    }
}
