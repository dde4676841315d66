import Foundation
import _HTTPMockJSON

/// One WireMock stub mapping, read and checked: what a mapping file holds (alone, or in a `{"mappings": […]}`
/// list), and what WireMock's admin API receives.
///
/// Every field is translated onto ``Match`` and ``MockResponse`` when the mapping is registered
/// (``HTTPMock/register(_:filesFolder:)``); the checks that need no file run here, so a mapping that is built is
/// one that registers (but for its `bodyFileName`, looked up then).
package struct WireMockStubMapping: Sendable {
    /// `id` or `uuid` from the JSON, or a new one.
    package var id: UUID
    package var name: String?
    /// The mapping as a JSON object, with `id` filled in and `uuid` beside it, as WireMock lists a mapping (for
    /// listing it back). Written when asked for: a folder of 10,000 mappings that is only served never needs it.
    package var json: Data {
        var listed = object
        if let id = listed["id"] { listed["uuid"] = id }
        return JSONValue.object(listed).data
    }
    /// Where it came from, as errors name it (`mappings/users.json`); for a mapping of a served folder's files, what
    /// its stubs were loaded from (``ListedStub/loadedFrom``).
    package let source: String
    /// `response` as the mapping wrote it (`{}` without one), as WireMock's journal gives a serve event's
    /// `responseDefinition`. Written when asked for, as ``json``.
    package var responseJSON: Data {
        guard case .object(let response)? = object["response"] else { return Data("{}".utf8) }
        return JSONValue.object(response).data
    }
    /// `response.fixedDelayMilliseconds`, when the mapping gives one (a whole number of milliseconds).
    package var fixedDelayMilliseconds: Int? {
        guard case .object(let response)? = object["response"] else { return nil }
        switch response["fixedDelayMilliseconds"] {
        case .int(let value)?: return value
        case .double(let value)? where value.isFinite && value >= 0 && value < 1e15: return Int(value)
        default: return nil
        }
    }
    let object: [String: JSONValue]
    /// Whether the JSON gave the id (a made-up one does not name the mapping in messages).
    let hasGivenID: Bool
    /// `response.jsonBody` as the file wrote it, without the whitespace: served with its keys in the file's order
    /// and its numbers as written, as WireMock serves it (`nil` when read from a value, not from text).
    var jsonBodyText: Data?

    static let keys = ["$schema", "id", "uuid", "name", "request", "response", "priority", "persistent", "metadata", "insertionIndex",
                       "postServeActions", "serveEventListeners"] + WireMockScenario.keys

    /// Reads one mapping object; `source` names where it came from in errors.
    package init(json: Data, source: String) throws(HTTPMockError) {
        let value = try DefinitionFile.decode(JSONValue.self, from: json, name: source)
        try self.init(value, source: source)
        keepJSONBodyText(from: json, at: [])
    }

    /// Keeps the text of `response.jsonBody` from `json`, the file whose value at `path` this mapping is.
    mutating func keepJSONBodyText(from json: Data, at path: [any Sendable]) {
        guard case .object(let response)? = object["response"], response["jsonBody"] != nil else { return }
        jsonBodyText = JSONValue.compactText(at: path + ["response", "jsonBody"], in: json)
    }

    /// Reads one mapping object. `checked`: also translates it once, so that a mapping that is built is one that
    /// registers; a folder load leaves that to the one translation it does next.
    init(_ value: JSONValue, source: String, checked: Bool = true) throws(HTTPMockError) {
        let top = WireMockNode(value: value, path: "", place: source)
        guard case .object(var object) = value else { throw top.error("a mapping is an object, not \(top.kind)") }
        Self.dropNulls(from: &object)
        // `id` wins over `uuid` when both are given; an empty or null one is no id, as in WireMock.
        var id: UUID?
        for key in ["id", "uuid"] {
            guard let node = top.child(key, of: object), node.value != .null else { continue }
            let text = try node.string()
            if text.isEmpty { continue }
            guard let parsed = UUID(uuidString: text) else { throw node.error("\"\(text)\" is not a UUID; give one such as \"\(UUID.random().lowercasedText)\", or none") }
            if id == nil { id = parsed }
        }
        self.id = id ?? UUID.random()
        hasGivenID = id != nil
        name = try top.child("name", of: object).map { (node) throws(HTTPMockError) in try node.string() }
        self.source = source
        object["id"] = .string(self.id.lowercasedText)
        object["uuid"] = nil
        object["$schema"] = nil
        self.object = object
        if checked { _ = try definition(files: .unchecked, globalTemplating: false) }
    }

    /// Takes out the optional keys given `null` of the mapping, its `request` and its `response`, as WireMock reads
    /// them (absent) and lists the mapping back (without them). `"request": null` stays, to be refused: a mapping
    /// without a request would answer every request.
    static func dropNulls(from object: inout [String: JSONValue]) {
        for key in ["request", "response"] {
            guard case .object(var members)? = object[key], members.values.contains(.null) else { continue }
            members = members.filter { $0.value != .null }
            object[key] = .object(members)
        }
        guard object.values.contains(.null) else { return }
        object = object.filter { $0.value != .null || $0.key == "request" }
    }

    /// The mappings in a file's JSON: one mapping object, or `{"mappings": […]}`. Throws the first problem.
    package static func mappings(in json: Data, source: String) throws(HTTPMockError) -> [WireMockStubMapping] {
        var problems: [HTTPMockError] = []
        let mappings = read(json, source: source, checked: true, problems: &problems)
        if let first = problems.first { throw first }
        return mappings
    }

    /// The mappings in a file's JSON that read, with a problem added to `problems` for each that does not (or one
    /// for the file, when it is not JSON at all): a load reports every problem of a folder, not only the first.
    static func read(_ json: Data, source: String, checked: Bool, problems: inout [HTTPMockError]) -> [WireMockStubMapping] {
        let value: JSONValue
        do {
            value = try DefinitionFile.decode(JSONValue.self, from: json, name: source, lenient: true)
        } catch {
            problems.append(error)
            return []
        }
        guard case .object(let object) = value, object["mappings"] != nil else {
            do {
                var mapping = try WireMockStubMapping(value, source: source, checked: checked)
                mapping.keepJSONBodyText(from: json, at: [])
                return [mapping]
            } catch {
                problems.append(error)
                return []
            }
        }
        let top = WireMockNode(value: value, path: "", place: source)
        let elements: [WireMockNode]
        do {
            _ = try top.object(known: ["$schema", "mappings", "meta"])
            elements = try top.child("mappings", of: object)!.elements()
        } catch {
            problems.append(error)
            return []
        }
        var mappings: [WireMockStubMapping] = []
        mappings.reserveCapacity(elements.count)
        for (position, element) in elements.enumerated() {
            do {
                var mapping = try WireMockStubMapping(element.value, source: "\(source) \(element.path)", checked: checked)
                mapping.keepJSONBodyText(from: json, at: ["mappings", position])
                mappings.append(mapping)
            } catch {
                problems.append(error)
            }
        }
        return mappings
    }

    /// `mappings/users.json, mapping "Get user"`: the file and the mapping, for messages.
    var place: String {
        if let name { return "\(source), mapping \"\(name)\"" }
        if hasGivenID { return "\(source), mapping \(id.lowercasedText)" }
        return source
    }

    /// The stub this mapping registers.
    func definition(files: WireMockResponse.Files, globalTemplating: Bool, proxyHosts: Set<String>? = nil) throws(HTTPMockError) -> Engine.Definition {
        let top = WireMockNode(value: .object(object), path: "", place: place)
        let fields = try top.object(known: Self.keys)
        if object["request"] == .null {
            throw top.error("\"request\" is null; give the request this mapping answers, such as {\"method\": \"GET\", \"urlPath\": \"/users\"}")
        }
        guard let requestNode = top.child("request", of: fields) else { throw top.error("the required key \"request\" is missing; add it") }
        let request = try WireMockRequest(requestNode)
        let responseNode = top.child("response", of: fields) ?? WireMockNode(value: .object([:]), path: "response", place: place)
        var read = try WireMockResponse(responseNode)
        read.jsonBodyText = jsonBodyText
        if let metadata = top.child("metadata", of: fields), let parts = try WireMockStreamParts(metadata: metadata) {
            read.streamParts = (parts, metadata)
        }
        var response = try read.served(files: files, globalTemplating: globalTemplating, pathTemplate: request.pathTemplate,
                                       proxyHosts: proxyHosts)
        if let metadata = top.child("metadata", of: fields), try WireMockStreamParts.isEventChannel(metadata) {
            guard case .data(let first) = response.content, read.streamParts == nil else {
                throw top.error("an event channel (metadata.httpmock.eventChannel) sends a plain body first, then what is pushed to it: give \"body\" (its first events, such as \"data: connected\\n\\n\") or none, without a template, a file or stream parts")
            }
            response.content = .stream(StreamSource(.channel(first.isEmpty ? [] : [first])))
            if !response.headers.keys.contains(where: { $0.lowercased() == "content-type" }) {
                response.headers["Content-Type"] = "text/event-stream"
            }
        }
        response.webhooks = try WireMockWebhooks.read(fields, of: top, source: place, allowedHosts: proxyHosts)
        var matches = request.matches
        try WireMockScenario(fields, in: top).apply(to: &matches, response: &response)
        var compiled: CompiledMatchers
        do {
            compiled = try CompiledMatchers(matches)
        } catch {
            throw HTTPMockError(error.code, "\(place) at request: \(error.message)")
        }
        if let priority = top.child("priority", of: fields) {
            compiled.conditions.append(.wireMockPriority(try priority.integer(in: 1...1_000_000)))
        }
        compiled.conditions.append(.loaded(from: place))
        return Engine.Definition(host: compiled.host, path: compiled.path, conditions: compiled.conditions, responses: [response])
    }
}

extension WireMockStubMapping {
    /// The mapping object `body` holds, with `id` set and any `uuid` left out, written so that its numbers read back
    /// exactly and as the same kinds (`100.0` stays a decimal: WireMock's `equalToJson` tells it from `100`); `nil`
    /// when `body` is no strict JSON object (Foundation's reading is the caller's then).
    package static func exactJSON(_ body: Data, id: String) -> Data? {
        guard case .object(var members)? = JSONValue.parse(body) else { return nil }
        members["id"] = .string(id)
        members["uuid"] = nil
        return JSONValue.object(members).dataKeepingKinds
    }

    /// Each item of the list under `key` of the object `body` holds, written as ``exactJSON(_:id:)`` writes one;
    /// `nil` when `body` is no strict JSON object with such a list.
    package static func exactItems(_ body: Data, under key: String) -> [Data]? {
        guard case .object(let members)? = JSONValue.parse(body), case .array(let items)? = members[key] else { return nil }
        return items.map(\.dataKeepingKinds)
    }
}
