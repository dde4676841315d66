import Foundation

/// The keywords of an object schema by group, each value checked and converted (see `keywords(of:at:node:)`).
extension JSONSchema.Compiler {
    typealias Keyword = JSONSchema.Keyword
    typealias Bound = JSONSchema.Bound
    typealias Pattern = JSONSchema.Pattern
    typealias InstanceType = JSONSchema.InstanceType

    /// `type`, with `null` added by OpenAPI 3.0's `nullable: true`.
    func typeKeyword(_ object: [String: JSONValue], at location: String) throws(JSONSchemaError) -> Keyword? {
        var nullable = false
        if openAPI30, let value = object["nullable"] {
            guard case .bool(let flag) = value else {
                throw failure(Self.child(location, "nullable"), "\"nullable\" must be true or false, not \(value.schemaKind)")
            }
            nullable = flag
        }
        guard let value = object["type"] else { return nil }
        let place = Self.child(location, "type")
        func name(_ value: JSONValue) throws(JSONSchemaError) -> InstanceType {
            if case .string(let text) = value, let type = InstanceType(rawValue: text) { return type }
            let aliases = ["int": "integer", "bool": "boolean", "float": "number", "double": "number", "map": "object",
                           "dictionary": "object", "list": "array", "str": "string", "nil": "null"]
            var hint = ""
            if case .string(let text) = value, let alias = aliases[text.lowercased()] ?? InstanceType(rawValue: text.lowercased())?.rawValue {
                hint = " (did you mean \"\(alias)\"?)"
            }
            throw failure(place, "\"type\" must name null, boolean, object, array, number, string or integer (or be an array of those names), not \(value.schemaKind)\(hint)")
        }
        var types: [InstanceType]
        if case .array(let names) = value {
            guard !names.isEmpty else { throw failure(place, "\"type\" must not be an empty array: name at least one type") }
            types = []
            for element in names { types.append(try name(element)) }
        } else {
            types = [try name(value)]
        }
        if nullable, !types.contains(.null) { types.append(.null) }
        return .type(types)
    }

    /// `maximum`, `exclusiveMaximum`, `minimum`, `exclusiveMinimum` (OpenAPI 3.0: draft 4's booleans too).
    func boundKeywords(_ object: [String: JSONValue], at location: String) throws(JSONSchemaError) -> [Keyword] {
        var bounds: [Keyword] = []
        for (plain, exclusive, isMaximum) in [("maximum", "exclusiveMaximum", true), ("minimum", "exclusiveMinimum", false)] {
            var plainIsExclusive = false
            if case .bool(let flag) = object[exclusive] {
                guard openAPI30 || draft == .draft4 else {
                    throw failure(Self.child(location, exclusive), "\"\(exclusive)\" must be a number, not \(flag): draft 4's boolean form is not supported; write the limit itself (\"\(exclusive)\": 10) in place of \"\(plain)\"")
                }
                plainIsExclusive = flag
            } else if let limit = try number(object, exclusive, at: location) {
                bounds.append(.bound(Bound(limit: limit, isMaximum: isMaximum, isExclusive: true, keyword: exclusive)))
            }
            if let limit = try number(object, plain, at: location) {
                bounds.append(.bound(Bound(limit: limit, isMaximum: isMaximum, isExclusive: plainIsExclusive,
                                           keyword: plainIsExclusive ? exclusive : plain)))
            }
        }
        return bounds
    }

    /// `items`, `additionalItems`, `maxItems`, `minItems`, `uniqueItems`, `contains` (+ `minContains`/`maxContains`).
    mutating func arrayKeywords(_ object: [String: JSONValue], at location: String) throws(JSONSchemaError) -> [Keyword] {
        var keywords: [Keyword] = []
        if draft >= .draft2020_12 {
            // 2020-12: `prefixItems` by position, `items` for the rest (draft 2019-09's `additionalItems`).
            let prefix = try schemaArray(object, "prefixItems", at: location, allowsEmpty: false)
            if let prefix { keywords.append(.positionalItems(prefix)) }
            if case .array? = object["items"] {
                throw failure(Self.child(location, "items"), "\"items\" must be one schema in draft 2020-12, not an array; write the array as \"prefixItems\" (and what \"additionalItems\" said as \"items\")")
            } else if let value = object["items"] {
                let node = try compile(value, at: Self.child(location, "items"))
                keywords.append(prefix.map { .additionalItems(node, after: $0.count, keyword: "items") } ?? .items(node))
            }
        } else {
            // `additionalItems` applies after an `items` array only; elsewhere it is ignored, but checked.
            let additional = try object["additionalItems"].map { (value) throws(JSONSchemaError) in
                try compile(value, at: Self.child(location, "additionalItems"))
            }
            if case .array? = object["items"] {
                let positions = try schemaArray(object, "items", at: location, allowsEmpty: true) ?? []
                keywords.append(.positionalItems(positions))
                if let additional { keywords.append(.additionalItems(additional, after: positions.count, keyword: "additionalItems")) }
            } else if let value = object["items"] {
                keywords.append(.items(try compile(value, at: Self.child(location, "items"))))
            }
        }
        try count(object, "maxItems", at: location).map { keywords.append(.maxItems($0)) }
        try count(object, "minItems", at: location).map { keywords.append(.minItems($0)) }
        if let value = object["uniqueItems"] {
            guard case .bool(let unique) = value else {
                throw failure(Self.child(location, "uniqueItems"), "\"uniqueItems\" must be true or false, not \(value.schemaKind)")
            }
            if unique { keywords.append(.uniqueItems) }
        }
        if draft >= .draft6, let value = object["contains"] {
            let node = try compile(value, at: Self.child(location, "contains"))
            let modern = draft >= .draft2019_09
            let minimum = modern ? try count(object, "minContains", at: location) ?? 1 : 1
            let maximum = modern ? try count(object, "maxContains", at: location) : nil
            keywords.append(.contains(node, minimum: minimum, maximum: maximum, annotates: draft >= .draft2020_12))
        }
        return keywords
    }

    /// `maxProperties` … `propertyNames`, with draft 7's `dependencies`.
    mutating func objectKeywords(_ object: [String: JSONValue], at location: String) throws(JSONSchemaError) -> [Keyword] {
        var keywords: [Keyword] = []
        try count(object, "maxProperties", at: location).map { keywords.append(.maxProperties($0)) }
        try count(object, "minProperties", at: location).map { keywords.append(.minProperties($0)) }
        if let value = object["required"] {
            keywords.append(.required(try names(value, at: Self.child(location, "required"), keyword: "required")))
        }
        if let properties = try schemaMap(object, "properties", at: location) {
            keywords.append(.properties(properties))
        }
        var patterns: [(pattern: Pattern, node: Int)] = []
        if case .object(let members)? = object["patternProperties"] {
            let place = Self.child(location, "patternProperties")
            for source in members.keys.sorted() {
                let pattern = try pattern(.string(source), at: Self.child(place, source), keyword: "patternProperties")
                patterns.append((pattern, try compile(members[source]!, at: Self.child(place, source))))
            }
            keywords.append(.patternProperties(patterns))
        } else if let value = object["patternProperties"] {
            throw failure(Self.child(location, "patternProperties"), "\"patternProperties\" must be an object of regular expressions and schemas, not \(value.schemaKind)")
        }
        if let value = object["additionalProperties"] {
            var declared: Set<String> = []
            if case .object(let members)? = object["properties"] { declared = Set(members.keys) }
            keywords.append(.additionalProperties(try compile(value, at: Self.child(location, "additionalProperties")),
                                                  declared: declared, patterns: patterns.map(\.pattern)))
        }
        var dependencyKeys = ["dependencies"]
        if draft >= .draft2019_09 { dependencyKeys += ["dependentRequired", "dependentSchemas"] }
        for key in dependencyKeys {
            guard let value = object[key] else { continue }
            let place = Self.child(location, key)
            guard case .object(let members) = value else {
                throw failure(place, "\"\(key)\" must be an object whose members are property names, not \(value.schemaKind)")
            }
            var required: [(name: String, required: [String])] = []
            var schemas: [(name: String, node: Int)] = []
            for name in members.keys.sorted() {
                let member = members[name]!
                if key != "dependentSchemas", case .array = member {
                    required.append((name, try names(member, at: Self.child(place, name), keyword: key)))
                } else if key != "dependentRequired" {
                    schemas.append((name, try compile(member, at: Self.child(place, name))))
                } else {
                    throw failure(Self.child(place, name), "each member of \"dependentRequired\" must be an array of property names, not \(member.schemaKind)")
                }
            }
            if !required.isEmpty { keywords.append(.dependentRequired(required, keyword: key)) }
            if !schemas.isEmpty { keywords.append(.dependentSchemas(schemas, keyword: key)) }
        }
        if draft >= .draft6, let value = object["propertyNames"] {
            keywords.append(.propertyNames(try compile(value, at: Self.child(location, "propertyNames"))))
        }
        return keywords
    }

    /// `if`/`then`/`else`, `allOf`, `anyOf`, `oneOf`, `not`.
    mutating func applicatorKeywords(_ object: [String: JSONValue], at location: String) throws(JSONSchemaError) -> [Keyword] {
        var keywords: [Keyword] = []
        // `then` and `else` do nothing without `if`, but are checked.
        let then = try object["then"].map { (value) throws(JSONSchemaError) in try compile(value, at: Self.child(location, "then")) }
        let otherwise = try object["else"].map { (value) throws(JSONSchemaError) in try compile(value, at: Self.child(location, "else")) }
        if draft >= .draft7, let value = object["if"] {
            keywords.append(.conditional(if: try compile(value, at: Self.child(location, "if")), then: then, else: otherwise))
        }
        try schemaArray(object, "allOf", at: location, allowsEmpty: false).map { keywords.append(.allOf($0)) }
        try schemaArray(object, "anyOf", at: location, allowsEmpty: false).map { keywords.append(.anyOf($0)) }
        try schemaArray(object, "oneOf", at: location, allowsEmpty: false).map { keywords.append(.oneOf($0)) }
        if let value = object["not"] { keywords.append(.not(try compile(value, at: Self.child(location, "not")))) }
        return keywords
    }
}
