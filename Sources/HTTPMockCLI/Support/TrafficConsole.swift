#if CommandLineTool
import Foundation
import HTTPMock

/// What `httpmock serve` prints while it serves, on standard error: each request no stub answered, with the closest
/// stub and how it differs; with `--verbose`, every request with its status (as WireMock's `--verbose` does).
/// Lines are written from a queue of their own, so an event loop never waits on the terminal.
struct TrafficConsole: Sendable {
    let verbose: Bool
    private let queue = DispatchQueue(label: "httpmock.console")

    init(verbose: Bool) { self.verbose = verbose }

    func show(_ event: JournalEvent, _ entry: JournalEntry) {
        guard event == .completed, let line = line(for: entry) else { return }
        queue.async { FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }

    func line(for entry: JournalEntry) -> String? {
        let request = "\(entry.request.method) \(entry.request.url.absoluteString)"
        let status = entry.statusCode.map(String.init) ?? "failed"
        guard case .unmatched = entry.resolution else {
            return verbose ? "httpmock: \(request) → \(status)" : nil
        }
        var lines = ["httpmock: no stub answered \(request) → \(status)"]
        if let report = entry.report {
            if let closest = report.closest.first {
                lines.append("  closest: \(closest.stub) \(closest.summary)")
                lines += closest.differences.map { "    - \($0)" }
            }
            lines += report.notes.map { "  - \($0)" }
        }
        return lines.joined(separator: "\n")
    }
}
#endif
