import Foundation

extension HTTPMock {
    /// Header names whose values are replaced by `<redacted>` in journals written to disk.
    public static let defaultRedactedHeaders: Set<String> = HeaderRedaction.defaultNames

    /// Writes every journal entry of this mock to `folder` from now on, for another process to read
    /// (`HTTPMockTesting`'s `JournalFolderReader`).
    ///
    /// ```swift
    /// let folder = try JournalFolder(path: "/tmp/run-42")
    /// HTTPMock.shared.writeJournal(to: folder)
    /// ```
    ///
    /// Mocks created while ``JournalFolder/environmentVariable`` is set do this by themselves.
    ///
    /// - Parameters:
    ///   - folder: Where each journal entry is written, one file per event.
    ///   - redactingHeaders: Header names (any case) whose values are written as `<redacted>`, in requests
    ///     and responses. Default ``defaultRedactedHeaders``; pass `[]` to write every value.
    public func writeJournal(to folder: JournalFolder, redactingHeaders: Set<String> = HTTPMock.defaultRedactedHeaders) {
        core.engine.journalEvents.writer = JournalFolderWriter(folder: folder, redacting: redactingHeaders)
    }

    /// Stops writing the journal to a folder.
    public func stopWritingJournal() {
        core.engine.journalEvents.writer = nil
    }

    /// The folder this mock writes its journal to, if any.
    public var journalFolder: JournalFolder? { core.engine.journalEvents.writer?.folder }

    /// Called by `init`: writes to the folder named by ``JournalFolder/environmentVariable``, if set.
    func writeJournalIfRequestedByEnvironment() {
        if let folder = JournalFolderWriter.fromEnvironment { writeJournal(to: folder) }
    }
}
