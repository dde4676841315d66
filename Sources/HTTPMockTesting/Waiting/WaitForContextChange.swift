import Foundation

/// Runs `action`, then waits until the value stored under `key` in the journal folder `reader` reads differs from
/// what it was before `action` (a value appearing counts; storing the same value again does not), or fails the
/// test after `timeout`.
///
/// ```swift
/// let session = try await waitForContextChange("session", as: String.self, in: appJournal) {
///     try appFolder.store("session", value: "s-2")   // in a UI test: the tap that makes the app store it
/// }
/// ```
///
/// Without `action`, the value at the call is the one to change. The folder is polled every
/// ``JournalFolderReader/pollInterval`` (another process cannot push to this one).
///
/// - Parameters:
///   - key: The context key (see `JournalFolder.store(_:value:)`).
///   - type: What the new value decodes as; a new value that does not decode is waited past.
///   - reader: The journal folder to watch.
///   - message: Added to the failure message.
///   - timeout: How long to wait, in seconds, after `action` returns.
///   - isolation: Where `action` runs: the caller's actor; leave the default.
///   - fileID: Where the failure is reported; leave the default.
///   - filePath: Where the failure is reported; leave the default.
///   - line: Where the failure is reported; leave the default.
///   - column: Where the failure is reported; leave the default.
///   - action: What changes the value.
/// - Returns: The new value, or `nil` on timeout (after reporting the failure).
@discardableResult
public func waitForContextChange<Value: Decodable>(
    _ key: String,
    as type: Value.Type = Value.self,
    in reader: JournalFolderReader,
    message: @autoclosure () -> String = "",
    timeout: TimeInterval = 10,
    isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ action: () async throws -> Void = {}
) async rethrows -> Value? {
    let folder = reader.folder
    let before = folder.contextData(for: key)
    try await action()
    // DispatchTime, not ContinuousClock: that needs macOS 13 / iOS 16, and the package supports macOS 12 / iOS 15.
    let deadline = DispatchTime.now() + max(timeout, 0)
    let interval = UInt64(max(reader.pollInterval, 0.001) * 1_000_000_000)
    var undecodable: Data?
    while true {
        if let data = folder.contextData(for: key), data != before {
            if let value = try? JSONDecoder().decode(Value.self, from: data) { return value }
            undecodable = data
        }
        if DispatchTime.now() >= deadline { break }
        try? await Task.sleep(nanoseconds: interval)
    }
    func show(_ data: Data?) -> String { data.map { String(decoding: $0, as: UTF8.self) } ?? "none" }
    var details = ["Value before: \(show(before)); now: \(show(folder.contextData(for: key)))."]
    if let undecodable {
        details.append("It changed to \(show(undecodable)), which does not decode as \(Value.self).")
    }
    let keys = folder.contextKeys
    details.append(keys.isEmpty ? "No key has a value." : "Keys with a value: \(keys.joined(separator: ", ")).")
    FailureReporter.fail(FailureReporter.compose(
        "waitForContextChange failed: context value \"\(key)\" in \(reader.journalName) did not change within \(Waiting.format(timeout)) s",
        message: message(), details: details),
        at: AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column))
    return nil
}
