#if CommandLineTool
import Foundation
import HTTPMock
import HTTPMockOpenAPI

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

    /// Each way a completed exchange breaks `document`: the request, then the response (Prism's validation proxy).
    /// The request's path is read against the document's first server, whatever host the client named.
    func showViolations(_ event: JournalEvent, _ entry: JournalEntry, against document: OpenAPIDocument) {
        guard event == .completed else { return }
        var request = entry.request
        if let server = document.servers.lazy.compactMap({ URL(string: $0) }).first(where: { $0.host != nil }),
           var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) {
            components.scheme = server.scheme
            components.host = server.host
            components.port = server.port
            if let url = components.url { request = CapturedRequest(method: request.method, url: url, headers: request.headers, body: request.body) }
        }
        var violations = document.violations(of: request)
        if case .response(let status, let headers, let body)? = entry.outcome {
            violations += document.violations(ofResponse: status, headers: headers, body: body, to: request)
        }
        guard !violations.isEmpty else { return }
        let lines = ["httpmock: \(entry.request.method) \(entry.request.url.absoluteString) breaks \(document.source.lastPathComponent):"]
            + violations.map { "  - \($0)" }
        queue.async { FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8)) }
    }

    func line(for entry: JournalEntry) -> String? {
        let request = "\(entry.request.method) \(entry.request.url.absoluteString)"
        let status = entry.statusCode.map(String.init) ?? "failed"
        guard case .unmatched = entry.resolution else {
            return verbose ? "httpmock: \(request) → \(status)" : nil
        }
        if entry.statusCode == 101 {
            // No HTTP stub, but a WebSocket: it opened a message channel, which message stubs answer on.
            return verbose ? "httpmock: \(request) → 101, a WebSocket message channel" : nil
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
