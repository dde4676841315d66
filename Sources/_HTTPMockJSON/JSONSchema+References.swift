import Foundation

/// How a reference finds its target: its URI resolved against the base URI where it is (the `$id`s around it), then
/// the schema resource that URI names (the document, one a `$id` embeds, or one of the caller's `resources`), and in
/// it a JSON pointer (`#/$defs/item`, with `~0`, `~1` and %-escapes) or an anchor (`#item`: `$anchor`,
/// `$dynamicAnchor`, draft 4 to 7's `"$id": "#item"`).
extension JSONSchema.Compiler {
    /// The edition a `"$schema"` names.
    static func draft(_ value: JSONValue) throws(JSONSchemaError) -> JSONSchema.Draft {
        let place = "/$schema"
        func failure(_ problem: String) -> JSONSchemaError { JSONSchemaError("JSON schema at \(place): \(problem)") }
        guard case .string(let uri) = value else {
            throw failure("\"$schema\" must be the URI of a draft, not \(value.schemaKind)")
        }
        switch normalizedDialect(uri) {
        case "http://json-schema.org/draft-04/schema": return .draft4
        case "http://json-schema.org/draft-06/schema": return .draft6
        case "http://json-schema.org/draft-07/schema": return .draft7
        case "http://json-schema.org/draft/2019-09/schema": return .draft2019_09
        case "http://json-schema.org/draft/2020-12/schema": return .draft2020_12
        default:
            throw failure("\"$schema\" names \"\(uri.clipped(to: 80))\", a draft this validator does not read; it reads drafts 4, 6 and 7 (\"http://json-schema.org/draft-07/schema#\"), 2019-09 and 2020-12 (\"https://json-schema.org/draft/2020-12/schema\"), and a meta-schema given in `resources` that declares \"$vocabulary\": change \"$schema\" to one of them, or remove it")
        }
    }

    private static func normalizedDialect(_ uri: String) -> String {
        var normalized = uri.lowercased().replacingOccurrences(of: "https://", with: "http://")
        while normalized.hasSuffix("#") { normalized.removeLast() }
        return normalized
    }

    /// The edition and vocabularies a `"$schema"` names: a draft's URI, or a meta-schema among the `resources` that
    /// declares its `$vocabulary` (without the validation vocabulary, assertions do not apply).
    mutating func dialect(_ value: JSONValue) throws(JSONSchemaError) -> (JSONSchema.Draft, assertions: Bool) {
        do {
            return (try Self.draft(value), true)
        } catch {
            guard case .string(let uri) = value,
                  case .object(let meta)? = registry[URIReference.withoutFragment(uri)] ?? registry[uri],
                  let declared = meta["$schema"], let draft = try? Self.draft(declared), draft >= .draft2019_09 else { throw error }
            guard case .object(let vocabularies)? = meta["$vocabulary"] else { return (draft, true) }
            return (draft, vocabularies.keys.contains { $0.hasSuffix("/vocab/validation") })
        }
    }

    /// Notes the anchors a schema declares (those in places no scan reached, as under an unknown keyword), its
    /// `$dynamicAnchor` and `$recursiveAnchor`.
    mutating func identify(_ object: [String: JSONValue], at location: String, node: Int) throws(JSONSchemaError) {
        let base = nodeBases[node]
        let spot = Spot(document: current, pointer: pointer(of: location))
        let idKey = Self.idKeyword(draft)
        if let value = object[idKey] {
            let place = Self.child(location, idKey)
            guard case .string(let id) = value else {
                throw failure(place, "\"\(idKey)\" must be a URI in a string, not \(value.schemaKind)")
            }
            if draft <= .draft7, object["$ref"] == nil {
                let resolved = URIReference.resolve(id, against: base)
                if let hash = resolved.firstIndex(of: "#"), resolved.index(after: hash) < resolved.endIndex {
                    try declareAnchor(String(resolved[resolved.index(after: hash)...]), in: base, spot: spot, at: place)
                }
            }
        }
        if draft >= .draft2019_09, let value = object["$anchor"] {
            let place = Self.child(location, "$anchor")
            guard case .string(let name) = value, Self.isAnchorName(name) else {
                throw failure(place, "\"$anchor\" must be a name that starts with a letter, followed by letters, digits, \"-\", \"_\", \":\" or \".\", not \(value.schemaKind)")
            }
            try declareAnchor(name, in: base, spot: spot, at: place)
        }
        let resource = nodes[node].resource
        if draft >= .draft2020_12, let value = object["$dynamicAnchor"] {
            let place = Self.child(location, "$dynamicAnchor")
            guard case .string(let name) = value, Self.isAnchorName(name) else {
                throw failure(place, "\"$dynamicAnchor\" must be a name that starts with a letter, followed by letters, digits, \"-\", \"_\", \":\" or \".\", not \(value.schemaKind)")
            }
            try declareAnchor(name, in: base, spot: spot, at: place)
            dynamicAnchors[resource, default: [:]][name] = node
            declaredDynamicAnchors[node] = name
        }
        if draft == .draft2019_09, case .bool(true)? = object["$recursiveAnchor"], resources[base] == spot || spot.pointer.isEmpty {
            recursiveRoots[resource] = node
        }
    }

    private static func isAnchorName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_:.".unicodeScalars.contains($0)) }
    }

    private mutating func declareAnchor(_ name: String, in base: String, spot: Spot, at place: String) throws(JSONSchemaError) {
        let key = base + "#" + name
        if let other = anchors[key], other != spot {
            let there = location(other)
            throw failure(place, "the anchor \"\(name)\" is declared twice in one schema resource, here and at \(there.isEmpty ? "the top level" : there); rename one of them")
        }
        anchors[key] = spot
    }

    /// Points every reference at its node, compiling targets nothing else reached (which may hold more references).
    /// A reference to an anchor no scan found waits until no other can be resolved, in case the anchor is in such a
    /// target.
    mutating func resolveReferences() throws(JSONSchemaError) {
        var unresolved = Array(pending.indices.filter { !resolvedReferences.contains($0) })
        while !unresolved.isEmpty {
            var waitingForAnchor: [Int] = []
            var next = 0
            while next < unresolved.count {
                let reference = pending[unresolved[next]]
                guard let target = try resolve(reference.text, from: reference.node, at: reference.location, finally: false) else {
                    waitingForAnchor.append(unresolved[next])
                    next += 1
                    continue
                }
                resolvedReferences.insert(unresolved[next])
                next += 1
                point(reference, at: target)
                let known = pending.count
                try compileWaiting()
                unresolved += known..<pending.count  // The references in the schemas just compiled.
            }
            if waitingForAnchor.count == unresolved.count, let first = waitingForAnchor.first {
                let reference = pending[first]
                _ = try resolve(reference.text, from: reference.node, at: reference.location, finally: true)  // Throws.
                return
            }
            unresolved = waitingForAnchor
        }
    }

    private mutating func point(_ reference: (node: Int, keyword: Int, text: String, location: String), at target: Int) {
        guard case .keywords(var keywords) = nodes[reference.node].body else { return }
        switch keywords[reference.keyword] {
        case .reference(_, let text, let keyword): keywords[reference.keyword] = .reference(target, text: text, keyword: keyword)
        case .dynamicReference(_, _, let text, let keyword):
            keywords[reference.keyword] = .dynamicReference(target, anchor: nil, text: text, keyword: keyword)
        default: return
        }
        nodes[reference.node].body = .keywords(keywords)
    }

    /// Marks the dynamic references whose target makes them dynamic: a `$dynamicRef` to a `$dynamicAnchor` of the
    /// name its fragment gives, a `$recursiveRef` to a resource with `$recursiveAnchor: true`. The others are plain
    /// references.
    mutating func settleDynamicReferences() {
        for index in nodes.indices {
            guard case .keywords(var keywords) = nodes[index].body else { continue }
            var changed = false
            for position in keywords.indices {
                guard case .dynamicReference(let target, _, let text, let keyword) = keywords[position] else { continue }
                var anchor: String?
                if keyword == "$recursiveRef" {
                    if recursiveRoots.values.contains(target) { anchor = "" }
                } else if let name = declaredDynamicAnchors[target],
                          let hash = text.firstIndex(of: "#"), text[text.index(after: hash)...].removingPercentEncoding == name {
                    anchor = name
                }
                keywords[position] = .dynamicReference(target, anchor: anchor, text: text, keyword: keyword)
                changed = true
            }
            if changed { nodes[index].body = .keywords(keywords) }
        }
    }

    /// Gives a node whose only keyword is a `$ref` the keywords of the schema it leads to (through other such
    /// nodes, in the same schema resource), with the reference noted for `evaluate` to stop a cycle: one call less
    /// for each reference followed, so a recursive schema checks deeper values within the same stack. A cycle of
    /// such nodes is left alone.
    mutating func collapseReferences() {
        for index in nodes.indices {
            var current = index
            var seen: Set<Int> = [index]
            var first: (text: String, keyword: String)?
            while case .keywords(let keywords) = nodes[current].body, keywords.count == 1, !nodes[current].tracksEvaluation,
                  nodes[current].reference == nil, case .reference(let target, let text, let keyword) = keywords[0],
                  nodes[target].resource == nodes[index].resource {
                if first == nil { first = (text, keyword) }
                guard seen.insert(target).inserted else { current = index; break }
                current = target
            }
            guard current != index, let first, case .keywords = nodes[current].body else { continue }
            nodes[index].body = nodes[current].body
            nodes[index].tracksEvaluation = nodes[current].tracksEvaluation
            nodes[index].reference = JSONSchema.Node.Reference(target: current, text: first.text, keyword: first.keyword)
        }
    }

    /// The node `text` (a reference in node `node`, at `location`) refers to; `nil` for an anchor not known yet.
    private mutating func resolve(_ text: String, from node: Int, at location: String, finally: Bool) throws(JSONSchemaError) -> Int? {
        let keyword = location.split(separator: "/").last.map(String.init) ?? "$ref"
        func unresolved(_ reason: String) -> JSONSchemaError {
            failure(location, "\"\(keyword)\": \"\(text.clipped(to: 80))\" does not resolve: \(reason)")
        }
        let absolute = URIReference.resolve(text, against: nodeBases[node])
        let address = URIReference.withoutFragment(absolute)
        let encoded = absolute.firstIndex(of: "#").map { String(absolute[absolute.index(after: $0)...]) } ?? ""
        guard let fragment = encoded.removingPercentEncoding else {
            throw unresolved("it has a % not followed by two hexadecimal digits (write % itself as %25)")
        }
        let draft = documents[nodeDocuments[node]].draft
        if resources[address] == nil, load(address, draft: draft) == nil {
            for uri in unloaded.sorted() { _ = load(uri, draft: draft) }
        }
        guard let root = resources[address] else {
            let relative = nodeBases[node] == Self.anonymousBase && URIReference.Parts(text).scheme == nil
            let shown = relative ? URIReference.withoutFragment(text) : address
            throw failure(location, "\"\(keyword)\": \"\(text.clipped(to: 80))\" refers to another document, \"\(shown.clipped(to: 80))\", which is not among the schemas given (`resources`, by URI); give it there, or copy the schema it names into \"$defs\" and refer to it as \"#/$defs/…\"")
        }
        if fragment.isEmpty {
            return try compile(value(at: root) ?? .bool(true), at: root, base: address)
        }
        guard fragment.hasPrefix("/") else {
            guard let spot = anchors[address + "#" + fragment] else {
                guard finally else { return nil }
                let declaration = draft >= .draft2019_09 ? "\"$anchor\": \"\(fragment)\"" : "\"$id\": \"#\(fragment)\""
                throw unresolved("no subschema declares \(declaration); a JSON pointer starts with a slash (\"#/$defs/\(fragment)\")")
            }
            // An anchor on a resource's root: its base is the resource's URI, which its own `$id` made.
            if resources[address] == spot { return try compile(value(at: spot) ?? .bool(true), at: spot, base: address) }
            return try compile(value(at: spot) ?? .bool(true), at: spot, within: address)
        }
        guard var value = value(at: root) else { throw unresolved("its schema resource is missing") }
        var walked = ""
        var outer = address
        let rootDraft = documents[root.document].draft
        for (position, escaped) in fragment.dropFirst().split(separator: "/", omittingEmptySubsequences: false).enumerated() {
            guard let token = Self.unescape(escaped) else {
                throw unresolved("in a JSON pointer \"~\" must be followed by 0 (for \"~\") or 1 (for \"/\")")
            }
            let here = walked.isEmpty ? "the top level" : walked
            switch value {
            case .object(let members):
                if position > 0 { outer = Self.base(of: members, within: outer, draft: rootDraft) }
                guard let member = members[token] else {
                    let names = members.keys.sorted()
                    let listed = names.isEmpty ? "it has none" : "it has " + names.prefix(10).map { "\"\($0)\"" }.joined(separator: ", ") + (names.count > 10 ? "…" : "")
                    throw unresolved("there is no \"\(token)\" at \(here) (\(listed))")
                }
                value = member
            case .array(let elements):
                guard let index = Int(token), String(index) == token, elements.indices.contains(index) else {
                    throw unresolved("\(here) is an array of \(elements.count), which has no item \"\(token)\"")
                }
                value = elements[index]
            default:
                throw unresolved("\(here) is \(value.schemaKind), which has no member \"\(token)\"")
            }
            walked = Self.child(walked, token)
        }
        return try compile(value, at: Spot(document: root.document, pointer: root.pointer + walked), within: outer)
    }

    /// `~1` → `/`, `~0` → `~`; `nil` for another `~`.
    static func unescape(_ token: Substring) -> String? {
        guard token.contains("~") else { return String(token) }
        var result = ""
        var characters = token.makeIterator()
        while let character = characters.next() {
            guard character == "~" else { result.append(character); continue }
            switch characters.next() {
            case "0": result.append("~")
            case "1": result.append("/")
            default: return nil
            }
        }
        return result
    }
}
