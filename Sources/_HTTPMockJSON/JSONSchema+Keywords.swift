import Foundation

extension JSONSchema {
    /// One compiled subschema: `true`, `false`, or the keywords of an object schema in evaluation order.
    struct Node: Sendable {
        enum Body: Sendable {
            case always(Bool)
            case keywords([Keyword])
        }

        var body: Body
        /// Where it is in the schema document, as a JSON pointer (`/properties/price`); in another document, its
        /// URI and pointer.
        let location: String
        /// The schema resource it belongs to (numbered), for the dynamic scope of `$dynamicRef`/`$recursiveRef`.
        let resource: Int
        /// Whether it has `unevaluatedProperties` or `unevaluatedItems`, so what its subschemas evaluate is tracked.
        var tracksEvaluation = false
        /// For a schema that was only a `$ref` and now has its target's keywords: the reference, which `evaluate`
        /// counts as followed (to stop a cycle).
        var reference: Reference?

        struct Reference: Sendable {
            let target: Int
            let text: String
            let keyword: String
        }
    }

    /// A keyword compiled: values checked and converted, regular expressions built, subschemas as node indices.
    enum Keyword: Sendable {
        case type([InstanceType])
        case enumeration([JSONValue])
        case constant(JSONValue)
        case multipleOf(JSONValue)
        case bound(Bound)
        case maxLength(Int)
        case minLength(Int)
        case pattern(Pattern)
        case format(String)
        /// `items` as one schema: every item.
        case items(Int)
        /// `items` as an array: the item at each position.
        case positionalItems([Int])
        /// `additionalItems` (or 2020-12's `items`, `keyword`): the items after the first `after` (those of
        /// positional `items` or `prefixItems`).
        case additionalItems(Int, after: Int, keyword: String)
        case maxItems(Int)
        case minItems(Int)
        case uniqueItems
        /// `contains` with 2019-09's `minContains`/`maxContains` (1 and none by default); in 2020-12 the items it
        /// matches count as evaluated (`annotates`).
        case contains(Int, minimum: Int, maximum: Int?, annotates: Bool)
        case maxProperties(Int)
        case minProperties(Int)
        case required([String])
        /// `properties`, sorted by name.
        case properties([(name: String, node: Int)])
        case patternProperties([(pattern: Pattern, node: Int)])
        /// `additionalProperties`: the members neither named in `properties` nor matched by `patternProperties`.
        case additionalProperties(Int, declared: Set<String>, patterns: [Pattern])
        /// `dependentRequired`, or the array members of `dependencies` (`keyword` says which).
        case dependentRequired([(name: String, required: [String])], keyword: String)
        /// `dependentSchemas`, or the schema members of `dependencies` (`keyword` says which).
        case dependentSchemas([(name: String, node: Int)], keyword: String)
        case propertyNames(Int)
        case conditional(if: Int, then: Int?, else: Int?)
        case allOf([Int])
        case anyOf([Int])
        case oneOf([Int])
        case not(Int)
        /// `$ref`, resolved once the whole document is compiled.
        case reference(Int, text: String, keyword: String)
        /// `$dynamicRef` or `$recursiveRef` (`keyword`): the target found statically, or, when `anchor` is set (the
        /// dynamic anchor's name; empty for `$recursiveAnchor`), the outermost schema resource in the dynamic scope
        /// that declares it.
        case dynamicReference(Int, anchor: String?, text: String, keyword: String)
        case unevaluatedItems(Int)
        case unevaluatedProperties(Int)

        var kind: KeywordKind {
            switch self {
            case .reference: .reference
            case .dynamicReference: .dynamicReference
            case .allOf: .allOf
            case .anyOf: .anyOf
            case .oneOf: .oneOf
            case .not: .not
            case .conditional: .conditional
            case .dependentSchemas: .dependentSchemas
            case .items: .items
            case .positionalItems: .positionalItems
            case .additionalItems: .additionalItems
            case .unevaluatedItems: .unevaluatedItems
            case .contains: .contains
            case .properties: .properties
            case .patternProperties: .patternProperties
            case .additionalProperties: .additionalProperties
            case .unevaluatedProperties: .unevaluatedProperties
            case .propertyNames: .propertyNames
            default: .assertion
            }
        }
    }

    /// Which function evaluates a keyword (see `Evaluator.handler(_:)`).
    enum KeywordKind {
        case reference, dynamicReference, allOf, anyOf, oneOf, not, conditional, dependentSchemas, items, positionalItems, additionalItems,
             unevaluatedItems, contains, properties, patternProperties, additionalProperties, unevaluatedProperties,
             propertyNames, assertion
    }

    /// A JSON type name, as `type` lists them.
    enum InstanceType: String, Sendable, CaseIterable {
        case null, boolean, object, array, number, string, integer

        /// Whether `value` is of this type; an integer is a number without a fraction (`2.0` is one).
        func includes(_ value: JSONValue) -> Bool {
            switch (self, value) {
            case (.null, .null), (.boolean, .bool), (.object, .object), (.array, .array), (.string, .string): true
            case (.number, .int), (.number, .double), (.number, .decimal), (.integer, .int): true
            case (.integer, .double(let number)): number.isFinite && number.rounded() == number
            case (.integer, .decimal): value.exactNumber?.isWhole ?? false
            default: false
            }
        }

        /// `a string`, `an integer`, `null`.
        var phrase: String {
            switch self {
            case .null: "null"
            case .integer, .object, .array: "an \(rawValue)"
            default: "a \(rawValue)"
            }
        }
    }

    /// `maximum`, `exclusiveMaximum`, `minimum` or `exclusiveMinimum`.
    struct Bound: Sendable {
        let limit: JSONValue
        let isMaximum: Bool
        let isExclusive: Bool
        /// The keyword the violation names (`maximum` for OpenAPI 3.0's `exclusiveMaximum: true` too).
        let keyword: String
    }

    /// A regular expression from the schema (`pattern`, a `patternProperties` name), compiled once.
    struct Pattern: Sendable {
        let source: String
        let regex: NSRegularExpression

        /// Whether it matches anywhere in `text` (ECMA-262 patterns are not anchored).
        func isFound(in text: String) -> Bool {
            regex.firstMatch(in: text, range: NSRange(location: 0, length: text.utf16.count)) != nil
        }
    }
}

extension JSONValue {
    /// How a value is named in a message: `a number (5)`, `a string ("abc")`, `an array`, `null`.
    var schemaKind: String {
        switch self {
        case .null: "null"
        case .bool(let flag): "\(flag)"
        case .int, .double, .decimal: "a number (\(self))"
        case .string(let text): "a string (\"\(text.clipped(to: 40))\")"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The value as it is quoted in a message: its JSON, shortened.
    var schemaQuote: String {
        switch self {
        case .array(let items): "the array of \(items.count) item\(items.count == 1 ? "" : "s")"
        case .object: "the object"
        default: description.clipped(to: 60)
        }
    }
}
