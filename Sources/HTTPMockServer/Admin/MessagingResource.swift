#if Server
import Foundation
import HTTPMock
import NIOCore

/// WireMock's messaging operations: message stub mappings (`/__admin/message-mappings`), the message journal
/// (`/__admin/messages`) and the channels (`/__admin/channels`), in the shapes of WireMock's admin API description.
/// HTTPMock adds the channel type `sse`: an event stream kept open, which `channels/send` reaches too.
enum MessagingResource {
    static let routes: [AdminRoute] = [
        AdminRoute("GET", "message-mappings") { request, _, context throws(AdminError) in
            try listing(context.mock.messaging.stubs, request: request)
        },
        AdminRoute("POST", "message-mappings") { request, _, context throws(AdminError) in
            try create(request, context)
        },
        AdminRoute("DELETE", "message-mappings") { _, _, context in
            context.mock.messaging.removeStubs { _ in true }
            return .json([String: Any]())
        },
        AdminRoute("DELETE", "message-mappings/{id}") { _, parameters, context throws(AdminError) in
            let id = try uuid(parameters["id"], naming: "message mapping")
            guard !context.mock.messaging.removeStubs(where: { $0.id == id }).isEmpty else {
                throw AdminError(status: 404, code: 40, title: "Message stub mapping not found", detail: "no message mapping has the id \(id.lowercasedText)")
            }
            return .json([String: Any]())
        },
        AdminRoute("POST", "message-mappings/find-by-metadata") { request, _, context throws(AdminError) in
            let meets = try metadataPredicate(request)
            return try listing(context.mock.messaging.stubs.filter { meets($0.metadata) }, request: nil)
        },
        AdminRoute("POST", "message-mappings/remove-by-metadata") { request, _, context throws(AdminError) in
            let meets = try metadataPredicate(request)
            let chosen = Set(context.mock.messaging.stubs.filter { meets($0.metadata) }.map(\.id))
            context.mock.messaging.removeStubs { chosen.contains($0.id) }
            return .json([String: Any]())
        },
        AdminRoute("GET", "messages") { _, _, context in
            events(context.mock.messaging.events, context)
        },
        AdminRoute("DELETE", "messages") { _, _, context in
            context.mock.messaging.clearEvents()
            return .json([String: Any]())
        },
        AdminRoute("GET", "messages/{id}") { _, parameters, context throws(AdminError) in
            let id = try uuid(parameters["id"], naming: "message event")
            guard let event = context.mock.messaging.event(id) else {
                throw AdminError(status: 404, code: 40, title: "Message event not found", detail: "the message journal has no event \(id.lowercasedText)")
            }
            return .json(["item": eventObject(event, stubs: stubJSON(context))])
        },
        AdminRoute("DELETE", "messages/{id}") { _, parameters, context throws(AdminError) in
            let id = try uuid(parameters["id"], naming: "message event")
            context.mock.messaging.removeEvents { $0.id == id }
            return .json([String: Any]())
        },
        AdminRoute("POST", "messages/count") { request, _, context throws(AdminError) in
            let pattern = try messagePattern(try request.jsonObject())
            return .json(["count": context.mock.messaging.events.filter(pattern).count, "messageJournalDisabled": false])
        },
        AdminRoute("POST", "messages/find") { request, _, context throws(AdminError) in
            let pattern = try messagePattern(try request.jsonObject())
            return events(context.mock.messaging.events.filter(pattern), context)
        },
        AdminRoute("POST", "messages/remove") { request, _, context throws(AdminError) in
            let pattern = try messagePattern(try request.jsonObject())
            return events(context.mock.messaging.removeEvents(where: pattern), context)
        },
        AdminRoute("POST", "messages/remove-by-metadata") { request, _, context throws(AdminError) in
            let meets = try metadataPredicate(request)
            let metadata = Dictionary(context.mock.messaging.stubs.map { ($0.id, $0.metadata) }, uniquingKeysWith: { $1 })
            let removed = context.mock.messaging.removeEvents { event in
                event.stubID.map { meets(metadata[$0] ?? nil) } ?? false
            }
            return events(removed, context)
        },
        // Answered by `waiting(_:context:)`, without holding a thread while they wait: listed here for the route table.
        AdminRoute("POST", "messages/wait") { _, _, _ throws(AdminError) in throw waitedElsewhere },
        AdminRoute("POST", "messages/wait-for-count") { _, _, _ throws(AdminError) in throw waitedElsewhere },
        AdminRoute("GET", "channels") { _, _, context in
            let channels = context.mock.messaging.channels
            return .json(["channels": channels.map(channelObject), "meta": ["total": channels.count]])
        },
        AdminRoute("POST", "channels/send") { request, _, context throws(AdminError) in
            try send(request, context)
        },
    ]

    /// `POST /__admin/reset` removes the message mappings made over the API (those of files stay) and empties the
    /// message journal.
    static func reset(_ context: AdminContext) {
        context.mock.messaging.resetStubs()
        context.mock.messaging.clearEvents()
    }

    /// The longest a wait may be asked to take (`timeoutMillis`), in milliseconds.
    static let longestWait = 300_000

    // MARK: - Mappings

    private static func uuid(_ text: String?, naming what: String) throws(AdminError) -> UUID {
        guard let text, let id = UUID(uuidString: text) else {
            throw AdminError(status: 404, code: 40, title: "No such \(what)", detail: "\(text ?? "") is not a UUID; \(what)s are named by theirs")
        }
        return id
    }

    private static func listing(_ stubs: [MessageStub], request: AdminRequest?) throws(AdminError) -> AdminReply {
        var shown = stubs
        if let request {
            let offset = try request.wholeNumber("offset", counting: "message mappings to skip") ?? 0
            shown = Array(shown.dropFirst(offset))
            if let limit = try request.wholeNumber("limit", counting: "message mappings") { shown = Array(shown.prefix(limit)) }
        }
        return .json(["messageMappings": shown.map(stubObject), "meta": ["total": stubs.count]])
    }

    private static func stubObject(_ stub: MessageStub) -> Any {
        stub.json.flatMap { try? JSONSerialization.jsonObject(with: $0) }
            ?? ["id": stub.id.lowercasedText, "name": stub.name ?? "registered in code"] as [String: Any]
    }

    private static func create(_ request: AdminRequest, _ context: AdminContext) throws(AdminError) -> AdminReply {
        let object = try request.jsonObject()
        if object["messageMappings"] != nil {
            throw AdminError.invalidJSON(pointer: "/messageMappings", detail: "POST one message mapping at a time")
        }
        let stubs: [MessageStub]
        do {
            stubs = try context.mock.readMessageMappings(request.body ?? Data(), source: "the message mapping",
                                                         filesFolder: context.state.mappings.wireMockFolder?.appendingPathComponent("__files"))
            try context.mock.messaging.register(stubs)
        } catch {
            throw AdminError.unreadable(error)
        }
        return .json(stubs.first.map(stubObject) ?? [String: Any](), status: 201)
    }

    /// Whether a stub's metadata (JSON, `nil` for none) meets the body, a WireMock value pattern.
    private static func metadataPredicate(_ request: AdminRequest) throws(AdminError) -> @Sendable (Data?) -> Bool {
        let pattern = try request.jsonObject()
        if pattern.isEmpty {
            throw AdminError.invalidJSON(pointer: "/", detail: "the body is an empty pattern; give one, such as {\"matchesJsonPath\": \"$.team\"}")
        }
        let predicate = try requestPredicate(["bodyPatterns": [pattern]], source: "the metadata pattern")
        return { metadata in
            guard let metadata else { return false }
            let probe = CapturedRequest(method: "POST", url: URL(string: "http://metadata.invalid/")!,
                                        headers: ["Content-Type": "application/json"], body: metadata)
            return predicate.matches(probe)
        }
    }

    private static func requestPredicate(_ object: Any, source: String) throws(AdminError) -> RequestPredicate {
        do {
            // Any JSON value (`null`, a string): one that is no object is refused by the reading, not a stop of the
            // server (Foundation stops the process on a top-level value that is not an array or object).
            let data = try JSONSerialization.data(withJSONObject: object, options: .fragmentsAllowed)
            return try RequestPredicate(try WireMockStubMapping.requestPattern(json: data, source: source))
        } catch let error as HTTPMockError {
            throw AdminError.unreadable(error)
        } catch {
            throw AdminError.invalidJSON(pointer: "/", detail: "\(error)")
        }
    }

    // MARK: - Journal

    /// A message pattern (`{"channel": <request pattern>, "body": <value pattern>}`) as a test of an event.
    private static func messagePattern(_ object: [String: Any]) throws(AdminError) -> @Sendable (MessageEvent) -> Bool {
        for key in object.keys where key != "channel" && key != "body" {
            throw AdminError.invalidJSON(pointer: "/\(key)", detail: "unknown key \"\(key)\"; a message pattern has \"channel\" (a request pattern) and \"body\" (a value pattern)")
        }
        let channel = try object["channel"].map { (pattern) throws(AdminError) in try requestPredicate(pattern, source: "the message pattern's channel") }
        var body: WebSocketMessagePattern?
        if let given = object["body"] {
            do {
                body = try WireMockMessageBody.pattern(json: try JSONSerialization.data(withJSONObject: given, options: .fragmentsAllowed),
                                                       source: "the message pattern's body")
            } catch let error as HTTPMockError {
                throw AdminError.unreadable(error)
            } catch {
                throw AdminError.invalidJSON(pointer: "/body", detail: "\(error)")
            }
        }
        let bodyPattern = body
        return { event in
            (channel?.matches(event.channel.request) ?? true) && (bodyPattern?.matches(event.message) ?? true)
        }
    }

    private static func waitRequest(_ request: AdminRequest) throws(AdminError) -> (@Sendable (MessageEvent) -> Bool, TimeInterval, Int) {
        let object = try request.jsonObject()
        for key in object.keys where !["pattern", "timeoutMillis", "count"].contains(key) {
            throw AdminError.invalidJSON(pointer: "/\(key)", detail: "unknown key \"\(key)\"; a wait has \"pattern\", \"timeoutMillis\" and \"count\"")
        }
        guard let given = object["timeoutMillis"] else {
            throw AdminError.invalidJSON(pointer: "/timeoutMillis", detail: "\"timeoutMillis\" is required: a whole number of milliseconds from 0 to \(longestWait)")
        }
        guard let number = given as? NSNumber, let millis = Int(exactly: number.doubleValue),
              (0...longestWait).contains(millis) else {
            throw AdminError.invalidJSON(pointer: "/timeoutMillis", detail: "\"timeoutMillis\" is \(given), not a whole number of milliseconds from 0 to \(longestWait)")
        }
        var count = 1
        if let given = object["count"] {
            guard let number = (given as? NSNumber)?.intValue, (1...10_000).contains(number) else {
                throw AdminError.invalidJSON(pointer: "/count", detail: "\"count\" is a whole number from 1 to 10000")
            }
            count = number
        }
        let pattern = try messagePattern((object["pattern"] as? [String: Any]) ?? [:])
        return (pattern, Double(millis) / 1_000, count)
    }

    private static let waitedElsewhere = AdminError(status: 500, code: 10, title: "A wait is answered on its own",
                                                    detail: "this route is answered without the admin pools")

    /// Waits running now, and the most there may be: past it a wait is refused at once, never queued.
    private static let runningWaits = Locked(0)
    static let maximumWaits = 1_000

    /// `POST /__admin/messages/wait` and `wait-for-count`: what answers them, awaited without holding a thread (the
    /// message journal wakes it; each answers by its own deadline); `nil` for any other request.
    static func waiting(_ request: AdminRequest, context: AdminContext) -> (@Sendable () async -> AdminReply)? {
        guard request.method == "POST", request.segments.count == 2, request.segments[0] == "messages",
              request.segments[1] == "wait" || request.segments[1] == "wait-for-count" else { return nil }
        let single = request.segments[1] == "wait"
        return {
            let parsed: (@Sendable (MessageEvent) -> Bool, TimeInterval, Int)
            do throws(AdminError) {
                parsed = try waitRequest(request)
            } catch {
                return error.reply
            }
            let admitted = runningWaits.withLock { running -> Bool in
                guard running < maximumWaits else { return false }
                running += 1
                return true
            }
            guard admitted else {
                return AdminError(status: 503, code: 10, title: "Too many waits",
                                  detail: "\(maximumWaits) waits are running already; wait for fewer at a time").reply
            }
            defer { runningWaits.withLock { $0 -= 1 } }
            let (pattern, timeout, count) = parsed
            let found = await context.mock.messaging.waitForEvents(count: single ? 1 : count, timeout: timeout, matching: pattern)
            if single {
                return .json(["item": found.first.map { eventObject($0, stubs: stubJSON(context)) } ?? NSNull()])
            }
            return events(found, context)
        }
    }

    private static func stubJSON(_ context: AdminContext) -> [UUID: MessageStub] {
        Dictionary(context.mock.messaging.stubs.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
    }

    private static func events(_ events: [MessageEvent], _ context: AdminContext) -> AdminReply {
        let stubs = stubJSON(context)
        return .json(["messageServeEvents": events.map { eventObject($0, stubs: stubs) }, "messageJournalDisabled": false])
    }

    private static func eventObject(_ event: MessageEvent, stubs: [UUID: MessageStub]) -> Any {
        var object: [String: Any] = [
            "id": event.id.lowercasedText,
            "eventType": event.direction.rawValue,
            "channelType": event.channel.kind.rawValue,
            "channelId": event.channel.id.lowercasedText,
            "channelRequest": loggedRequest(event.channel),
            "message": text(of: event.message),
            "wasMatched": event.wasMatched,
            "timestamp": event.date.iso8601,
            "subEvents": [Any](),
        ]
        if case .binary = event.message { object["isBinary"] = true }
        if let id = event.stubID {
            object["stubMapping"] = stubs[id].map(stubObject) ?? ["id": id.lowercasedText, "name": event.stubName ?? ""] as [String: Any]
        }
        return object
    }

    private static func text(of message: WebSocketMessage) -> String {
        switch message {
        case .text(let text): text
        case .binary(let data): data.base64EncodedString()
        }
    }

    // MARK: - Channels

    private static func loggedRequest(_ channel: MessageChannel) -> Any {
        ServeEventJSON.loggedRequest(JournalEntry(id: 0, request: channel.request, receivedAt: channel.openedAt,
                                                  resolution: .unmatched(reason: "")))
    }

    private static func channelObject(_ channel: MessageChannel) -> Any {
        ["id": channel.id.lowercasedText, "type": channel.kind.rawValue, "initiatingRequest": loggedRequest(channel),
         "open": channel.isOpen] as [String: Any]
    }

    /// `{"type": "websocket"|"sse", "initiatingRequest": <request pattern>, "message": {"body": {"data": …}}}`.
    private static func send(_ request: AdminRequest, _ context: AdminContext) throws(AdminError) -> AdminReply {
        let object = try request.jsonObject()
        for key in object.keys where !["type", "initiatingRequest", "message"].contains(key) {
            throw AdminError.invalidJSON(pointer: "/\(key)", detail: "unknown key \"\(key)\"; a send has \"type\", \"initiatingRequest\" and \"message\"")
        }
        guard let typeName = object["type"] as? String, let kind = MessageChannel.Kind(rawValue: typeName.lowercased()) else {
            throw AdminError.invalidJSON(pointer: "/type", detail: "\"type\" is required: \"websocket\", or \"sse\" for event streams kept open")
        }
        guard let messageObject = object["message"] else {
            throw AdminError.invalidJSON(pointer: "/message", detail: "\"message\" is required: {\"body\": {\"data\": \"…\"}}")
        }
        let channel = try object["initiatingRequest"].map { (pattern) throws(AdminError) in
            try requestPredicate(pattern, source: "the send's initiatingRequest")
        }
        let message: WebSocketMessage
        do {
            message = try WireMockMessageBody.message(json: try JSONSerialization.data(withJSONObject: messageObject, options: .fragmentsAllowed),
                                                      source: "the send's message",
                                                      filesFolder: context.state.mappings.wireMockFolder?.appendingPathComponent("__files"))
        } catch let error as HTTPMockError {
            throw AdminError.unreadable(error)
        } catch {
            throw AdminError.invalidJSON(pointer: "/message", detail: "\(error)")
        }
        let reached = context.mock.messaging.send(message, to: kind, matching: channel)
        return .json(["channels": reached.map(channelObject), "channelsMessaged": reached.count])
    }
}
#endif
