import Foundation

/// Reads the journals that other processes wrote to a `JournalFolder`, for assertions in this process.
///
/// ```swift
/// let folder = try JournalFolder(path: directory.path)
/// // launch the app with [JournalFolder.environmentVariable: directory.path] in its environment …
/// let appJournal = JournalFolderReader(folder)
/// HTTPAssertRequested("https://analytics.example.com/event", in: appJournal)
/// ```
///
/// Each file is decoded once. A file that is not a valid entry never stops the reader, and never hides a request
/// that was recorded: when the completion record of a request is unreadable but its arrival record is fine, the
/// request is listed with no outcome (`JournalEntry.outcome` is `nil`, as for a request still in flight), with a
/// warning (see ``warnings``, also printed to standard error). Only a request none of whose files can be read is
/// missing, with a warning.
public final class JournalFolderReader: RequestJournal, Sendable {
    /// The folder read.
    public let folder: JournalFolder
    /// How often ``journalChanges()`` looks for new files. Default 20 ms.
    public let pollInterval: TimeInterval

    private struct Cache {
        var decoded: [String: JournalEntry] = [:]
        var warned: Set<String> = []
        var warnings: [String] = []
    }

    private let cache = Locked(Cache())

    /// A reader of `folder`; waiting polls it every `pollInterval` seconds.
    public init(_ folder: JournalFolder, pollInterval: TimeInterval = 0.02) {
        self.folder = folder
        self.pollInterval = pollInterval
    }

    /// Reads the folder at `path`, which must exist and be writable.
    public convenience init(path: String) throws(HTTPMockError) {
        self.init(try JournalFolder(path: path))
    }

    /// Files that are not valid entries, one message each: what was skipped, or which request lost its outcome.
    public var warnings: [String] { cache.withLock { $0.warnings } }

    /// Every recorded request, oldest first. A request whose completion record is unreadable is listed from its
    /// arrival record, with no outcome, and a warning.
    public func journalEntries() -> [JournalEntry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: entriesPath)) ?? []
        var latest: [String: (name: String, complete: Bool)] = [:]
        for name in names where !name.hasPrefix(".") && name.hasSuffix(".json") {
            let stem = String(name.dropLast(".json".count))
            let complete = stem.hasSuffix("-c")
            let key = String(stem.dropLast(2))
            if let known = latest[key], known.complete, !complete { continue }
            latest[key] = (name, complete)
        }
        var entries: [(key: String, entry: JournalEntry)] = []
        for (key, file) in latest {
            switch decode(file.name) {
            case .success(let entry):
                entries.append((key, entry))
            case .failure(let problem) where file.complete:
                // The request was recorded: never drop it because its completion record is damaged.
                let arrival = key + "-a.json"
                switch decode(arrival) {
                case .success(let entry):
                    entries.append((key, entry))
                    warn("HTTPMockTesting: the completion record \(entriesPath)/\(file.name) is unusable (\(problem.problem)); the request \(entry.request.method) \(entry.request.url.absoluteString) is listed from its arrival record, with no outcome (as if still in flight)", file: file.name)
                case .failure(let arrivalProblem):
                    warn("HTTPMockTesting: skipped a request: its completion record \(entriesPath)/\(file.name) is unusable (\(problem.problem)), and so is its arrival record \(arrival) (\(arrivalProblem.problem))", file: file.name)
                }
            case .failure(let problem):
                warn("HTTPMockTesting: skipped \(entriesPath)/\(file.name): \(problem.problem)", file: file.name)
            }
        }
        return entries.sorted { ($0.entry.receivedAt, $0.key) < ($1.entry.receivedAt, $1.key) }.map(\.entry)
    }

    /// A mark before everything written so far.
    public func journalMark() -> JournalMark { JournalMark(position: 0, time: Date()) }

    /// The entries written after `mark`.
    public func journalEntries(after mark: JournalMark) -> [JournalEntry] {
        journalEntries().filter { $0.receivedAt >= mark.time }
    }

    /// Looks for new and completed entries every ``pollInterval`` (another process cannot push to this one).
    public func journalChanges() -> AsyncStream<JournalEntry> {
        let (stream, continuation) = AsyncStream.makeStream(of: JournalEntry.self)
        let interval = UInt64(max(pollInterval, 0.001) * 1_000_000_000)
        let task = Task { [self] in
            var seen: [String: Bool] = [:]
            while !Task.isCancelled {
                for entry in journalEntries() {
                    let key = "\(entry.receivedAt.timeIntervalSinceReferenceDate)|\(entry.id)|\(entry.request.url)"
                    if seen[key] != entry.isComplete {
                        seen[key] = entry.isComplete
                        continuation.yield(entry)
                    }
                }
                try? await Task.sleep(nanoseconds: interval)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// `journal folder <path>`, in failure messages.
    public var journalName: String { "journal folder \(folder.url.path)" }

    /// Deletes every journal entry in the folder (the shared context stays), so a new run starts empty.
    public func removeAllEntries() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: entriesPath)) ?? [] {
            try? FileManager.default.removeItem(atPath: entriesPath + "/" + name)
        }
        cache.withLock { $0 = Cache() }
    }

    /// The value another process stored under `key` (see `JournalFolder.store(_:value:)`).
    public func retrieve<Value: Decodable>(_ key: String, as type: Value.Type = Value.self) -> Value? {
        folder.retrieve(key, as: type)
    }

    /// The keys another process stored a value under, sorted (see `JournalFolder.contextKeys`).
    public var contextKeys: [String] { folder.contextKeys }

    private var entriesPath: String { folder.url.appendingPathComponent("entries").path }

    private struct Unusable: Error { let problem: String }

    /// The entry in the file `name`, or why it is not one.
    private func decode(_ name: String) -> Result<JournalEntry, Unusable> {
        if let known = cache.withLock({ $0.decoded[name] }) { return .success(known) }
        let path = entriesPath + "/" + name
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(Unusable(problem: FileManager.default.fileExists(atPath: path) ? "it cannot be read" : "it is missing"))
        }
        do {
            if let entry = try JSONDecoder().decode(JournalRecord.self, from: data).entry() {
                cache.withLock { $0.decoded[name] = entry }
                return .success(entry)
            }
            return .failure(Unusable(problem: "it is not a valid journal entry"))
        } catch {
            return .failure(Unusable(problem: "it is not a valid journal entry (\(error))"))
        }
    }

    private func warn(_ message: String, file: String) {
        let first = cache.withLock { cache -> Bool in
            guard cache.warned.insert(file).inserted else { return false }
            cache.warnings.append(message)
            return true
        }
        if first { FileHandle.standardError.write(Data((message + "\n").utf8)) }
    }
}
