import Foundation

/// Waits until a streamed response to `url` has delivered `parts` parts (one already there counts), or has ended;
/// fails the test after `timeout`.
///
/// ```swift
/// viewModel.startChat()
/// let record = await waitForStream(url: "https://api.example.com/chat", parts: 3)
/// #expect(record?.events.map(\.data) == ["The", " answer", " is"])
/// #expect(viewModel.text == "The answer is")
/// ```
///
/// With `parts: 0` it waits for the headers; with `ended: true` for the stream's end (finished, failed, or the
/// client went away: `StreamRecord.ending` says which).
///
/// - Parameters:
///   - url: The request's absolute URL as a `String` (scheme and host; its query, when it has one, compared exactly).
///   - method: Only a request with this method; any method when `nil`.
///   - parts: How many parts must have reached the client (`Int`, default 1).
///   - ended: Wait for the end of the stream instead (`Bool`, default `false`).
///   - journal: The ``RequestJournal`` to watch (an `HTTPMock`, or a ``JournalFolderReader`` over other
///     processes' journals); the test's mock (`HTTPMock.current`) when `nil`.
///   - message: Added to the failure.
///   - timeout: Seconds before the wait fails the test (`TimeInterval`, default 10).
///   - fileID: Where the failure is reported; leave the default.
///   - filePath: Where the failure is reported; leave the default.
///   - line: Where the failure is reported; leave the default.
///   - column: Where the failure is reported; leave the default.
/// - Returns: The stream's `StreamRecord` as it was when the wait ended: its `parts` (each with `data`
///   and `offset`, seconds after the headers), `partCount`, `events` (its server-sent events), `ending`; or `nil`
///   on timeout, after reporting the failure. Discardable: a wait alone is a fine assertion.
@discardableResult
public func waitForStream(
    url: String,
    method: HTTPMethod? = nil,
    parts: Int = 1,
    ended: Bool = false,
    in journal: (any RequestJournal)? = nil,
    _ message: @autoclosure () -> String = "",
    timeout: TimeInterval = 10,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) async -> StreamRecord? {
    let condition: @Sendable (JournalEntry) -> Bool = { entry in
        guard let stream = entry.stream else { return false }
        return ended ? !stream.isOpen : (stream.partCount >= parts || !stream.isOpen)
    }
    let what = ended ? "stream ended" : "stream delivered \(parts) part(s)"
    return await Waiting.wait("waitForStream", { () throws(HTTPMockError) in
        try RequestExpectation(url: url, method: method, headers: [:], queryParameters: [:])
    }, in: journal, completed: false, until: (condition, what), timeout: timeout, message: message(),
       site: AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column))?.stream
}
