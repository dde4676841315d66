
/// What a template's `request.…` reads: the object a render starts from, read one attribute at a time when the
/// template names it (the WireMock format gives one made from the request being answered).
package protocol TemplateModel {
    /// `request.<name>`, or nil when there is no such attribute.
    func attribute(_ name: String) -> TemplateValue?
    /// Every attribute, as a map (for `toJson request`).
    var materialized: TemplateValue { get }
    /// Names a template reads beside `request` (a message stub's `message`), with their values.
    var roots: [(String, TemplateValue)] { get }
}

extension TemplateModel {
    package var roots: [(String, TemplateValue)] { [] }
}

/// Why a template cannot be read, with its place and the position in it: `mappings/users.json at response.body,
/// line 1, column 3: {{#each}} takes 1 argument, not 0`.
package struct TemplateError: Error, CustomStringConvertible, Sendable {
    /// The whole message, place first.
    package let message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
