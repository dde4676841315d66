import Foundation

// Messages on channels (WebSocket conversations, event channels), asserted and awaited with the words requests use:
// a channel's URL first, then what to match, the count, the mock, and the message last.

/// Asserts that messages went on channels opened at `url`: at least one by default, or as many as `count` says.
///
/// ```swift
/// HTTPAssertMessages("ws://127.0.0.1/chat", direction: .received, matching: .text("ping"), in: mock)
/// HTTPAssertMessages("ws://127.0.0.1/chat", direction: .sent, count: .exactly(2), in: mock)
/// ```
///
/// - Parameters:
///   - url: The channel's URL: its path is compared with the path of the request that opened the channel; `nil`:
///     any channel.
///   - direction: Only messages that went this way (`.received`: from the client); either
///     way when `nil`.
///   - pattern: What the message must match (any message by default).
///   - count: How many matching messages are expected. Default: at least one.
///   - mock: The mock whose message journal is read. Default: the current test's mock, else `HTTPMock.shared`.
///   - message: Added to the failure message.
///   - fileID: Where the failure is reported; leave the default.
///   - filePath: Where the failure is reported; leave the default.
///   - line: Where the failure is reported; leave the default.
///   - column: Where the failure is reported; leave the default.
/// - Returns: The matching events of the message journal.
@discardableResult
public func HTTPAssertMessages(
    _ url: String? = nil,
    direction: MessageEvent.Direction? = nil,
    matching pattern: WebSocketMessagePattern = .any,
    count: RequestCount = .atLeast(1),
    in mock: HTTPMock? = nil,
    _ message: @autoclosure () -> String = "",
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> [MessageEvent] {
    let mock = mock ?? HTTPMock.current ?? HTTPMock.shared
    let site = AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let filter = MessageFilter(url: url, direction: direction, pattern: pattern)
    let all = mock.messageEvents
    let matching = all.filter(filter.matches)
    if !count.accepts(matching.count) {
        let failure = "HTTPAssertMessages failed: expected \(count.description.replacingOccurrences(of: "request", with: "message")) \(filter.phrase), found \(matching.count)"
        FailureReporter.fail(FailureReporter.compose(failure, message: message(), details: filter.explain(all)), at: site)
    }
    return matching
}

/// Waits until `count` messages went on channels opened at `url` (those there already count), or fails the test
/// after `timeout` seconds.
///
/// ```swift
/// let received = await waitForMessages("ws://127.0.0.1/chat", direction: .received, count: 2, in: mock)
/// ```
///
/// - Parameters:
///   - url: The channel's URL, compared by path with the request that opened it; `nil`: any channel.
///   - direction: Only messages that went this way; either way when `nil`.
///   - pattern: What the message must match (any message by default).
///   - count: How many messages to wait for (default 1).
///   - mock: The mock whose message journal is watched. Default: the current test's mock, else `HTTPMock.shared`.
///   - message: Added to the failure message.
///   - timeout: Seconds before the wait fails the test (`TimeInterval`, default 10).
///   - fileID: Where the failure is reported; leave the default.
///   - filePath: Where the failure is reported; leave the default.
///   - line: Where the failure is reported; leave the default.
///   - column: Where the failure is reported; leave the default.
/// - Returns: The messages found (all `count` of them, or fewer after the failure was reported).
@discardableResult
public func waitForMessages(
    _ url: String? = nil,
    direction: MessageEvent.Direction? = nil,
    matching pattern: WebSocketMessagePattern = .any,
    count: Int = 1,
    in mock: HTTPMock? = nil,
    _ message: @autoclosure () -> String = "",
    timeout: TimeInterval = 10,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) async -> [MessageEvent] {
    let mock = mock ?? HTTPMock.current ?? HTTPMock.shared
    let filter = MessageFilter(url: url, direction: direction, pattern: pattern)
    let found = await mock.messaging.waitForEvents(count: count, timeout: timeout, matching: filter.matches)
    if found.count < max(1, count) {
        let failure = "waitForMessages timed out after \(timeout) s: expected \(count) message(s) \(filter.phrase), found \(found.count)"
        FailureReporter.fail(FailureReporter.compose(failure, message: message(), details: filter.explain(mock.messageEvents)),
                             at: AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }
    return found
}

/// Which messages an assertion or a wait counts.
struct MessageFilter: Sendable {
    let path: String?
    let direction: MessageEvent.Direction?
    let pattern: WebSocketMessagePattern

    init(url: String?, direction: MessageEvent.Direction?, pattern: WebSocketMessagePattern) {
        path = url.map { URLComponents(string: $0)?.path ?? $0 }.map { $0.isEmpty ? "/" : $0 }
        self.direction = direction
        self.pattern = pattern
    }

    func matches(_ event: MessageEvent) -> Bool {
        (path == nil || event.channel.request.url.path == path) && (direction == nil || event.direction == direction)
            && pattern.matches(event.message)
    }

    var phrase: String {
        var words: [String] = []
        if let direction { words.append(direction == .received ? "from the client" : "to the client") }
        if let path { words.append("on channels at \(path)") }
        words.append("matching \(pattern.description)")
        return words.joined(separator: " ")
    }

    /// What the journal holds, for a failure: the last messages.
    func explain(_ all: [MessageEvent]) -> [String] {
        guard !all.isEmpty else { return ["The message journal is empty: no channel carried a message."] }
        let shown = all.suffix(8)
        return ["The message journal's last \(shown.count) of \(all.count):"] + shown.map { event in
            "  \(event.direction == .received ? "←" : "→") \(event.channel.request.url.path): \(event.message)"
        }
    }
}
