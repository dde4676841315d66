import Foundation

/// A message stub as the engine keeps it: when it fires (a message on a channel, an HTTP request), and what it then
/// sends where. WireMock's message stub mappings (files under `message-mappings/`, the admin API) and the Swift API
/// translate into this one definition.
package struct MessageStub: Sendable {
    /// When a stub fires.
    package enum Trigger: Sendable {
        /// A message a client sends on a channel whose kind is `kind` (any, when `nil`) and whose opening request
        /// meets `channel` (any, when `nil`), when the message meets `body` (any, when `nil`).
        case message(kind: MessageChannel.Kind?, channel: RequestPredicate?, body: WebSocketMessagePattern?)
        /// An HTTP request the mock answered (any stub, or none) that meets `request`.
        case httpRequest(RequestPredicate)
        /// An HTTP request answered by the stub with this WireMock identifier (see ``Messaging/stubIdentity``).
        case httpStub(UUID)
    }

    /// Where an action's message goes.
    package enum Target: Sendable {
        /// The channel whose message fired the stub; for an HTTP trigger, the channel its request opened (a WebSocket
        /// upgrade), if any.
        case originating
        /// Every open channel of `kind` (any, when `nil`) whose opening request meets `request`.
        case channels(kind: MessageChannel.Kind?, request: RequestPredicate)
    }

    /// What an action's message is made from when it fires.
    package struct Input: Sendable {
        /// The message that fired the stub (none for an HTTP trigger).
        package let message: WebSocketMessage?
        /// The channel's opening request, or the HTTP request that fired the stub.
        package let request: CapturedRequest

        package init(message: WebSocketMessage?, request: CapturedRequest) {
            self.message = message
            self.request = request
        }
    }

    /// One message sent when the stub fires.
    package struct Action: Sendable {
        package var target: Target
        /// Seconds after the stub fired.
        package var delay: TimeInterval
        /// The message, made for each firing (a template is rendered here).
        package var message: @Sendable (Input) -> WebSocketMessage

        package init(target: Target, delay: TimeInterval = 0, message: @escaping @Sendable (Input) -> WebSocketMessage) {
            self.target = target
            self.delay = delay
            self.message = message
        }
    }

    package let id: UUID
    package var name: String?
    /// WireMock's priority: 1 ranks first; `nil` ranks after every number. Among equals the stub added last wins.
    package var priority: Int?
    package var trigger: Trigger
    package var actions: [Action]
    /// The stub as WireMock's JSON writes it (for listings and the journal), when it came from one.
    package var json: Data?
    /// The stub's metadata as JSON, for searches by metadata.
    package var metadata: Data?

    package init(id: UUID = UUID.random(), name: String? = nil, priority: Int? = nil, trigger: Trigger, actions: [Action],
                 json: Data? = nil, metadata: Data? = nil) {
        self.id = id
        self.name = name
        self.priority = priority
        self.trigger = trigger
        self.actions = actions
        self.json = json
        self.metadata = metadata
    }

    var isHTTPTriggered: Bool {
        if case .message = trigger { return false }
        return true
    }
}
