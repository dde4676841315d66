import Foundation

/// A JSON Schema (drafts 4, 6, 7, 2019-09 or 2020-12) compiled once, to check JSON values against: every violation is
/// reported with where it is in the value and which keyword it breaks.
///
/// References resolve against the base URI where they are, as the specification says: inside the document (`#`,
/// `#/$defs/name`, any JSON pointer, an anchor), to schema resources a `$id` embeds in it, and to other documents
/// only through the `resources` the caller gives by URI, never the network. `$recursiveRef` (2019-09) and
/// `$dynamicRef` (2020-12) follow the dynamic scope. A `"$schema"` naming a meta-schema among the `resources`
/// takes its draft, and its `$vocabulary` (without the validation vocabulary, assertions are off). Unknown keywords
/// are ignored, as the specification says; `format` is an annotation unless `validatesFormats` is on.
/// ``Compiler`` lists what is refused.
///
/// Checking does bounded work: a `$ref` cycle that comes back to the same place in the value without going into
/// it is reported rather than followed for ever, and checking stops (with a violation) past
/// ``Evaluator/stepLimit`` subschemas or ``Evaluator/depthLimit`` nested ones.
package struct JSONSchema: Sendable {
    /// Which edition of the specification the keywords follow. A `"$schema"` at the top of the document chooses
    /// it; the `draft` argument of ``init(_:draft:validatesFormats:openAPI30:)`` is for documents without one.
    package enum Draft: Int, Sendable, Comparable {
        /// Draft 4: `id`, boolean `exclusiveMaximum`/`exclusiveMinimum`, `$ref` hides the keywords beside it.
        case draft4
        /// Draft 6: `$id`, `const`, `contains`, `propertyNames`, numeric `exclusiveMaximum`/`exclusiveMinimum`.
        case draft6
        /// Draft 7: `$ref` hides the keywords beside it; `dependencies`; no `unevaluated…`, `dependent…`,
        /// `minContains`/`maxContains` or `$anchor`.
        case draft7
        /// Draft 2019-09: `$ref` is one keyword among others; `$defs`, `$anchor`, `$recursiveRef`,
        /// `dependentRequired`/`dependentSchemas` (and draft 7's `dependencies`, which its meta-schema reserves),
        /// `minContains`/`maxContains`, `unevaluatedProperties`/`unevaluatedItems`.
        case draft2019_09
        /// Draft 2020-12: `prefixItems` and `items` for the rest, `$dynamicRef`/`$dynamicAnchor`.
        case draft2020_12

        package static func < (a: Draft, b: Draft) -> Bool { a.rawValue < b.rawValue }
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
    /// `$dynamicAnchor`s: schema resource → name → node.
    let dynamicAnchors: [Int: [String: Int]]
    /// The roots of the schema resources with `$recursiveAnchor: true`: resource → node.
    let recursiveRoots: [Int: Int]

    /// Compiles `schema`, a JSON Schema document.
    ///
    /// - Parameters:
    ///   - draft: the edition to read it as when it has no `"$schema"`.
    ///   - validatesFormats: check `date-time`, `date`, `time`, `email`, `uuid`, `uri`, `ipv4`, `ipv6` and
    ///     `hostname` strings; off by default, as the specification says (`format` is then an annotation).
    ///   - openAPI30: read OpenAPI 3.0's extensions too: `nullable: true` lets `null` through a `type`, and
    ///     `exclusiveMaximum`/`exclusiveMinimum` may be draft 4's booleans that make `maximum`/`minimum` exclusive.
    ///   - resources: other schema documents by URI (`https://example.com/money.json`), for references that lead
    ///     out of this one; each is read with its own `"$schema"`, else this one's draft.
    /// - Throws: ``JSONSchemaError`` naming the keyword's place in the document when the schema
    ///   itself is invalid: a keyword value of the wrong type, a `pattern` that does not compile, a `$ref` that
    ///   does not resolve or leads to a document not in `resources`, an unknown `"$schema"`.
    package init(_ schema: JSONValue, draft: Draft = .draft2019_09, validatesFormats: Bool = false,
         openAPI30: Bool = false, resources: [String: JSONValue] = [:]) throws(JSONSchemaError) {
        var compiler = Compiler(draft: draft, openAPI30: openAPI30, registry: resources)
        try compiler.compileDocument(schema)
        self.init(compiler, validatesFormats: validatesFormats)
    }

    private init(_ compiler: Compiler, validatesFormats: Bool) {
        self.draft = compiler.documents[0].draft
        self.validatesFormats = validatesFormats
        self.nodes = compiler.nodes
        self.dynamicAnchors = compiler.dynamicAnchors
        self.recursiveRoots = compiler.recursiveRoots
    }

    /// Compiles the schema `schema` found at `pointer` (escaped, `/components/schemas/Pet`) in `document`: its
    /// `$ref`s resolve against the whole document (`#/components/schemas/Tag`), as in an OpenAPI document. Places in
    /// errors and violations of the schema itself are pointers into `document`.
    package init(_ schema: JSONValue, at pointer: String, in document: JSONValue, draft: Draft = .draft2019_09,
                 validatesFormats: Bool = false, openAPI30: Bool = false,
                 resources: [String: JSONValue] = [:]) throws(JSONSchemaError) {
        var compiler = Compiler(draft: draft, openAPI30: openAPI30, registry: resources)
        try compiler.compileSchema(schema, at: pointer, in: document)
        self.init(compiler, validatesFormats: validatesFormats)
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
