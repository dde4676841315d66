import Foundation
import _HTTPMockJSON

// Message channels: WebSocket conversations and event streams kept open, the message stubs that answer on them,
// and the message journal. HTTPMockServer and `httpmock serve` carry channels out; the engine keeps them.

extension HTTPMock {
    /// Every message journaled on the mock's channels, both ways, oldest first (see ``MessageEvent``).
    public var messageEvents: [MessageEvent] { core.engine.messaging.events }

    /// The channels open now, oldest first.
    public var messageChannels: [MessageChannel] { core.engine.messaging.channels }

    /// How many message stubs the mock has (from code, files and the admin API).
    public var messageStubCount: Int { core.engine.messaging.stubs.count }

    /// Empties the message journal.
    public func clearMessageEvents() { core.engine.messaging.clearEvents() }

    /// Sends `message` to every open channel of `kind` (any kind, when `nil`) whose opening request meets every
    /// matcher of `request` (every open channel, when empty); returns the channels it reached.
    ///
    /// ```swift
    /// let reached = try mock.sendMessage(.text("{\"type\":\"tick\"}"), to: .webSocket, matching: [.path("/live")])
    /// #expect(reached.count == 1)
    /// ```
    ///
    /// A channel of kind ``MessageChannel/Kind/serverSentEvents`` gets the message as one event: its text as the
    /// `data:` lines (a binary message as base64).
    @discardableResult
    public func sendMessage(_ message: WebSocketMessage, to kind: MessageChannel.Kind? = nil,
                            matching request: [Match] = []) throws(HTTPMockError) -> [MessageChannel] {
        let predicate = request.isEmpty ? nil : try RequestPredicate(request)
        return core.engine.messaging.send(message, to: kind, matching: predicate)
    }

    /// Adds a message stub: when a client sends a message that `pattern` matches on a channel whose opening
    /// request meets every matcher of `channel`, the mock sends `replies` back on that channel, in order.
    ///
    /// ```swift
    /// let stub = try mock.addMessageStub(channel: [.path("/chat")], when: .text("ping"), reply: [.text("pong")])
    /// // …
    /// mock.removeMessageStub(stub)
    /// ```
    ///
    /// Message stubs answer on every WebSocket conversation, scripted or not; with one registered, HTTPMockServer
    /// accepts a WebSocket on any path that no stub answers, as WireMock does. Among the stubs that match, the
    /// lowest `priority` number answers, then the one added last.
    @discardableResult
    public func addMessageStub(channel: [Match] = [], when pattern: WebSocketMessagePattern = .any,
                               reply replies: [WebSocketMessage], priority: Int? = nil) throws(HTTPMockError) -> UUID {
        let predicate = channel.isEmpty ? nil : try RequestPredicate(channel)
        let stub = MessageStub(priority: priority, trigger: .message(kind: nil, channel: predicate, body: pattern),
                               actions: replies.map { reply in MessageStub.Action(target: .originating) { _ in reply } })
        try core.engine.messaging.register([stub])
        return stub.id
    }

    /// Removes the message stub `id` (from ``addMessageStub(channel:when:reply:priority:)`` or a mapping's `id`).
    public func removeMessageStub(_ id: UUID) {
        core.engine.messaging.removeStubs { $0.id == id }
    }

    /// Whether a WebSocket upgrade that no stub answers opens a plain channel (to be driven with
    /// ``sendMessage(_:to:matching:)`` and message stubs), as WireMock accepts a WebSocket on any path.
    /// `httpmock serve` turns it on; with a message stub registered it is on too.
    public var acceptsAnyWebSocket: Bool {
        get { core.engine.messaging.acceptsAnyWebSocket }
        set { core.engine.messaging.acceptsAnyWebSocket = newValue }
    }

    /// Waits until `count` journaled messages (those there already count) go `direction` (either way, when `nil`)
    /// and match `pattern`, or `timeout` seconds pass; returns those found, fewer after a timeout.
    ///
    /// ```swift
    /// let received = await mock.waitForMessages(count: 2, direction: .received, matching: .containing("hello"))
    /// ```
    public func waitForMessages(count: Int = 1, direction: MessageEvent.Direction? = nil,
                                matching pattern: WebSocketMessagePattern = .any,
                                timeout: TimeInterval = 10) async -> [MessageEvent] {
        await core.engine.messaging.waitForEvents(count: count, timeout: timeout) { event in
            (direction == nil || event.direction == direction) && pattern.matches(event.message)
        }
    }
}

// MARK: - What the faces use

extension HTTPMock {
    /// The mock's messaging (channels, message stubs, the message journal), for the server and the admin API.
    package var messaging: Messaging { core.engine.messaging }

    /// Reads WireMock message stub mappings from `data` (one file or an admin request), every problem at once.
    package func readMessageMappings(_ data: Data, source: String, filesFolder: URL?) throws(HTTPMockError) -> [MessageStub] {
        let files = filesFolder.flatMap { LocalFile.kind(at: $0.path) == .directory ? FolderPath(root: $0, limits: fileSizeLimits) : nil }
        return try WireMockMessageMapping.read(data, source: source, files: files)
    }

    /// Loads the `message-mappings/` folder of the WireMock root `root`, all or nothing, in place of what `slot`
    /// held; returns how many stubs it holds (0 without the folder).
    @discardableResult
    package func loadMessageMappings(root: URL, slot: String) throws(HTTPMockError) -> Int {
        let stubs = try prepareMessageMappings(root: root)
        try core.engine.messaging.register(stubs, slot: slot)
        return stubs.count
    }

    /// The stubs of the `message-mappings/` folder of `root`, read and checked (every problem at once).
    package func prepareMessageMappings(root: URL) throws(HTTPMockError) -> [MessageStub] {
        let folder = root.appendingPathComponent(Self.messageMappingsFolder, isDirectory: true).standardizedFileURL
        guard LocalFile.kind(at: folder.path) == .directory else { return [] }
        let bodies = root.appendingPathComponent("__files", isDirectory: true)
        let files = LocalFile.kind(at: bodies.path) == .directory ? FolderPath(root: bodies, limits: fileSizeLimits) : nil
        var problems: [HTTPMockError] = []
        var stubs: [MessageStub] = []
        for name in WireMockFolder.mappingFiles(in: folder) {
            let source = Self.messageMappingsFolder + "/" + name
            do {
                let data = try DefinitionFile.read(folder.appendingPathComponent(name), name: source,
                                                   limit: fileSizeLimits.definitions, knob: "definitions")
                let value = try DefinitionFile.decode(JSONValue.self, from: data, name: source, lenient: true)
                stubs += WireMockMessageMapping.read(value, source: source, files: files, problems: &problems)
            } catch {
                problems.append(error)
            }
        }
        if let problem = HTTPMockError(every: problems, in: folder.path) { throw problem }
        return stubs
    }

    /// The folder of a WireMock root that holds message stub mappings, beside `mappings/`.
    package static let messageMappingsFolder = "message-mappings"
}
