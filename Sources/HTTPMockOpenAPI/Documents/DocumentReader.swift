#if OpenAPI
import Foundation
import HTTPMock
import _HTTPMockJSON

/// Walks a bundled document into ``OperationContract``s, noting every problem on the way (never stopping at the
/// first), each in the words of the file that holds it.
struct DocumentReader {
    private(set) var bundle: DocumentBundle
    private(set) var problems: [String] = []
    /// What is not as it should be but does not keep the document from being served (an example that breaks its
    /// own schema: served as it is, as Prism serves it).
    private(set) var warnings: [String] = []
    private(set) var version = ""
    private(set) var title = ""
    private(set) var servers: [String] = []
    private(set) var contracts: [OperationContract] = []
    private(set) var isOpenAPI30 = false
    /// Schemas compiled for a `$ref` alone, by the reference (`nil` for one that does not compile).
    private var referencedSchemas: [String: JSONSchema?] = [:]
    /// `components.securitySchemes`, read, and the document's own `security`, which every operation without one
    /// of its own follows.
    private var securitySchemes: [String: SecurityContract.Credential] = [:]
    private var documentSecurity: SecurityContract?

    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
    /// `$ref`s followed in a row at most before a chain counts as a cycle.
    static let referenceLimit = 32

    init(bundle: DocumentBundle) {
        self.bundle = bundle
    }

    private mutating func problem(_ pointer: String, _ message: String) {
        problems.append("\(bundle.place(pointer)): \(message)")
    }

    mutating func warn(_ pointer: String, _ message: String) {
        warnings.append("\(bundle.place(pointer)): \(message)")
    }

    mutating func read() {
        guard let root = bundle.root.members else {
            problem("", "an OpenAPI document is an object with \"openapi\", \"info\" and \"paths\"; this is \(bundle.root.kind)")
            return
        }
        guard let declared = root["openapi"]?.text else {
            if root["swagger"] != nil {
                problem("/swagger", "Swagger 2.0 documents are not read; convert it to OpenAPI 3 (swagger2openapi, or the editor you write it in)")
            } else {
                problem("", "there is no \"openapi\" version; add \"openapi: 3.1.0\" (or the 3.0 version it follows)")
            }
            return
        }
        version = declared
        if declared.hasPrefix("3.0") {
            isOpenAPI30 = true
        } else if !declared.hasPrefix("3.1") {
            problem("/openapi", "\"\(declared)\" is not a version read here; OpenAPI 3.0 and 3.1 are")
            return
        }
        title = root["info"]?["title"]?.text ?? ""
        readServers(root["servers"])
        securitySchemes = readSecuritySchemes(root["components"]?["securitySchemes"])
        if let security = root["security"] { documentSecurity = readSecurity(security, at: "/security", schemes: securitySchemes) }
        guard let paths = root["paths"] else {
            if root["webhooks"] == nil && root["components"] == nil {
                problem("", "there is no \"paths\"; add the operations under \"paths\"")
            }
            return
        }
        guard let members = paths.members else {
            problem("/paths", "\"paths\" must be an object of path templates, not \(paths.kind)")
            return
        }
        for template in Self.ordered(members.keys) {
            readPath(template, members[template]!)
        }
    }

    /// Keys in a stable order, by text (JSON objects keep no order, so neither does the document once read).
    static func ordered(_ keys: Dictionary<String, JSONValue>.Keys) -> [String] {
        keys.sorted()
    }

    private mutating func readServers(_ value: JSONValue?) {
        guard let value else { return }
        guard let list = value.elements else {
            problem("/servers", "\"servers\" must be a list of objects with a \"url\", not \(value.kind)")
            return
        }
        for (index, server) in list.enumerated() {
            let pointer = "/servers/\(index)"
            guard var url = server["url"]?.text else {
                problem(pointer, "a server needs a \"url\" (\"https://api.example.com/v1\", or \"/v1\")")
                continue
            }
            for (name, variable) in server["variables"]?.members ?? [:] {
                guard let defaultValue = variable["default"]?.text else {
                    problem(JSONPointer.child(pointer + "/variables", name), "a server variable needs a \"default\"")
                    continue
                }
                url = url.replacingOccurrences(of: "{\(name)}", with: defaultValue)
            }
            if url.contains("{") {
                problem(pointer + "/url", "\"\(url)\" names a variable that \"variables\" does not define; define it with a \"default\"")
                continue
            }
            servers.append(url)
        }
    }

    // MARK: - References

    /// `value` with its `$ref` followed (and the one that leads to, up to ``referenceLimit``), with the place of
    /// what it leads to; `nil` and a problem when a reference does not resolve or comes back to itself.
    mutating func resolve(_ value: JSONValue, at pointer: String) -> (value: JSONValue, pointer: String)? {
        var current = value
        var place = pointer
        var seen: Set<String> = []
        while case .string(let reference)? = current["$ref"] {
            let refPlace = JSONPointer.child(place, "$ref")
            guard let target = JSONPointer.fromReference(reference) else {
                problem(refPlace, "\"\(reference)\" could not be followed")
                return nil
            }
            guard seen.insert(target).inserted, seen.count <= Self.referenceLimit else {
                problem(refPlace, "\"\(reference)\" leads back to itself through other references; point it at an object")
                return nil
            }
            guard let found = JSONPointer.value(at: target, in: bundle.root) else {
                problem(refPlace, "\"\(Self.shown(reference))\" does not resolve: \(bundle.place(target)) does not exist; check its spelling")
                return nil
            }
            current = found
            place = target
        }
        return (current, place)
    }

    /// A reference as its file wrote it, for messages.
    static func shown(_ reference: String) -> String {
        let prefix = "#/\(DocumentBundle.filesKey)/"
        guard reference.hasPrefix(prefix) else { return reference }
        return "#" + reference.dropFirst(prefix.count).drop { $0 != "/" }
    }

    /// Compiles a schema of the document; `nil` and a problem when it does not compile (a `$ref` of its own that does
    /// not resolve, a keyword of the wrong type…), named with its file and place.
    mutating func compileSchema(_ value: JSONValue, at pointer: String) -> JSONSchema? {
        // Most schemas of a document are a `$ref` alone to a component: compiled once for every place that names it
        // (and a problem reported once).
        var sharedKey: String?
        if let members = value.members, members.count == 1, case .string(let reference)? = members["$ref"] {
            sharedKey = reference
            if let known = referencedSchemas[reference] { return known }
        }
        do {
            // 3.1's schemas are JSON Schema 2020-12; 3.0's its own dialect (draft 2019-09's keywords as the validator
            // reads them, with `nullable` and boolean `exclusiveMaximum`/`exclusiveMinimum`).
            let schema = try JSONSchema(value, at: pointer, in: bundle.root, draft: isOpenAPI30 ? .draft2019_09 : .draft2020_12,
                                        validatesFormats: true, openAPI30: isOpenAPI30)
            if let sharedKey { referencedSchemas[sharedKey] = schema }
            return schema
        } catch {
            if let sharedKey { referencedSchemas[sharedKey] = .some(nil) }
            // "JSON schema at /x/y: …": name the file and place instead.
            let message = error.message
            if message.hasPrefix("JSON schema at "), let colon = message.range(of: ": ") {
                let place = String(message[message.index(message.startIndex, offsetBy: 15)..<colon.lowerBound])
                problems.append("\(bundle.place(place == "the top level" ? "" : place)): schema: " + message[colon.upperBound...])
            } else {
                problem(pointer, "schema: " + message)
            }
            return nil
        }
    }

    // MARK: - Paths and operations

    private mutating func readPath(_ template: String, _ value: JSONValue) {
        let pointer = JSONPointer.child("/paths", template)
        guard template.hasPrefix("/") else {
            problem(pointer, "a path must start with \"/\" (\"/\(template)\")")
            return
        }
        guard let (item, itemPointer) = resolve(value, at: pointer) else { return }
        guard let members = item.members else {
            problem(itemPointer, "a path item must be an object of operations, not \(item.kind)")
            return
        }
        let shared = readParameters(members["parameters"], at: JSONPointer.child(itemPointer, "parameters"))
        for method in Self.methods {
            guard let operation = members[method] else { continue }
            readOperation(method: method, template: template, operation, at: JSONPointer.child(itemPointer, method),
                          shared: shared)
        }
    }

    private mutating func readOperation(method: String, template: String, _ value: JSONValue, at operationPointer: String,
                                        shared: [ParameterContract]) {
        // An operation may be a `$ref` to another file, as documents split by a bundler are written.
        guard let (value, pointer) = resolve(value, at: operationPointer) else { return }
        guard let members = value.members else {
            problem(pointer, "an operation must be an object with \"responses\", not \(value.kind)")
            return
        }
        var parameters = shared
        for own in readParameters(members["parameters"], at: JSONPointer.child(pointer, "parameters")) {
            parameters.removeAll { $0.name == own.name && $0.location == own.location }
            parameters.append(own)
        }
        for name in Self.templateVariables(template) where !parameters.contains(where: { $0.location == .path && $0.name == name }) {
            problem(pointer, "the path names {\(name)}, but no \"in: path\" parameter \"\(name)\" is defined; add it to \"parameters\"")
        }
        var body: BodyContract?
        if let requestBody = members["requestBody"] {
            let bodyPointer = JSONPointer.child(pointer, "requestBody")
            if let (resolved, place) = resolve(requestBody, at: bodyPointer) {
                let content = readContent(resolved["content"], at: JSONPointer.child(place, "content"))
                body = BodyContract(required: resolved["required"] == .bool(true), content: content)
            }
        }
        var responses: [ResponseContract] = []
        if let listed = members["responses"]?.members {
            for status in listed.keys.sorted() {
                let responsePointer = JSONPointer.child(JSONPointer.child(pointer, "responses"), status)
                guard status == "default" || Int(status).map({ (100...599).contains($0) }) == true
                        || (status.count == 3 && status.uppercased().hasSuffix("XX") && "12345".contains(status.first!)) else {
                    problem(responsePointer, "\"\(status)\" is not a status; use a code (\"200\"), a range (\"2XX\") or \"default\"")
                    continue
                }
                guard let (response, place) = resolve(listed[status]!, at: responsePointer) else { continue }
                var headers: [(name: String, schemaValue: JSONValue?)] = []
                for (name, header) in response["headers"]?.members ?? [:] {
                    let headerPointer = JSONPointer.child(JSONPointer.child(place, "headers"), name)
                    guard let (resolvedHeader, headerPlace) = resolve(header, at: headerPointer) else { continue }
                    guard resolvedHeader["required"] == .bool(true) else { continue }
                    headers.append((name, resolvedHeader["schema"].flatMap { resolveSchemaValue($0, at: JSONPointer.child(headerPlace, "schema")) }))
                }
                responses.append(ResponseContract(status: status,
                                                  content: readContent(response["content"], at: JSONPointer.child(place, "content")),
                                                  requiredHeaders: headers.sorted { $0.name < $1.name }))
            }
        } else {
            problem(pointer, "an operation needs \"responses\"; add at least one (\"200\")")
        }
        // An operation's own `security` replaces the document's; an empty one (`[]`) asks for nothing.
        var security = documentSecurity
        if let own = members["security"] { security = readSecurity(own, at: JSONPointer.child(pointer, "security"), schemes: securitySchemes) }
        let operation = OpenAPIOperation(method: method.uppercased(), path: template, operationID: members["operationId"]?.text)
        contracts.append(OperationContract(operation: operation, pointer: pointer, parameters: parameters, body: body,
                                           responses: responses, security: security))
    }

    /// The variables of a path template (`/pets/{petId}` → `petId`).
    static func templateVariables(_ template: String) -> [String] {
        var names: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    private mutating func readParameters(_ value: JSONValue?, at pointer: String) -> [ParameterContract] {
        guard let value else { return [] }
        guard let list = value.elements else {
            problem(pointer, "\"parameters\" must be a list, not \(value.kind)")
            return []
        }
        var parameters: [ParameterContract] = []
        for (index, entry) in list.enumerated() {
            guard let (parameter, place) = resolve(entry, at: "\(pointer)/\(index)") else { continue }
            guard let name = parameter["name"]?.text, !name.isEmpty else {
                problem(place, "a parameter needs a \"name\"")
                continue
            }
            guard let location = parameter["in"]?.text.flatMap(ParameterContract.Location.init(rawValue:)) else {
                problem(place, "parameter \"\(name)\" needs \"in\": path, query, header or cookie")
                continue
            }
            let required = parameter["required"] == .bool(true)
            if location == .path, !required {
                problem(place, "path parameter \"\(name)\" must say \"required: true\" (a path always carries it)")
            }
            var schemaValue: JSONValue?
            var schema: JSONSchema?
            var schemaPointer = JSONPointer.child(place, "schema")
            var source = parameter["schema"]
            if source == nil, let content = parameter["content"]?.members, let (type, media) = content.first {
                schemaPointer = JSONPointer.child(JSONPointer.child(JSONPointer.child(place, "content"), type), "schema")
                source = media["schema"]
            }
            if let source {
                schema = compileSchema(source, at: schemaPointer)
                schemaValue = resolveSchemaValue(source, at: schemaPointer)
            }
            let style = parameter["style"]?.text ?? (location == .query || location == .cookie ? "form" : "simple")
            let styles = ParameterContract.styles[location] ?? []
            if !styles.contains(style) {
                problem(JSONPointer.child(place, "style"), "\"\(style)\" is not a style of a \(location.rawValue) parameter; use \(styles.joined(separator: ", "))")
                continue
            }
            let explode = parameter["explode"].map { $0 == .bool(true) } ?? (style == "form")
            parameters.append(ParameterContract(name: name, location: location, required: required, schemaValue: schemaValue,
                                                schema: schema, style: style, explode: explode))
        }
        return parameters
    }

    /// A schema with its top-level `$ref`s followed, for reading its type.
    private mutating func resolveSchemaValue(_ value: JSONValue, at pointer: String) -> JSONValue? {
        resolve(value, at: pointer)?.value
    }

    private mutating func readContent(_ value: JSONValue?, at pointer: String) -> [MediaContract] {
        guard let value else { return [] }
        guard let members = value.members else {
            problem(pointer, "\"content\" must be an object of media types, not \(value.kind)")
            return []
        }
        var content: [MediaContract] = []
        // JSON first: what a client that accepts anything is served.
        let names = members.keys.sorted { (MediaContract.isJSON($0) ? 0 : 1, $0) < (MediaContract.isJSON($1) ? 0 : 1, $1) }
        for name in names {
            let place = JSONPointer.child(pointer, name)
            guard let media = members[name]!.members else {
                problem(place, "a media type must be an object (with \"schema\", \"example\"…), not \(members[name]!.kind)")
                continue
            }
            var schema: JSONSchema?
            var schemaPointer: String?
            if let source = media["schema"] {
                schemaPointer = JSONPointer.child(place, "schema")
                schema = compileSchema(source, at: schemaPointer!)
            }
            var examples: [(name: String, value: JSONValue)] = []
            for exampleName in (media["examples"]?.members ?? [:]).keys.sorted() {
                let examplePointer = JSONPointer.child(JSONPointer.child(place, "examples"), exampleName)
                guard let (example, _) = resolve(media["examples"]![exampleName]!, at: examplePointer) else { continue }
                if let value = example["value"] {
                    examples.append((exampleName, value))
                } else if example["externalValue"] != nil {
                    problem(examplePointer, "\"externalValue\" is not read; give the example as \"value\"")
                }
            }
            if let schema, let example = media["example"], let violation = schema.violations(of: example, limit: 1).first {
                warnings.append("\(bundle.place(JSONPointer.child(place, "example"))): the example does not match its schema, and is served as it is: \(violation)")
            }
            for (exampleName, value) in examples {
                if let schema, let violation = schema.violations(of: value, limit: 1).first {
                    let examplePlace = JSONPointer.child(JSONPointer.child(JSONPointer.child(place, "examples"), exampleName), "value")
                    warnings.append("\(bundle.place(examplePlace)): the example does not match its schema, and is served as it is: \(violation)")
                }
            }
            content.append(MediaContract(name: name, schemaPointer: schemaPointer, schema: schema,
                                         example: media["example"] ?? examples.first?.value, examples: examples))
        }
        return content
    }
}
#endif
