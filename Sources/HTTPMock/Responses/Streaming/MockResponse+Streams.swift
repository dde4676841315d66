import Foundation

extension MockResponse {
    /// A body streamed in parts, each reaching the client when it is due, as a server that flushes chunks over
    /// time sends them.
    ///
    /// ```swift
    /// MockResponse.chunks([
    ///     .chunk("{\"progress\":10}\n"),
    ///     .chunk("{\"progress\":100}\n", after: 0.5),
    /// ], contentType: "application/x-ndjson")
    /// ```
    ///
    /// The response has no `Content-Length` (over the socket it is sent with chunked transfer encoding). Its
    /// ``delivery`` delays the headers; the parts follow on their own timing. See ``StreamFault`` for a
    /// stream that drops, fails or stalls part of the way through.
    ///
    /// - Important: What each kind of `URLSession` task receives differs by platform: see the article
    ///   "Streaming responses". Delegate-based tasks get each part when it is due everywhere.
    public static func chunks(
        _ parts: [StreamPart],
        contentType: String = "application/octet-stream",
        status: Status = .ok,
        fault: StreamFault? = nil,
        lifetime: Lifetime = .single,
        headers: [String: String] = [:]
    ) -> MockResponse {
        var problems: [String] = []
        for (index, part) in parts.enumerated() where !(part.delay >= 0 && part.delay.isFinite) {
            problems.append("part \(index) has a delay of \(part.delay) s; use a finite number of seconds, 0 or more")
        }
        if let fault, fault.afterParts < 0 || fault.afterParts > parts.count {
            problems.append("the fault comes after \(fault.afterParts) parts, but the stream has \(parts.count); use 0...\(parts.count)")
        }
        let response = MockResponse(status: status, headers: headers,
                                    content: .stream(StreamSource(.script(parts, fault: fault))),
                                    contentType: contentType, lifetime: lifetime, delivery: .instant)
        guard problems.isEmpty else {
            return invalid(.invalidResponse("streamed body: " + problems.joined(separator: "; ")), status: status,
                           headers: headers, lifetime: lifetime, delivery: .instant)
        }
        return response
    }

    /// Server-sent events (`Content-Type: text/event-stream`), one every `interval` seconds (the first one
    /// `interval` after the headers).
    ///
    /// ```swift
    /// MockResponse.events(["The", " answer", " is", " 42"].map { ServerSentEvent($0) }, every: 0.05)
    /// MockResponse.events([ServerSentEvent("{\"delta\":\"Hi\"}", event: "delta", id: "1")], fault: .drop(afterParts: 1))
    /// ```
    ///
    /// Each event is framed as ``ServerSentEvent`` describes and is one part of the stream. For events with
    /// timings of their own, use ``chunks(_:contentType:status:fault:lifetime:headers:)`` with
    /// ``StreamPart/event(_:after:)`` parts and `contentType: "text/event-stream"`.
    public static func events(
        _ events: [ServerSentEvent],
        every interval: TimeInterval = 0,
        status: Status = .ok,
        fault: StreamFault? = nil,
        lifetime: Lifetime = .single,
        headers: [String: String] = [:]
    ) -> MockResponse {
        chunks(events.map { .event($0, after: interval) }, contentType: "text/event-stream", status: status,
               fault: fault, lifetime: lifetime, headers: eventStreamHeaders(headers))
    }

    /// A body whose parts the test sends while the client listens (see ``MockStream``).
    ///
    /// A ``MockStream`` answers one request, so the response is served once.
    public static func stream(
        _ stream: MockStream,
        contentType: String = "application/octet-stream",
        status: Status = .ok,
        headers: [String: String] = [:]
    ) -> MockResponse {
        MockResponse(status: status, headers: headers, content: .stream(StreamSource(.live(stream))),
                     contentType: contentType, lifetime: .single, delivery: .instant)
    }

    /// Server-sent events that the test sends while the client listens (see ``MockStream``):
    /// `Content-Type: text/event-stream`.
    public static func events(
        from stream: MockStream,
        status: Status = .ok,
        headers: [String: String] = [:]
    ) -> MockResponse {
        self.stream(stream, contentType: "text/event-stream", status: status, headers: eventStreamHeaders(headers))
    }

    /// A body that `producer` writes for each request it answers, on a task of its own: it sends parts with
    /// ``MockStream/send(_:)-(Data)``, and the stream ends when it returns (or fails with what it throws).
    ///
    /// ```swift
    /// MockResponse.stream(contentType: "text/event-stream") { stream in
    ///     for token in ["Hello", ",", " world"] {
    ///         try await Task.sleep(for: .milliseconds(20))
    ///         await stream.send(ServerSentEvent(token))
    ///     }
    /// }
    /// ```
    ///
    /// When the client goes away (it cancels, its connection closes), the producer's task is cancelled.
    public static func stream(
        contentType: String = "application/octet-stream",
        status: Status = .ok,
        lifetime: Lifetime = .single,
        headers: [String: String] = [:],
        producer: @escaping @Sendable (MockStream) async throws -> Void
    ) -> MockResponse {
        var headers = headers
        if contentType == "text/event-stream" { headers = eventStreamHeaders(headers) }
        return MockResponse(status: status, headers: headers, content: .stream(StreamSource(.producer(producer))),
                            contentType: contentType, lifetime: lifetime, delivery: .instant)
    }

    /// A body whose parts are the elements of `sequence`, each sent when the sequence yields it.
    ///
    /// The sequence is iterated once for each request the response answers.
    public static func stream<Parts: AsyncSequence & Sendable>(
        _ sequence: Parts,
        contentType: String = "application/octet-stream",
        status: Status = .ok,
        lifetime: Lifetime = .single,
        headers: [String: String] = [:]
    ) -> MockResponse where Parts.Element == Data {
        stream(contentType: contentType, status: status, lifetime: lifetime, headers: headers) { stream in
            for try await part in sequence {
                try Task.checkCancellation()
                await stream.send(part)
            }
        }
    }

    /// Whether the body is streamed in parts (``chunks(_:contentType:status:fault:lifetime:headers:)``,
    /// ``events(_:every:status:fault:lifetime:headers:)``, ``stream(_:contentType:status:headers:)``).
    public var isStreamed: Bool {
        if case .stream = content { return true }
        return false
    }

    /// `Cache-Control: no-cache` as event-stream servers send it, unless the caller set it.
    static func eventStreamHeaders(_ headers: [String: String]) -> [String: String] {
        var headers = headers
        if !headers.keys.contains(where: { ASCIICase.equal($0, "cache-control") }) {
            headers["Cache-Control"] = "no-cache"
        }
        return headers
    }
}

extension MockResponse {
    /// Server-sent events that stay open as a message channel: `events` go out first, then each message sent to
    /// the channel (``HTTPMock/sendMessage(_:to:matching:)``, a message stub, `POST /__admin/channels/send` with
    /// `"type": "sse"`) goes out as one event, its text the `data:` lines, until the client goes away.
    ///
    /// ```swift
    /// mock.addResponses(forPath: "/events") { MockResponse.eventChannel([ServerSentEvent("connected")]) }
    /// // a client listens…
    /// try mock.sendMessage(.text("{\"price\":42}"), to: .serverSentEvents, matching: [.path("/events")])
    /// ```
    ///
    /// A client that does not read gets no more than 1 MiB queued: a message beyond it does not reach that channel.
    public static func eventChannel(
        _ events: [ServerSentEvent] = [],
        status: Status = .ok,
        lifetime: Lifetime = .eternal,
        headers: [String: String] = [:]
    ) -> MockResponse {
        MockResponse(status: status, headers: eventStreamHeaders(headers), content: .stream(StreamSource(.channel(events.map(\.encoded)))),
                     contentType: "text/event-stream", lifetime: lifetime, delivery: .instant)
    }
}

extension ServerSentEvent {
    /// The event a message pushed to an event channel goes out as: its text (a binary message's base64) as data.
    package init(message: WebSocketMessage) {
        switch message {
        case .text(let text): self.init(text)
        case .binary(let data): self.init(data.base64EncodedString())
        }
    }
}
