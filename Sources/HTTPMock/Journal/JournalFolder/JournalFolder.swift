import Foundation

/// A folder through which processes share journals and a small key-value context: an app (or any helper process)
/// writes, a test process reads and asserts.
///
/// ```swift
/// // In the test: launch the app with the folder in its environment.
/// process.environment = [JournalFolder.environmentVariable: folder.path]
///
/// // In the app: every HTTPMock now writes its journal there; share a value too.
/// try JournalFolder.fromEnvironment()?.store("user_id", value: "12345")
/// ```
///
/// Each entry is its own file, written to a temporary name and renamed into place, so a reader never sees half an
/// entry and several writer processes never overwrite each other.
public struct JournalFolder: Sendable, Hashable, CustomStringConvertible {
    /// The environment variable that names a journal folder: every ``HTTPMock`` created in a process where it is
    /// set writes its journal there.
    public static let environmentVariable = "HTTPMOCK_JOURNAL_DIR"

    /// The folder.
    public let url: URL

    /// Uses `url`, which must be an existing, writable folder.
    ///
    /// - Throws: ``HTTPMockError`` with code ``HTTPMockError/Code/invalidJournalFolder`` naming the folder and
    ///   what is wrong with it.
    public init(_ url: URL) throws(HTTPMockError) {
        let url = url.standardizedFileURL
        func fail(_ reason: String) -> HTTPMockError {
            HTTPMockError(.invalidJournalFolder, "journal folder \(url.path): \(reason)")
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw fail("it does not exist; create it first (FileManager.default.createDirectory(at:withIntermediateDirectories:))")
        }
        guard isFolder.boolValue else { throw fail("it is a file, not a folder") }
        self.url = url
        do {
            for folder in [entriesURL, contextURL] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            let probe = url.appendingPathComponent(".probe-\(UUID.random().uuidString)")
            try Data().write(to: probe)
            try? FileManager.default.removeItem(at: probe)
        } catch {
            throw fail("it cannot be written (\(error.localizedDescription)); check its permissions")
        }
    }

    /// Uses the folder at `path`, which must exist and be writable.
    public init(path: String) throws(HTTPMockError) {
        try self.init(URL(fileURLWithPath: path, isDirectory: true))
    }

    /// The folder named by ``environmentVariable``, or `nil` when it is not set.
    ///
    /// - Throws: ``HTTPMockError`` when the variable names a folder that does not exist or cannot be written.
    public static func fromEnvironment() throws(HTTPMockError) -> JournalFolder? {
        guard let path = ProcessInfo.processInfo.environment[environmentVariable], !path.isEmpty else { return nil }
        return try JournalFolder(path: path)
    }

    public var description: String { url.path }

    /// One file per journal entry event.
    var entriesURL: URL { url.appendingPathComponent("entries", isDirectory: true) }
    /// One file per context key.
    var contextURL: URL { url.appendingPathComponent("context", isDirectory: true) }

    /// Writes `data` to a hidden temporary file next to `destination`, then renames it into place, so readers
    /// see the whole file or nothing.
    static func writeAtomically(_ data: Data, to destination: URL) throws {
        let temporary = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(UUID.random().uuidString).tmp")
        try data.write(to: temporary)
        // rename(2) replaces the destination atomically: a reader sees the old file or the new one, never a mix.
        guard rename(temporary.path, destination.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [
                NSLocalizedDescriptionKey: "cannot rename into \(destination.path): \(String(cString: strerror(code)))",
            ])
        }
    }
}
