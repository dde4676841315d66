import Foundation

/// Schema resources: the documents a schema may refer to (itself, and those the caller gives by URI), the
/// resources `$id`s embed in them, and their anchors. Base URIs are resolved as RFC 3986 says, URNs included.
extension JSONSchema.Compiler {
    /// A document: the schema itself (the first) or one of the `resources` the caller gave, once referred to.
    struct Document {
        let uri: String
        let value: JSONValue
        let draft: JSONSchema.Draft
        /// Whether the validation vocabulary applies (off when a custom meta-schema's `$vocabulary` leaves it out).
        let assertions: Bool
    }

    /// Where a schema is: a document and a JSON pointer (escaped) in it.
    struct Spot: Hashable {
        let document: Int
        let pointer: String
    }

    /// The base URI given to a document without `$id`, so references inside it resolve.
    static let anonymousBase = "urn:httpmock:schema"

    /// The keyword that names a resource in `draft`.
    static func idKeyword(_ draft: JSONSchema.Draft) -> String { draft == .draft4 ? "id" : "$id" }

    /// The base URI inside `object` (a schema) whose enclosing base is `base`: its `$id` resolved, without fragment;
    /// `base` itself when it has none, or when draft 4 to 7 ignore it beside a `$ref`.
    static func base(of object: [String: JSONValue], within base: String, draft: JSONSchema.Draft) -> String {
        guard case .string(let id)? = object[idKeyword(draft)], !id.hasPrefix("#") else { return base }
        if draft <= .draft7, object["$ref"] != nil { return base }
        return URIReference.withoutFragment(URIReference.resolve(id, against: base))
    }

    /// Notes every resource, anchor, `$dynamicAnchor` and `$recursiveAnchor: true` of document `index`, walking its
    /// schemas (not values such as `enum`'s, nor unknown keywords) with an explicit stack.
    /// `from` starts the walk at a schema inside a document that is not one itself (an OpenAPI document's).
    mutating func scan(_ index: Int, from start: (value: JSONValue, pointer: String)? = nil) {
        let document = documents[index]
        let draft = document.draft
        var stack: [(value: JSONValue, pointer: String, base: String)] = [(start?.value ?? document.value, start?.pointer ?? "", document.uri)]
        resources[document.uri] = resources[document.uri] ?? Spot(document: index, pointer: "")
        while let (value, pointer, outer) = stack.popLast() {
            guard case .object(let object) = value else { continue }
            let base = Self.base(of: object, within: outer, draft: draft)
            let spot = Spot(document: index, pointer: pointer)
            if base != outer, resources[base] == nil { resources[base] = spot }
            if case .string(let id)? = object[Self.idKeyword(draft)], draft <= .draft7, object["$ref"] == nil {
                let resolved = URIReference.resolve(id, against: outer)
                if let hash = resolved.firstIndex(of: "#"), resolved.index(after: hash) < resolved.endIndex {
                    let name = String(resolved[resolved.index(after: hash)...])
                    if anchors[base + "#" + name] == nil { anchors[base + "#" + name] = spot }
                }
            }
            if draft >= .draft2019_09, case .string(let name)? = object["$anchor"], anchors[base + "#" + name] == nil {
                anchors[base + "#" + name] = spot
            }
            if draft >= .draft2020_12, case .string(let name)? = object["$dynamicAnchor"] {
                if anchors[base + "#" + name] == nil { anchors[base + "#" + name] = spot }
                eager.append((spot, outer))
            }
            if draft == .draft2019_09, case .bool(true)? = object["$recursiveAnchor"] { eager.append((spot, outer)) }
            for (key, member) in object {
                let place = Self.child(pointer, key)
                switch key {
                case "items", "prefixItems", "allOf", "anyOf", "oneOf":
                    if case .array(let elements) = member {
                        for (position, element) in elements.enumerated() { stack.append((element, place + "/\(position)", base)) }
                    } else {
                        stack.append((member, place, base))
                    }
                case "additionalItems", "additionalProperties", "unevaluatedItems", "unevaluatedProperties", "contains",
                     "propertyNames", "not", "if", "then", "else":
                    stack.append((member, place, base))
                case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies":
                    guard case .object(let members) = member else { continue }
                    for (name, schema) in members { stack.append((schema, Self.child(place, name), base)) }
                default:
                    continue
                }
            }
        }
    }

    /// The document `uri` names among the caller's resources, added and scanned; `nil` when none has that URI.
    mutating func load(_ uri: String, draft: JSONSchema.Draft) -> Int? {
        let given = unloaded.contains(uri) ? uri : uri + "#"
        guard unloaded.remove(given) != nil, let value = registry[given] else { return nil }
        var documentDraft = draft
        if case .object(let object) = value, let declared = object["$schema"], let known = try? Self.draft(declared) {
            documentDraft = known
        }
        let uri = Self.documentURI(value, draft: documentDraft, given: uri)
        documents.append(Document(uri: uri, value: value, draft: documentDraft, assertions: true))
        resources[URIReference.withoutFragment(given)] = resources[URIReference.withoutFragment(given)] ?? Spot(document: documents.count - 1, pointer: "")
        scan(documents.count - 1)
        return documents.count - 1
    }

    /// A document's base URI: its `$id`, resolved against the URI it was given by.
    static func documentURI(_ value: JSONValue, draft: JSONSchema.Draft, given: String) -> String {
        guard case .object(let object) = value else { return given }
        return base(of: object, within: given, draft: draft)
    }
}

/// RFC 3986's reference resolution (section 5.2), for base URIs and `$ref`s: URLs and URNs alike.
enum URIReference {
    struct Parts {
        var scheme: String?
        var authority: String?
        var path: String
        var query: String?
        var fragment: String?

        init(_ text: String) {
            var rest = Substring(text)
            if let hash = rest.firstIndex(of: "#") {
                fragment = String(rest[rest.index(after: hash)...])
                rest = rest[..<hash]
            }
            if let mark = rest.firstIndex(of: "?") {
                query = String(rest[rest.index(after: mark)...])
                rest = rest[..<mark]
            }
            if let colon = rest.firstIndex(of: ":"), !rest[..<colon].contains("/"), let first = rest.first, first.isLetter,
               rest[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) {
                scheme = String(rest[..<colon])
                rest = rest[rest.index(after: colon)...]
            }
            if rest.hasPrefix("//") {
                rest = rest.dropFirst(2)
                let end = rest.firstIndex(of: "/") ?? rest.endIndex
                authority = String(rest[..<end])
                rest = rest[end...]
            }
            path = String(rest)
        }

        var text: String {
            var result = ""
            if let scheme { result += scheme + ":" }
            if let authority { result += "//" + authority }
            result += path
            if let query { result += "?" + query }
            if let fragment { result += "#" + fragment }
            return result
        }
    }

    static func withoutFragment(_ uri: String) -> String {
        guard let hash = uri.firstIndex(of: "#") else { return uri }
        return String(uri[..<hash])
    }

    /// `reference` resolved against `base`.
    static func resolve(_ reference: String, against base: String) -> String {
        let r = Parts(reference)
        var b = Parts(base)
        var t = r
        if r.scheme != nil {
            t.path = removeDots(r.path)
        } else {
            t.scheme = b.scheme
            if r.authority != nil {
                t.path = removeDots(r.path)
            } else {
                t.authority = b.authority
                if r.path.isEmpty {
                    t.path = b.path
                    t.query = r.query ?? b.query
                } else if r.path.hasPrefix("/") {
                    t.path = removeDots(r.path)
                } else {
                    if b.authority != nil, b.path.isEmpty {
                        b.path = "/" + r.path
                        t.path = removeDots(b.path)
                    } else if let slash = b.path.lastIndex(of: "/") {
                        t.path = removeDots(String(b.path[...slash]) + r.path)
                    } else {
                        t.path = removeDots(r.path)
                    }
                }
            }
        }
        return t.text
    }

    /// RFC 3986's remove_dot_segments.
    static func removeDots(_ path: String) -> String {
        guard path.contains(".") else { return path }
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (position, segment) in segments.enumerated() {
            let last = position == segments.count - 1
            switch segment {
            case ".":
                if last { output.append("") }
            case "..":
                if output.count > 1 || (output.count == 1 && !output[0].isEmpty) { output.removeLast() }
                if last { output.append("") }
            default:
                output.append(segment)
            }
        }
        let joined = output.joined(separator: "/")
        return path.hasPrefix("/") && !joined.hasPrefix("/") ? "/" + joined : joined
    }
}
