/// Tells observers when a mock's journal changes, so waiting code never polls.
///
/// Observers are called outside the engine's lock, on the thread that served the request (for URLSession, its
/// work queue): they must be quick and must not block.
final class JournalEvents: Sendable {
    typealias Observer = @Sendable (JournalEvent, JournalEntry) -> Void

    private struct State {
        var observers: [Int: Observer] = [:]
        var nextToken = 0
        /// Writes the journal to a folder, if turned on.
        var writer: JournalFolderWriter?
    }

    private let state = Locked(State())

    func add(_ observer: @escaping Observer) -> Int {
        state.withLock { state in
            let token = state.nextToken
            state.nextToken += 1
            state.observers[token] = observer
            return token
        }
    }

    func remove(_ token: Int) {
        _ = state.withLock { $0.observers.removeValue(forKey: token) }
    }

    var writer: JournalFolderWriter? {
        get { state.withLock { $0.writer } }
        set { state.withLock { $0.writer = newValue } }
    }

    func notify(_ event: JournalEvent, entry id: Int, engine: Engine) {
        let (observers, writer) = state.withLock { ($0.observers.isEmpty ? [] : Array($0.observers.values), $0.writer) }
        guard !observers.isEmpty || writer != nil, let entry = engine.journalEntry(id) else { return }
        writer?.write(event, entry)
        for observer in observers { observer(event, entry) }
    }
}

/// A change to a journal entry.
public enum JournalEvent: Sendable, Equatable {
    /// A request arrived and was resolved (a stub, the unmocked policy or passthrough); nothing delivered yet.
    case appended
    /// Its response or error was delivered.
    case completed
    /// A streamed response's headers or one of its parts reached the client (``JournalEntry/stream``).
    case streamed
    /// A webhook the stub sent after its response completed, or was refused (``JournalEntry/webhooks``).
    case webhook
}
