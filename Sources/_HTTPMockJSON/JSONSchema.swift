import Foundation

/// A JSON Schema (draft 7 or 2019-09) compiled once, to check JSON values against: every violation is reported
/// with where it is in the value and which keyword it breaks.
///
/// One document only: `$ref` may point inside it (`#`, `#/$defs/name`, `#/definitions/name`, any JSON pointer,
/// a `$anchor`), never to another file or URL. Unknown keywords are ignored, as the specification says; `format`
/// is an annotation unless `validatesFormats` is on. ``Compiler`` lists what is refused.
///
/// Checking does bounded work: a `$ref` cycle that comes back to the same place in the value without going into
/// it is reported rather than followed for ever, and checking stops (with a violation) past
/// ``Evaluator/stepLimit`` subschemas or ``Evaluator/depthLimit`` nested ones.
package struct JSONSchema: Sendable {
    /// Which edition of the specification the keywords follow. A `"$schema"` at the top of the document chooses
    /// it; the `draft` argument of ``init(_:draft:validatesFormats:openAPI30:)`` is for documents without one.
    package enum Draft: Sendable {
        /// Draft 7: `$ref` hides the keywords beside it; `dependencies`; no `unevaluated…`, `dependent…`,
        /// `minContains`/`maxContains` or `$anchor`.
        case draft7
        /// Draft 2019-09: `$ref` is one keyword among others; `$defs`, `$anchor`, `$recursiveRef`,
        /// `dependentRequired`/`dependentSchemas` (and draft 7's `dependencies`, which its meta-schema reserves),
        /// `minContains`/`maxContains`, `unevaluatedProperties`/`unevaluatedItems`.
        case draft2019_09
    }

    /// One way a value breaks the schema.
    package struct Violation: Sendable, Equatable, CustomStringConvertible {
        /// Where in the value, as a JSON pointer: `""` for the value itself, `/items/0/price` for a member.
        package let instancePath: String
        /// The keyword broken (`minimum`, `required`, `additionalProperties`…).
        package let keyword: String
        /// What is wrong, in plain English (`-1 is less than the minimum 0`).
        package let message: String

        /// `at /items/0/price: -1 is less than the minimum 0 (minimum)`.
        package var description: String {
            "at \(instancePath.isEmpty ? "the top level" : instancePath): \(message) (\(keyword))"
        }
    }

    /// The edition the keywords were read as.
    let draft: Draft
    /// Whether `format` is checked (for the formats ``FormatCheck/known``) rather than only noted.
    let validatesFormats: Bool
    /// The compiled subschemas; the document itself is the first.
    let nodes: [Node]

    /// Compiles `schema`, a JSON Schema document.
    ///
    /// - Parameters:
    ///   - draft: the edition to read it as when it has no `"$schema"`.
    ///   - validatesFormats: check `date-time`, `date`, `time`, `email`, `uuid`, `uri`, `ipv4`, `ipv6` and
    ///     `hostname` strings; off by default, as the specification says (`format` is then an annotation).
    ///   - openAPI30: read OpenAPI 3.0's extensions too: `nullable: true` lets `null` through a `type`, and
    ///     `exclusiveMaximum`/`exclusiveMinimum` may be draft 4's booleans that make `maximum`/`minimum` exclusive.
    /// - Throws: ``JSONSchemaError`` naming the keyword's place in the document when the schema
    ///   itself is invalid: a keyword value of the wrong type, a `pattern` that does not compile, a `$ref` that
    ///   does not resolve inside the document or leads out of it, an unknown `"$schema"`.
    package init(_ schema: JSONValue, draft: Draft = .draft2019_09, validatesFormats: Bool = false,
         openAPI30: Bool = false) throws(JSONSchemaError) {
        var compiler = Compiler(document: schema, draft: draft, openAPI30: openAPI30)
        try compiler.compileDocument()
        self.draft = compiler.draft
        self.validatesFormats = validatesFormats
        self.nodes = compiler.nodes
    }

    /// Compiles the schema `schema` found at `pointer` (escaped, `/components/schemas/Pet`) in `document`: its
    /// `$ref`s resolve against the whole document (`#/components/schemas/Tag`), as in an OpenAPI document. Places in
    /// errors and violations of the schema itself are pointers into `document`.
    package init(_ schema: JSONValue, at pointer: String, in document: JSONValue, draft: Draft = .draft2019_09,
                 validatesFormats: Bool = false, openAPI30: Bool = false) throws(JSONSchemaError) {
        var compiler = Compiler(document: document, draft: draft, openAPI30: openAPI30)
        try compiler.compileSchema(schema, at: pointer)
        self.draft = compiler.draft
        self.validatesFormats = validatesFormats
        self.nodes = compiler.nodes
    }

    /// Every violation of the schema by `instance`, in the order the keywords are checked (object members by
    /// name), at most `limit`; empty when `instance` is valid.
    package func violations(of instance: JSONValue, limit: Int = 100) -> [Violation] {
        var evaluator = Evaluator(schema: self)
        var report = Report(limit: max(limit, 1))
        _ = evaluator.evaluate(0, instance, at: Place(path: "", references: []), annotating: false,
                               keyword: "false", ifFalse: "no value is allowed: the schema is false", into: &report)
        evaluator.finish(&report)
        return report.violations
    }

    /// Whether `instance` is valid against the schema (stops at the first violation).
    package func validates(_ instance: JSONValue) -> Bool {
        violations(of: instance, limit: 1).isEmpty
    }
}
