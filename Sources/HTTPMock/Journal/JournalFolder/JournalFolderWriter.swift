import Foundation

/// Writes one mock's journal to a ``JournalFolder``: a file when a request arrives (`…-a.json`) and one when it
/// completes (`…-c.json`). Files are never rewritten, so a reader decodes each one once.
///
/// Writes are synchronous (a few dozen microseconds each) so that nothing is lost when the process is killed
/// right after a response, as UI tests do.
final class JournalFolderWriter: Sendable {
    let folder: JournalFolder
    private let process: String
    private let mock: Int
    private let secrets: Set<String>
    private let warned = Locked(false)

    /// `<pid>-<random>`: unique per process run, so writers never collide, even with a reused pid.
    static let processTag = "\(ProcessInfo.processInfo.processIdentifier)-\(UUID.random().uuidString.prefix(8))"
    private static let mockCounter = Locked(0)

    init(folder: JournalFolder, redacting secrets: Set<String>) {
        self.folder = folder
        self.secrets = Set(secrets.map { $0.lowercased() })
        mock = Self.mockCounter.withLock { counter in
            counter += 1
            return counter
        }
        process = Self.processTag
    }

    func write(_ event: JournalEvent, _ entry: JournalEntry) {
        // A stream's parts are written with its completion, not one file a part.
        if event == .streamed { return }
        let record = JournalRecord(entry, process: process, mock: mock, redacting: secrets)
        let name = "\(process)-m\(mock)-\(String(format: "%09ld", entry.id))-\(event == .appended ? "a" : "c").json"
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            try JournalFolder.writeAtomically(try encoder.encode(record), to: folder.entriesURL.appendingPathComponent(name))
        } catch {
            let first = warned.withLock { warned -> Bool in
                defer { warned = true }
                return !warned
            }
            if first {
                FileHandle.standardError.write(Data("HTTPMock: cannot write the journal to \(folder.url.path): \(error.localizedDescription) (further failures are not reported)\n".utf8))
            }
        }
    }

    /// The writer every mock gets when ``JournalFolder/environmentVariable`` is set; checked once per process.
    static let fromEnvironment: JournalFolder? = {
        do {
            return try JournalFolder.fromEnvironment()
        } catch {
            FileHandle.standardError.write(Data("\(error) (set by \(JournalFolder.environmentVariable); the journal is not written)\n".utf8))
            return nil
        }
    }()
}
