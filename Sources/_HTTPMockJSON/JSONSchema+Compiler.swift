import Foundation

extension JSONSchema {
    /// Turns a schema document into ``Node``s: every keyword's value checked and converted once, so evaluating
    /// does no parsing. Subschemas are compiled once each, keyed by their place (a document and a JSON pointer in it),
    /// which is also how a reference finds its target (see `JSONSchema+References.swift`, and
    /// `JSONSchema+Resources.swift` for base URIs and the documents the caller gives).
    ///
    /// Refused, each with a message naming the keyword's place: a keyword value of the wrong type; a `pattern`
    /// or `patternProperties` name that is not a regular expression; a reference that does not resolve, or leads to a
    /// document not among the `resources`; a `"$schema"` other than drafts 4 to 2020-12 or a meta-schema among the
    /// `resources`; an anchor declared twice in one resource; `"$recursiveRef"` other than `"#"`; 2020-12's `items`
    /// as an array.
    struct Compiler {
        /// The draft of the document being compiled.
        var draft: Draft
        /// Whether the validation vocabulary applies to the document being compiled.
        var assertions = true
        let openAPI30: Bool
        /// The documents the caller gave, by URI (`http://localhost:1234/name.json`).
        let registry: [String: JSONValue]
        /// The schema's document first, then those of the registry that references reached.
        var documents: [Document] = []
        /// Registry entries not loaded yet.
        var unloaded: Set<String>
        var nodes: [Node] = []
        /// Node indices by place.
        var compiled: [Spot: Int] = [:]
        /// Schema resources by URI (no fragment): the document's, and those `$id`s embed.
        var resources: [String: Spot] = [:]
        /// Places by `resource-URI#name`: `$anchor`, `$dynamicAnchor`, or draft 4 to 7's `"$id": "#name"`.
        var anchors: [String: Spot] = [:]
        /// Places compiled whether referred to or not: `$dynamicAnchor`s and `$recursiveAnchor: true` resources,
        /// which a dynamic reference may reach at evaluation time; with the base URI around each.
        var eager: [(spot: Spot, base: String)] = []
        /// Each node's base URI.
        var nodeBases: [String] = []
        /// Each node's document.
        var nodeDocuments: [Int] = []
        /// Schema resources reached, by URI, numbered for the dynamic scope.
        var resourceIndices: [String: Int] = [:]
        /// `$dynamicAnchor`s: resource → name → node.
        var dynamicAnchors: [Int: [String: Int]] = [:]
        /// Resources whose root has `$recursiveAnchor: true`: resource → node.
        var recursiveRoots: [Int: Int] = [:]
        /// The `$dynamicAnchor` each node declares.
        var declaredDynamicAnchors: [Int: String] = [:]
        /// References to resolve once everything reachable is compiled: which keyword of which node.
        var pending: [(node: Int, keyword: Int, text: String, location: String)] = []
        /// Object schemas with a node but no keywords yet. Compiling a schema queues its subschemas here rather
        /// than compiling them inside it, so a deeply nested document does not nest calls.
        private var waiting: [(object: [String: JSONValue], spot: Spot, node: Int)] = []
        /// The indices in `pending` already resolved.
        var resolvedReferences: Set<Int> = []
        /// The document of the schema being compiled.
        var current = 0
        /// The node whose keywords are being compiled.
        var compilingNode = 0

        init(draft: Draft, openAPI30: Bool, registry: [String: JSONValue]) {
            self.draft = draft
            self.openAPI30 = openAPI30
            self.registry = registry
            self.unloaded = Set(registry.keys)
        }

        /// Compiles `document`, a whole schema.
        mutating func compileDocument(_ document: JSONValue) throws(JSONSchemaError) {
            var assertions = true
            if case .object(let root) = document, let declared = root["$schema"] {
                (draft, assertions) = try dialect(declared)
            }
            let uri = Self.documentURI(document, draft: draft, given: Self.anonymousBase)
            documents.append(Document(uri: uri, value: document, draft: draft, assertions: assertions))
            resources[Self.anonymousBase] = Spot(document: 0, pointer: "")
            scan(0)
            _ = try compile(document, at: Spot(document: 0, pointer: ""), base: uri)
            try finish()
        }

        /// Compiles the schema at `pointer` of `document` (which is no schema itself) and what it refers to.
        mutating func compileSchema(_ schema: JSONValue, at pointer: String, in document: JSONValue) throws(JSONSchemaError) {
            documents.append(Document(uri: Self.anonymousBase, value: document, draft: draft, assertions: true))
            resources[Self.anonymousBase] = Spot(document: 0, pointer: "")
            scan(0, from: (schema, pointer))
            _ = try compile(schema, at: Spot(document: 0, pointer: pointer), within: Self.anonymousBase)
            try finish()
        }

        private mutating func finish() throws(JSONSchemaError) {
            var next = 0
            repeat {
                while next < eager.count {
                    _ = try compile(value(at: eager[next].spot) ?? .bool(true), at: eager[next].spot, within: eager[next].base)
                    next += 1
                }
                try compileWaiting()
                try resolveReferences()
            } while next < eager.count
            settleDynamicReferences()
            collapseReferences()
        }

        /// The value at `spot`, if its pointer leads somewhere.
        func value(at spot: Spot) -> JSONValue? {
            var value = documents[spot.document].value
            guard !spot.pointer.isEmpty else { return value }
            for escaped in spot.pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
                guard let token = Self.unescape(escaped) else { return nil }
                switch value {
                case .object(let members): guard let member = members[token] else { return nil }; value = member
                case .array(let elements):
                    guard let index = Int(token), elements.indices.contains(index) else { return nil }
                    value = elements[index]
                default: return nil
                }
            }
            return value
        }

        /// How a place is named in messages: a JSON pointer in the schema's document, a URI and pointer elsewhere.
        func location(_ spot: Spot) -> String {
            spot.document == 0 ? spot.pointer : "\(documents[spot.document].uri)#\(spot.pointer)"
        }

        /// Compiles the queued object schemas (and those they queue), in the order they were found.
        mutating func compileWaiting() throws(JSONSchemaError) {
            var next = 0
            while next < waiting.count {
                let (object, spot, index) = waiting[next]
                next += 1
                current = spot.document
                draft = documents[current].draft
                assertions = documents[current].assertions
                compilingNode = index
                let keywords = try keywords(of: object, at: location(spot), node: index)
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

        /// The node for the schema at `location` of the current document, inside a schema whose base URI is the node's.
        mutating func compile(_ value: JSONValue, at location: String) throws(JSONSchemaError) -> Int {
            let spot = Spot(document: current, pointer: pointer(of: location))
            return try compile(value, at: spot, within: nodeBases[compilingNode])
        }

        /// The pointer of `location` (a message's name for a place) in the current document.
        func pointer(of location: String) -> String {
            guard current != 0 else { return location }
            let prefix = documents[current].uri + "#"
            return location.hasPrefix(prefix) ? String(location.dropFirst(prefix.count)) : location
        }

        /// The node for the schema at `spot`, inside a schema whose base URI is `outer`.
        mutating func compile(_ value: JSONValue, at spot: Spot, within outer: String) throws(JSONSchemaError) -> Int {
            var base = outer
            if case .object(let object) = value { base = Self.base(of: object, within: outer, draft: documents[spot.document].draft) }
            return try compile(value, at: spot, base: base)
        }

        /// The node for the schema at `spot`, whose base URI is `base`: `true` or `false` at once, an object's keywords
        /// queued (see ``compileWaiting()``). One node for each place, however many keywords and references lead to it.
        mutating func compile(_ value: JSONValue, at spot: Spot, base: String) throws(JSONSchemaError) -> Int {
            if let index = compiled[spot] { return index }
            let index = nodes.count
            let resource: Int
            if let known = resourceIndices[base] { resource = known } else {
                resource = resourceIndices.count
                resourceIndices[base] = resource
            }
            switch value {
            case .bool(let flag):
                nodes.append(Node(body: .always(flag), location: location(spot), resource: resource))
            case .object(let object):
                nodes.append(Node(body: .always(true), location: location(spot), resource: resource))
                waiting.append((object, spot, index))
            default:
                throw failure(location(spot), "expected a schema (an object, true or false), not \(value.schemaKind)")
            }
            nodeBases.append(base)
            nodeDocuments.append(spot.document)
            compiled[spot] = index
            return index
        }

        /// The keywords of an object schema, in the order they are evaluated.
        private mutating func keywords(of object: [String: JSONValue], at location: String, node: Int) throws(JSONSchemaError) -> [Keyword] {
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
                    throw failure(place, "\"$recursiveRef\" must be \"#\" (the schema resource it is in), not \"\(text)\"; use \"$ref\" to refer elsewhere")
                }
                pending.append((node, keywords.count, text, place))
                keywords.append(key == "$ref" ? .reference(-1, text: text, keyword: key)
                                              : .dynamicReference(-1, anchor: nil, text: text, keyword: key))
            }
            // Draft 7: "All other properties in a "$ref" object MUST be ignored."
            if draft <= .draft7, object["$ref"] != nil {
                try reference("$ref")
                return keywords
            }
            try reference("$ref")
            if draft == .draft2019_09 { try reference("$recursiveRef") }
            if draft >= .draft2020_12 { try reference("$dynamicRef") }
            guard assertions else {
                // A meta-schema whose `$vocabulary` leaves out validation: only the applicators apply.
                var applicators = try arrayKeywords(object, at: location)
                applicators += try objectKeywords(object, at: location)
                applicators += try applicatorKeywords(object, at: location)
                applicators += try unevaluatedKeywords(object, at: location)
                return keywords + applicators.filter { $0.kind != .assertion }
            }

            try typeKeyword(object, at: location).map { keywords.append($0) }
            if let value = object["enum"] {
                guard case .array(let values) = value else {
                    throw failure(Self.child(location, "enum"), "\"enum\" must be an array of the allowed values, not \(value.schemaKind)")
                }
                keywords.append(.enumeration(values))
            }
            if draft >= .draft6, let value = object["const"] { keywords.append(.constant(value)) }
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
            keywords += try unevaluatedKeywords(object, at: location)
            return keywords
        }

        private mutating func unevaluatedKeywords(_ object: [String: JSONValue], at location: String) throws(JSONSchemaError) -> [Keyword] {
            guard draft >= .draft2019_09 else { return [] }
            var keywords: [Keyword] = []
            if let value = object["unevaluatedItems"] {
                keywords.append(.unevaluatedItems(try compile(value, at: Self.child(location, "unevaluatedItems"))))
            }
            if let value = object["unevaluatedProperties"] {
                keywords.append(.unevaluatedProperties(try compile(value, at: Self.child(location, "unevaluatedProperties"))))
            }
            return keywords
        }
    }
}
