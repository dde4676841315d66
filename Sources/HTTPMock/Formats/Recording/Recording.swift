import Foundation

/// A recording in progress, started by ``HTTPMock/startRecording(to:format:mode:redaction:replay:)``.
///
/// While it records, requests that no stub answers go to the real server (the mock's ``UnmockedPolicy`` is
/// ``UnmockedPolicy/passthrough``), and ``finish()`` writes them, redacted, to the file. Await every request before
/// calling ``finish()``: a request still in flight is not written.
public final class Recording: Sendable {
    /// The file (HAR) or folder (mappings, WireMock) recorded to.
    public let url: URL
    /// The kind of file written.
    public let format: RecordingFormat
    /// When requests are recorded.
    public let mode: RecordMode
    /// What is blanked out before writing.
    public let redaction: Redaction
    /// Whether requests may reach the server and be written: `false` when the mode replays only (``RecordMode/never``,
    /// or ``RecordMode/ifMissing`` with the file present).
    public let isRecording: Bool
    /// What was loaded from the existing file for replay, if anything.
    public let replayed: LoadedMocks?

    private let mock: HTTPMock
    private let firstEntry: Int
    private let previousPolicy: UnmockedPolicy
    private let finished = Locked(false)

    init(mock: HTTPMock, url: URL, format: RecordingFormat, mode: RecordMode, redaction: Redaction,
         isRecording: Bool, replayed: LoadedMocks?) {
        self.mock = mock
        self.url = url
        self.format = format
        self.mode = mode
        self.redaction = redaction
        self.isRecording = isRecording
        self.replayed = replayed
        previousPolicy = mock.unmockedPolicy
        firstEntry = (mock.journal.last?.id ?? -1) + 1
        if isRecording { mock.unmockedPolicy = .passthrough }
    }

    /// The requests recorded so far: those that went to the server since the recording started.
    public var recordedEntries: [JournalEntry] {
        guard isRecording else { return [] }
        return mock.journal.filter { $0.id >= firstEntry && $0.resolution == .passedThrough && $0.outcome != nil }
    }

    /// Writes the recorded requests (redacted) and gives the mock back its previous unmocked policy. The replayed
    /// stubs stay. Calling it again does nothing.
    ///
    /// - Throws: ``HTTPMockError`` when the file cannot be written or (``RecordMode/newRequests``) the existing file
    ///   cannot be read back.
    public func finish() throws(HTTPMockError) {
        let first = finished.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        guard first, isRecording else { return }
        mock.unmockedPolicy = previousPolicy
        let entries = recordedEntries
        let keepsExisting = mode == .newRequests && RecordingFile.exists(url, format: format)
        switch format {
        case .har:
            var har = HAR(journal: entries, redaction: redaction)
            if keepsExisting { har.log.entries = try HAR(contentsOf: url).log.entries + har.log.entries }
            try har.write(to: url)
        case .mappings:
            try MappingWriter.write(entries, to: url, redaction: redaction, appending: keepsExisting)
        case .wireMock:
            try WireMockRecordingWriter.write(entries, to: url, redaction: redaction, appending: keepsExisting)
        }
    }
}

/// Where a recording's file is and whether it exists.
package enum RecordingFile {
    package static func exists(_ url: URL, format: RecordingFormat) -> Bool {
        switch format {
        case .har: FileManager.default.fileExists(atPath: url.path)
        case .mappings: !MappingFolder.mappingFiles(in: url).isEmpty
        case .wireMock:
            ((try? FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent("mappings").path)) ?? [])
                .contains { $0.hasSuffix(".json") }
        }
    }
}
