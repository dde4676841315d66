import Foundation
import _HTTPMockJSON
import _HTTPMockTemplates

/// WireMock's message stub mappings (files under `message-mappings/`, `POST /__admin/message-mappings`), read into
/// the engine's ``MessageStub``.
///
/// A file holds one mapping, `{"messageMappings": […]}`, or a list. A mapping has a `trigger` (`message`: on a
/// channel whose opening request meets `channel.initiatingRequestPattern` and a message whose body meets
/// `message.body`; `http-request`: a request meeting `requestPattern`; `http-stub`: a request answered by the HTTP
/// stub `stubId`) and `actions` (`send` a `message.body` of `data`, base64 `data` with `"encoding": "binary"`, or a
/// `filePath` under `__files`, to the `originating` channel or to every channel `request-initiated` by requests
/// meeting `requestPattern`). Message bodies are Handlebars templates with `message.body` and `request`.
/// HTTPMock adds `fixedDelayMilliseconds` on an action, and the channel type `sse` (an event stream kept open).
enum WireMockMessageMapping {
    /// The mappings in `data` (from `source`), or every problem of them at once.
    static func read(_ data: Data, source: String, files: FolderPath?) throws(HTTPMockError) -> [MessageStub] {
        let value = try DefinitionFile.decode(JSONValue.self, from: data, name: source, lenient: true)
        var problems: [HTTPMockError] = []
        let stubs = read(value, source: source, files: files, problems: &problems)
        if let problem = HTTPMockError(every: problems, in: source) { throw problem }
        return stubs
    }

    /// The mappings of `value`, a problem in `problems` for each that cannot be read.
    static func read(_ value: JSONValue, source: String, files: FolderPath?, problems: inout [HTTPMockError]) -> [MessageStub] {
        let list: [JSONValue]
        switch value {
        case .array(let items): list = items
        case .object(let object) where object["messageMappings"] != nil:
            guard case .array(let items)? = object["messageMappings"] else {
                problems.append(HTTPMockError(.invalidDefinition, "\(source) at messageMappings: expected a list of message mappings"))
                return []
            }
            list = items
        case .object: list = [value]
        default:
            problems.append(HTTPMockError(.invalidDefinition, "\(source): expected a message mapping object, {\"messageMappings\": […]} or a list"))
            return []
        }
        var stubs: [MessageStub] = []
        for (index, item) in list.enumerated() {
            var name: String?
            if case .object(let object) = item, case .string(let given)? = object["name"] { name = given }
            let place = list.count == 1 && name == nil ? source : "\(source), message mapping \(name.map { "\"\($0)\"" } ?? "#\(index + 1)")"
            do {
                stubs.append(try stub(WireMockNode(value: item, path: "", place: place), files: files))
            } catch {
                problems.append(error)
            }
        }
        return stubs
    }

    static let mappingKeys = ["id", "uuid", "name", "priority", "trigger", "actions", "metadata", "persistent"]

    /// One mapping.
    static func stub(_ node: WireMockNode, files: FolderPath?) throws(HTTPMockError) -> MessageStub {
        let fields = try node.object(known: mappingKeys)
        var ids: [UUID] = []
        for key in ["id", "uuid"] {
            guard let given = node.child(key, of: fields) else { continue }
            guard let parsed = UUID(uuidString: try given.string()) else { throw given.error("not a UUID; write one such as \"\(UUID.random().lowercasedText)\", or leave it out") }
            ids.append(parsed)
        }
        if ids.count == 2, ids[0] != ids[1] {
            throw node.error("\"id\" and \"uuid\" name the same thing and differ here; keep one")
        }
        let id = ids.first ?? UUID.random()
        let name = try node.child("name", of: fields).map { (node) throws(HTTPMockError) in try node.string() }
        let priority = try node.child("priority", of: fields).map { (node) throws(HTTPMockError) in try node.integer(in: 1...Int(Int32.max)) }
        guard let triggerNode = node.child("trigger", of: fields) else {
            throw node.error("the required key \"trigger\" is missing; a stub without one would answer every message. Add {\"type\": \"message\"} (with \"channel\" and \"message\" to narrow it), or an \"http-request\" or \"http-stub\" trigger")
        }
        let trigger = try trigger(triggerNode)
        var actions: [MessageStub.Action] = []
        if let list = node.child("actions", of: fields) {
            for element in try list.elements() { actions.append(try action(element, files: files)) }
        }
        var metadata: Data?
        if let given = node.child("metadata", of: fields) {
            guard case .object = given.value else { throw given.error("expected an object of your own fields") }
            metadata = given.value.data
        }
        var written = fields
        written["id"] = .string(id.lowercasedText)
        written["uuid"] = nil
        return MessageStub(id: id, name: name, priority: priority, trigger: trigger, actions: actions,
                           json: JSONValue.object(written).data, metadata: metadata)
    }

    private static func trigger(_ node: WireMockNode) throws(HTTPMockError) -> MessageStub.Trigger {
        guard case .object(let object) = node.value else { throw node.error("expected an object with a \"type\"") }
        let type = try node.child("type", of: object).map { (node) throws(HTTPMockError) in try node.string() } ?? "message"
        switch type {
        case "message":
            try refuseNullPatterns(of: node, ["channel", "message"])
            let fields = try node.object(known: ["type", "channel", "message"])
            var kind: MessageChannel.Kind?
            var channel: RequestPredicate?
            if let given = node.child("channel", of: fields) {
                try refuseNullPatterns(of: given, ["initiatingRequestPattern"])
                let channelFields = try given.object(known: ["type", "initiatingRequestPattern"])
                kind = try given.child("type", of: channelFields).map(channelKind)
                channel = try given.child("initiatingRequestPattern", of: channelFields).map(requestPredicate)
            }
            var body: WebSocketMessagePattern?
            if let given = node.child("message", of: fields) {
                try refuseNullPatterns(of: given, ["body", "channel"])
                let messageFields = try given.object(known: ["body", "channel"])
                body = try given.child("body", of: messageFields).map(bodyPattern)
                if let request = try given.child("channel", of: messageFields).map(requestPredicate) {
                    channel = channel.map { RequestPredicate(both: $0, request) } ?? request
                }
            }
            return .message(kind: kind, channel: channel, body: body)
        case "http-request":
            let fields = try node.object(known: ["type", "requestPattern"])
            guard let pattern = node.child("requestPattern", of: fields) else { throw node.error("an \"http-request\" trigger needs a \"requestPattern\"") }
            return .httpRequest(try requestPredicate(pattern))
        case "http-stub":
            let fields = try node.object(known: ["type", "stubId"])
            guard let given = node.child("stubId", of: fields) else { throw node.error("an \"http-stub\" trigger needs the \"stubId\" of an HTTP stub mapping") }
            guard let id = UUID(uuidString: try given.string()) else { throw given.error("not a UUID: give the \"id\" of an HTTP stub mapping") }
            return .httpStub(id)
        default:
            throw node.error("unknown trigger type \"\(type)\"; use \"message\", \"http-request\" or \"http-stub\"")
        }
    }

    /// What a message trigger's pattern given `null` is refused with: read as absent (as other keys given `null`
    /// are), it would fire the stub on every message, or on every channel.
    private static let nullPatternHints = [
        "channel": "give the channel, such as {\"type\": \"websocket\", \"initiatingRequestPattern\": {\"urlPath\": \"/chat\"}}, or leave it out to take every channel",
        "message": "give the message, such as {\"body\": {\"equalTo\": \"ping\"}}, or leave it out to take every message",
        "body": "give the pattern the message's body meets, such as {\"equalTo\": \"ping\"}, or leave it out to take every message",
        "initiatingRequestPattern": "give the request that opened the channel, such as {\"urlPath\": \"/chat\"}, or leave it out to take every channel",
    ]

    /// Refuses each of `keys` of the object at `node` that is given `null` (see ``nullPatternHints``).
    private static func refuseNullPatterns(of node: WireMockNode, _ keys: [String]) throws(HTTPMockError) {
        guard case .object(let object) = node.value else { return }
        for key in keys where object[key] == .null {
            let hint = key == "channel" && node.path.hasSuffix("message") ? nullPatternHints["initiatingRequestPattern"]! : nullPatternHints[key]!
            throw node.child(key, of: object)!.error("\"\(key)\" is null; \(hint)")
        }
    }

    static func channelKind(_ node: WireMockNode) throws(HTTPMockError) -> MessageChannel.Kind {
        let text = try node.string()
        guard let kind = MessageChannel.Kind(rawValue: text.lowercased()) else {
            throw node.error("unknown channel type \"\(text)\"; use \"websocket\" or \"sse\" (an event stream kept open)")
        }
        return kind
    }

    static func requestPredicate(_ node: WireMockNode) throws(HTTPMockError) -> RequestPredicate {
        try RequestPredicate(try WireMockRequest(node).matches)
    }

    /// A WireMock value pattern on a message's body: a text message's text; a binary message's bytes for
    /// `binaryEqualTo`, its bytes read as UTF-8 for the rest.
    static func bodyPattern(_ node: WireMockNode) throws(HTTPMockError) -> WebSocketMessagePattern {
        let pattern = try WireMockValuePattern.decode(node, body: true)
        let description = "body \(node.value.description)"
        if case .bytes(let expected) = pattern {
            return WebSocketMessagePattern(description) { $0.data == expected }
        }
        let test = try pattern.test()
        return WebSocketMessagePattern(description) { message in
            switch message {
            case .text(let text): test(text)
            case .binary(let data): test(String(decoding: data, as: UTF8.self))
            }
        }
    }

    private static func action(_ node: WireMockNode, files: FolderPath?) throws(HTTPMockError) -> MessageStub.Action {
        let fields = try node.object(known: ["type", "message", "channelTarget", "transformers", "transformerParameters", "fixedDelayMilliseconds"])
        let type = try node.child("type", of: fields).map { (node) throws(HTTPMockError) in try node.string() } ?? "send"
        guard type == "send" else { throw node.error("unknown action type \"\(type)\"; the one action is \"send\"") }
        if let transformers = node.child("transformers", of: fields) {
            for element in try transformers.elements() {
                let name = try element.string()
                guard name == "response-template" else {
                    throw element.error("unknown transformer \"\(name)\"; message bodies are templates already, and HTTPMock has no other transformer")
                }
            }
        }
        var parameters = TemplateObject()
        if let given = node.child("transformerParameters", of: fields) {
            guard case .object = given.value, case .object(let converted) = TemplateJSON.value(given.value) else {
                throw given.error("expected an object")
            }
            parameters = converted
        }
        let delay = try node.child("fixedDelayMilliseconds", of: fields).map { (node) throws(HTTPMockError) in try node.milliseconds() } ?? 0
        guard let messageNode = node.child("message", of: fields) else { throw node.error("a \"send\" action needs a \"message\"") }
        let message = try self.message(messageNode, files: files, parameters: parameters)
        var target = MessageStub.Target.originating
        if let given = node.child("channelTarget", of: fields) {
            target = try channelTarget(given)
        }
        return MessageStub.Action(target: target, delay: delay / 1_000, message: message)
    }

    private static func channelTarget(_ node: WireMockNode) throws(HTTPMockError) -> MessageStub.Target {
        let fields = try node.object(known: ["type", "channelType", "requestPattern"])
        let type = try node.child("type", of: fields).map { (node) throws(HTTPMockError) in try node.string() } ?? "originating"
        switch type {
        case "originating":
            return .originating
        case "request-initiated":
            guard let pattern = node.child("requestPattern", of: fields) else {
                throw node.error("a \"request-initiated\" target needs a \"requestPattern\" for the channels' opening requests")
            }
            let kind = try node.child("channelType", of: fields).map(channelKind)
            return .channels(kind: kind, request: try requestPredicate(pattern))
        default:
            throw node.error("unknown channel target \"\(type)\"; use \"originating\" or \"request-initiated\"")
        }
    }

    /// A message definition (`{"body": {"data": …}}`) as what makes the message for each firing.
    static func message(_ node: WireMockNode, files: FolderPath?,
                        parameters: TemplateObject = TemplateObject()) throws(HTTPMockError) -> @Sendable (MessageStub.Input) -> WebSocketMessage {
        let fields = try node.object(known: ["body"])
        guard let body = node.child("body", of: fields) else {
            throw node.error("a message needs a \"body\": {\"data\": \"…\"}, base64 \"data\" with \"encoding\": \"binary\", or a \"filePath\"")
        }
        // `null` is no data (read as absent, as other keys given `null` are), not an empty message.
        if case .object(let members) = body.value, (members["data"] ?? .null) == .null, (members["filePath"] ?? .null) == .null {
            throw body.error("a message body needs \"data\" or \"filePath\"")
        }
        let bodyFields = try body.object(known: ["data", "encoding", "isBinary", "filePath"])
        var binary = try body.child("isBinary", of: bodyFields)?.bool() ?? false
        if let encoding = body.child("encoding", of: bodyFields) {
            switch try encoding.string().lowercased() {
            case "binary": binary = true
            case "text": break
            case let other: throw encoding.error("unknown encoding \"\(other)\"; use \"text\" or \"binary\"")
            }
        }
        if bodyFields["data"] != nil, bodyFields["filePath"] != nil {
            throw body.error("give \"data\" or \"filePath\", not both")
        }
        if let file = body.child("filePath", of: bodyFields) {
            guard let files else { throw file.error("there is no __files folder to read \"\(try file.string())\" from") }
            let url = try files.file(try file.string(), place: "\(file.place) at \(file.path)")
            let data = try DefinitionFile.read(url, name: url.lastPathComponent, limit: FileSizeLimits.standard.definitions, knob: "definitions")
            let message: WebSocketMessage = binary ? .binary(data) : .text(String(decoding: data, as: UTF8.self))
            return { _ in message }
        }
        let data = try body.child("data", of: bodyFields)?.string() ?? ""
        if binary {
            guard let bytes = Data(base64Encoded: data) else { throw body.error("\"data\" of a binary message is base64; this is not") }
            return { _ in .binary(bytes) }
        }
        guard data.contains("{{") else { return { _ in .text(data) } }
        let template: HandlebarsTemplate
        do {
            template = try HandlebarsTemplate(data, pathNames: [:], place: "\(body.place) at \(body.path).data", parameters: parameters)
        } catch {
            throw HTTPMockError(.invalidDefinition, error.message)
        }
        return { input in .text(template.render(MessageTemplateModel(input: input))) }
    }
}

/// What a message template reads: `request` (the channel's opening request, or the HTTP request that fired the
/// stub) and `message.body`.
struct MessageTemplateModel: TemplateModel {
    let request: TemplateRequestModel
    let message: WebSocketMessage?

    init(input: MessageStub.Input) {
        request = TemplateRequestModel(request: input.request, pathNames: [:])
        message = input.message
    }

    func attribute(_ name: String) -> TemplateValue? { request.attribute(name) }
    var materialized: TemplateValue { request.materialized }
    var roots: [(String, TemplateValue)] {
        guard let message else { return [] }
        let body: String = switch message {
        case .text(let text): text
        case .binary(let data): data.base64EncodedString()
        }
        return [("message", .object(TemplateObject([("body", .string(body))])))]
    }
}

extension RequestPredicate {
    /// A request meets both.
    init(both first: RequestPredicate, _ second: RequestPredicate) {
        self.init(conditions: first.conditions + second.conditions)
    }
}

/// The parts of a message mapping the admin API reads on their own: a message pattern's `body`, a send's `message`.
package enum WireMockMessageBody {
    /// A WireMock value pattern on a message's body.
    package static func pattern(json: Data, source: String) throws(HTTPMockError) -> WebSocketMessagePattern {
        let value = try DefinitionFile.decode(JSONValue.self, from: json, name: source)
        return try WireMockMessageMapping.bodyPattern(WireMockNode(value: value, path: "", place: source))
    }

    /// A message definition (`{"body": {"data": …}}`), made once (a template is rendered with no request).
    package static func message(json: Data, source: String, filesFolder: URL?) throws(HTTPMockError) -> WebSocketMessage {
        let value = try DefinitionFile.decode(JSONValue.self, from: json, name: source)
        let files = filesFolder.flatMap { LocalFile.kind(at: $0.path) == .directory ? FolderPath(root: $0) : nil }
        let make = try WireMockMessageMapping.message(WireMockNode(value: value, path: "", place: source), files: files)
        return make(MessageStub.Input(message: nil, request: CapturedRequest(url: URL(string: "http://localhost/")!)))
    }
}
