import Foundation

extension JSONSchema {
    /// Turns a schema document into ``Node``s: every keyword's value checked and converted once, so evaluating
    /// does no parsing. Subschemas are compiled once each, keyed by their place in the document, which is also
    /// how a `$ref` finds its target (see `JSONSchema+References.swift`).
    ///
    /// Refused, each with a message naming the keyword's place: a keyword value of the wrong type; a `pattern`
    /// or `patternProperties` name that is not a regular expression; a `$ref` that does not resolve or leads out of
    /// the document; a `"$schema"` other than drafts 6, 7 and 2019-09; an `"$id"` below the top level that is not a
    /// plain `#name` (a separate schema resource); `"$recursiveRef"` other than `"#"`.
    struct Compiler {
        let document: JSONValue
        var draft: Draft
        let openAPI30: Bool
        var nodes: [Node] = []
        /// Node indices by place in the document (a JSON pointer, escaped).
        var compiled: [String: Int] = [:]
        /// Node indices by `$anchor` name (or draft 7's `"$id": "#name"`).
        var anchors: [String: Int] = [:]
        /// References to resolve once everything reachable is compiled: which keyword of which node.
        var pending: [(node: Int, keyword: Int, text: String, location: String)] = []
        /// Object schemas with a node but no keywords yet. Compiling a schema queues its subschemas here rather
        /// than compiling them inside it, so a deeply nested document does not nest calls.
        private var waiting: [(object: [String: JSONValue], location: String, node: Int)] = []
        /// The top-level `$id` without its fragment: a `$ref` to it is a reference inside the document.
        var baseURI: String?

        init(document: JSONValue, draft: Draft, openAPI30: Bool) {
            self.document = document
            self.draft = draft
            self.openAPI30 = openAPI30
        }

        mutating func compileDocument() throws(JSONSchemaError) {
            if case .object(let root) = document, let declared = root["$schema"] {
                draft = try Self.draft(declared)
            }
            _ = try compile(document, at: "")
            try compileWaiting()
            try resolveReferences()
            collapseReferences()
        }

        /// Compiles the schema at `pointer` of the document (which is no schema itself) and what it refers to.
        mutating func compileSchema(_ schema: JSONValue, at pointer: String) throws(JSONSchemaError) {
            _ = try compile(schema, at: pointer)
            try compileWaiting()
            try resolveReferences()
            collapseReferences()
        }

        /// Compiles the queued object schemas (and those they queue), in the order they were found.
        mutating func compileWaiting() throws(JSONSchemaError) {
            var next = 0
            while next < waiting.count {
                let (object, location, index) = waiting[next]
                next += 1
                let keywords = try keywords(of: object, at: location, node: index)
                nodes[index].body = .keywords(keywords)
                nodes[index].tracksEvaluation = keywords.contains {
                    switch $0 {
                    case .unevaluatedItems, .unevaluatedProperties: true
                    default: false
                    }
                }
            }
            waiting.removeAll()
        }

        func failure(_ location: String, _ problem: String) -> JSONSchemaError {
            JSONSchemaError("JSON schema at \(location.isEmpty ? "the top level" : location): \(problem)")
        }

        /// The node for the schema at `location`: `true` or `false` at once, an object's keywords queued (see
        /// ``compileWaiting()``). One node for each place, however many keywords and references lead to it.
        mutating func compile(_ value: JSONValue, at location: String) throws(JSONSchemaError) -> Int {
            if let index = compiled[location] { return index }
            let index = nodes.count
            switch value {
            case .bool(let flag):
                nodes.append(Node(body: .always(flag), location: location))
                compiled[location] = index
            case .object(let object):
                nodes.append(Node(body: .always(true), location: location))
                compiled[location] = index
                waiting.append((object, location, index))
            default:
                throw failure(location, "expected a schema (an object, true or false), not \(value.schemaKind)")
            }
            return index
        }

        /// The keywords of an object schema, in the order they are evaluated.
        private mutating func keywords(of object: [String: JSONValue], at location: String, node: Int) throws(JSONSchemaError) -> [Keyword] {
            let modern = draft == .draft2019_09
            try identify(object, at: location, node: node)
            // Compiled even where nothing applies them, so `$ref`s find them and their mistakes are reported.
            for container in ["definitions", "$defs"] { _ = try schemaMap(object, container, at: location) }
            var keywords: [Keyword] = []
            func reference(_ key: String) throws(JSONSchemaError) {
                guard let value = object[key] else { return }
                let place = Self.child(location, key)
                guard case .string(let text) = value else {
                    throw failure(place, "\"\(key)\" must be a string (\"#/$defs/name\"), not \(value.schemaKind)")
                }
                if key == "$recursiveRef", text != "#" {
                    throw failure(place, "\"$recursiveRef\" must be \"#\" in a document without \"$id\"s, not \"\(text)\"; use \"$ref\" to refer elsewhere")
                }
                pending.append((node, keywords.count, text, place))
                keywords.append(.reference(-1, text: text, keyword: key))
            }
            // Draft 7: "All other properties in a "$ref" object MUST be ignored."
            if !modern, object["$ref"] != nil {
                try reference("$ref")
                return keywords
            }
            try reference("$ref")
            if modern { try reference("$recursiveRef") }

            try typeKeyword(object, at: location).map { keywords.append($0) }
            if let value = object["enum"] {
                guard case .array(let values) = value else {
                    throw failure(Self.child(location, "enum"), "\"enum\" must be an array of the allowed values, not \(value.schemaKind)")
                }
                keywords.append(.enumeration(values))
            }
            if let value = object["const"] { keywords.append(.constant(value)) }
            if let divisor = try number(object, "multipleOf", at: location) {
                guard (divisor.number ?? 0) > 0 else {
                    throw failure(Self.child(location, "multipleOf"), "\"multipleOf\" must be greater than 0, not \(divisor)")
                }
                keywords.append(.multipleOf(divisor))
            }
            keywords += try boundKeywords(object, at: location)
            try count(object, "maxLength", at: location).map { keywords.append(.maxLength($0)) }
            try count(object, "minLength", at: location).map { keywords.append(.minLength($0)) }
            if let value = object["pattern"] {
                keywords.append(.pattern(try pattern(value, at: Self.child(location, "pattern"), keyword: "pattern")))
            }
            if let value = object["format"] {
                guard case .string(let format) = value else {
                    throw failure(Self.child(location, "format"), "\"format\" must be a string (\"date-time\"), not \(value.schemaKind)")
                }
                keywords.append(.format(format))
            }
            keywords += try arrayKeywords(object, at: location)
            keywords += try objectKeywords(object, at: location)
            keywords += try applicatorKeywords(object, at: location)
            if modern, let value = object["unevaluatedItems"] {
                keywords.append(.unevaluatedItems(try compile(value, at: Self.child(location, "unevaluatedItems"))))
            }
            if modern, let value = object["unevaluatedProperties"] {
                keywords.append(.unevaluatedProperties(try compile(value, at: Self.child(location, "unevaluatedProperties"))))
            }
            return keywords
        }
    }
}
