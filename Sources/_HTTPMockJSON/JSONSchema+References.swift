import Foundation

/// How a `$ref` finds its target: inside the document only, by JSON pointer (`#/$defs/item`, with `~0`, `~1` and
/// %-escapes) or by anchor (`#item`: 2019-09's `$anchor`, draft 7's `"$id": "#item"`). A reference that names
/// the top-level `$id` (or a URL relative to it that resolves to it) is inside the document too.
extension JSONSchema.Compiler {
    /// The edition a `"$schema"` names.
    static func draft(_ value: JSONValue) throws(JSONSchemaError) -> JSONSchema.Draft {
        let place = "/$schema"
        func failure(_ problem: String) -> JSONSchemaError { JSONSchemaError("JSON schema at \(place): \(problem)") }
        guard case .string(let uri) = value else {
            throw failure("\"$schema\" must be the URI of a draft, not \(value.schemaKind)")
        }
        var normalized = uri.lowercased().replacingOccurrences(of: "https://", with: "http://")
        while normalized.hasSuffix("#") { normalized.removeLast() }
        switch normalized {
        case "http://json-schema.org/draft-07/schema", "http://json-schema.org/draft-06/schema": return .draft7
        case "http://json-schema.org/draft/2019-09/schema": return .draft2019_09
        default:
            var hint = ""
            if normalized.contains("2020-12") {
                hint = " (2020-12's \"prefixItems\" is 2019-09's array form of \"items\", and its \"items\" 2019-09's \"additionalItems\")"
            } else if normalized.contains("draft-04") || normalized.contains("draft-03") {
                hint = " (draft 4's boolean \"exclusiveMaximum\"/\"exclusiveMinimum\" become the limit itself in draft 7)"
            }
            throw failure("\"$schema\" names \"\(uri.clipped(to: 80))\", a draft this validator does not read; it reads draft 7 (\"http://json-schema.org/draft-07/schema#\") and 2019-09 (\"https://json-schema.org/draft/2019-09/schema\"): change \"$schema\" to one of them\(hint), or remove it")
        }
    }

    /// Notes the anchors a schema declares, and the top-level `$id`; refuses a separate resource inside.
    mutating func identify(_ object: [String: JSONValue], at location: String, node: Int) throws(JSONSchemaError) {
        if let value = object["$id"] {
            let place = Self.child(location, "$id")
            guard case .string(let id) = value else {
                throw failure(place, "\"$id\" must be a URI in a string, not \(value.schemaKind)")
            }
            if id.hasPrefix("#") {
                if id.count > 1 { try declareAnchor(String(id.dropFirst()), node: node, at: place) }
            } else if location.isEmpty {
                let parts = id.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                baseURI = String(parts[0])
                if parts.count > 1, !parts[1].isEmpty { try declareAnchor(String(parts[1]), node: node, at: place) }
            } else {
                throw failure(place, "\"$id\": \"\(id.clipped(to: 80))\" makes this subschema a separate schema resource, which is not supported (only one document, without \"$id\"s below the top level); remove it, and refer to this subschema by its place: \"#\(location)\"")
            }
        }
        if draft == .draft2019_09, let value = object["$anchor"] {
            let place = Self.child(location, "$anchor")
            guard case .string(let name) = value, Self.isAnchorName(name) else {
                throw failure(place, "\"$anchor\" must be a name that starts with a letter, followed by letters, digits, \"-\", \"_\", \":\" or \".\", not \(value.schemaKind)")
            }
            try declareAnchor(name, node: node, at: place)
        }
    }

    private static func isAnchorName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_:.".unicodeScalars.contains($0)) }
    }

    private mutating func declareAnchor(_ name: String, node: Int, at place: String) throws(JSONSchemaError) {
        if let other = anchors[name], other != node {
            throw failure(place, "the anchor \"\(name)\" is declared twice, here and at \(nodes[other].location.isEmpty ? "the top level" : nodes[other].location); rename one of them")
        }
        anchors[name] = node
    }

    /// Points every `$ref` at its node, compiling targets nothing else reached (which may hold more `$ref`s).
    /// A reference to an anchor waits until no other can be resolved, in case the anchor is in such a target.
    mutating func resolveReferences() throws(JSONSchemaError) {
        var unresolved = Array(pending.indices)
        while !unresolved.isEmpty {
            var waitingForAnchor: [Int] = []
            var next = 0
            while next < unresolved.count {
                let reference = pending[unresolved[next]]
                guard let target = try resolve(reference.text, at: reference.location, finally: false) else {
                    waitingForAnchor.append(unresolved[next])
                    next += 1
                    continue
                }
                next += 1
                point(reference, at: target)
                let known = pending.count
                try compileWaiting()
                unresolved += known..<pending.count  // The references in the schemas just compiled.
            }
            if waitingForAnchor.count == unresolved.count, let first = waitingForAnchor.first {
                _ = try resolve(pending[first].text, at: pending[first].location, finally: true)  // Throws.
                return
            }
            unresolved = waitingForAnchor
        }
    }

    private mutating func point(_ reference: (node: Int, keyword: Int, text: String, location: String), at target: Int) {
        guard case .keywords(var keywords) = nodes[reference.node].body,
              case .reference(_, let text, let keyword) = keywords[reference.keyword] else { return }
        keywords[reference.keyword] = .reference(target, text: text, keyword: keyword)
        nodes[reference.node].body = .keywords(keywords)
    }

    /// Gives a node whose only keyword is a `$ref` the keywords of the schema it leads to (through other such
    /// nodes), with the reference noted for `evaluate` to stop a cycle: one call less for each reference followed,
    /// so a recursive schema checks deeper values within the same stack. A cycle of such nodes is left alone.
    mutating func collapseReferences() {
        for index in nodes.indices {
            var current = index
            var seen: Set<Int> = [index]
            var first: (text: String, keyword: String)?
            while case .keywords(let keywords) = nodes[current].body, keywords.count == 1, !nodes[current].tracksEvaluation,
                  nodes[current].reference == nil, case .reference(let target, let text, let keyword) = keywords[0] {
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

    /// The node `text` (the value of the `$ref` at `location`) refers to.
    private mutating func resolve(_ text: String, at location: String, finally: Bool) throws(JSONSchemaError) -> Int? {
        let keyword = location.split(separator: "/").last.map(String.init) ?? "$ref"
        func unresolved(_ reason: String) -> JSONSchemaError {
            failure(location, "\"\(keyword)\": \"\(text.clipped(to: 80))\" does not resolve: \(reason)")
        }
        let parts = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let address = String(parts[0])
        if !address.isEmpty, !isThisDocument(address) {
            throw failure(location, "\"\(keyword)\": \"\(text.clipped(to: 80))\" refers to another document, which is not supported (only references inside this one: \"#\", \"#/$defs/name\", \"#/definitions/name\"); copy the schema it names into \"$defs\" and refer to it as \"#/$defs/…\"")
        }
        let encoded = parts.count > 1 ? String(parts[1]) : ""
        guard let fragment = encoded.removingPercentEncoding else {
            throw unresolved("it has a % not followed by two hexadecimal digits (write % itself as %25)")
        }
        if fragment.isEmpty { return 0 }
        guard fragment.hasPrefix("/") else {
            guard let node = anchors[fragment] else {
                guard finally else { return nil }
                let declaration = draft == .draft2019_09 ? "\"$anchor\": \"\(fragment)\"" : "\"$id\": \"#\(fragment)\""
                throw unresolved("no subschema declares \(declaration); a JSON pointer starts with a slash (\"#/$defs/\(fragment)\")")
            }
            return node
        }
        var value = document
        var walked = ""
        for escaped in fragment.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard let token = Self.unescape(escaped) else {
                throw unresolved("in a JSON pointer \"~\" must be followed by 0 (for \"~\") or 1 (for \"/\")")
            }
            let here = walked.isEmpty ? "the top level" : walked
            switch value {
            case .object(let members):
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
        return try compile(value, at: walked)
    }

    /// `~1` → `/`, `~0` → `~`; `nil` for another `~`.
    private static func unescape(_ token: Substring) -> String? {
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

    /// Whether `address` (a `$ref` before its `#`) names this document: its top-level `$id`, resolved against it.
    private func isThisDocument(_ address: String) -> Bool {
        guard let baseURI, !baseURI.isEmpty else { return false }
        if address == baseURI { return true }
        guard let base = URL(string: baseURI), let resolved = URL(string: address, relativeTo: base) else { return false }
        return resolved.absoluteString == base.absoluteString
    }
}
