import Foundation
import HTTPMock

/// Runs a test body with a mock that plays a cassette: replays it, records to it, or both, as its mode says; writes
/// what was recorded (redacted) when the body ends, then reports as every mock scope does.
enum CassetteScope {
    /// The cassettes being recorded right now, by path: two tests recording one file at once would overwrite each
    /// other, so the second is refused.
    private static let recordingNow = Locked<Set<String>>([])

    static func run<R>(
        _ cassette: Cassette, sourceFile: String, testName: String, environment: [String: String],
        report: @escaping @Sendable (String) -> Void,
        configure: (HTTPMock) async throws -> Void,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (HTTPMock) async throws -> R
    ) async throws -> R {
        let (mode, reason) = try CassetteMode.resolved(cassette.mode, environment: environment)
        let url = try cassette.location(besideSourceFile: sourceFile)
        let shown = Self.shown(url)
        let format: RecordingFormat = cassette.format == .har ? .har : .wireMock
        let exists = RecordingFile.exists(url, format: format)
        if mode == .none, !exists {
            throw CassetteError("The cassette \(shown) does not exist, and the mode is none (\(reason)), so nothing may reach the network. Record it where the network is reachable: \(CassetteMode.environmentVariable)=once swift test --filter \(testName); then commit it.")
        }
        let records = mode == .all || mode == .newEpisodes || (mode == .once && !exists)
        if records {
            let claimed = recordingNow.withLock { $0.insert(url.standardizedFileURL.path).inserted }
            guard claimed else {
                throw CassetteError("The cassette \(shown) is being recorded by another test running at the same time, and both would write it; give each test a cassette of its own.")
            }
        }
        defer { if records { _ = recordingNow.withLock { $0.remove(url.standardizedFileURL.path) } } }

        let mock = HTTPMock()
        try await configure(mock)
        let recordMode: RecordMode = switch mode {
        case .once: .ifMissing
        case .newEpisodes: .newRequests
        case .all: .always
        case .none, .automatic: .never
        }
        let recording: Recording
        do {
            recording = try mock.startRecording(to: url, format: format, mode: recordMode, redaction: cassette.redaction,
                                                replay: HARReplayOptions(matchesBody: cassette.matchesBody, repeatsLast: false))
        } catch {
            throw CassetteError("The cassette \(shown) cannot be replayed: \(error.description). Fix the file, or record it again with \(CassetteMode.environmentVariable)=all.")
        }
        let replayed = recording.replayed?.stubIDs ?? []
        var options = MockScopeOptions()
        options.unmatchedHint = mode == .all ? nil
            : "The cassette \(shown) has no answer for it (mode \(mode.rawValue): \(reason)). To add it: \(CassetteMode.environmentVariable)=newEpisodes swift test --filter \(testName); to record the whole cassette again: \(CassetteMode.environmentVariable)=all."
        return try await MockScope.run(mock, testName: testName, options: options, shared: replayed, report: report, ending: {
            if recording.isRecording, !(mode == .newEpisodes && recording.recordedEntries.isEmpty) {
                do {
                    try recording.finish()
                } catch {
                    report("The cassette \(shown) could not be written: \(error)")
                }
            }
            guard cassette.reportsUnusedEntries else { return }
            let unused = mock.stubUsage.filter { replayed.contains($0.id) && $0.remainingResponses > 0 }
            guard !unused.isEmpty else { return }
            let count = unused.reduce(0) { $0 + $1.remainingResponses }
            report((["The cassette \(shown) has \(count) recorded answer(s) no request asked for (reportsUnusedEntries): remove them, or record the cassette again with \(CassetteMode.environmentVariable)=all."]
                    + unused.map { "  \($0.summary): \($0.remainingResponses) left" }).joined(separator: "\n"))
        }) {
            try await body(mock)
        }
    }

    /// A cassette's path as the report shows it: relative to the current folder when it is inside it.
    static func shown(_ url: URL) -> String {
        let path = url.standardizedFileURL.path
        let here = FileManager.default.currentDirectoryPath
        return path.hasPrefix(here + "/") ? String(path.dropFirst(here.count + 1)) : path
    }
}
