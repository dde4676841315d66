import Foundation

/// A test's mock as one self-contained HTML page: the end-of-test findings, then every journal entry with its
/// request, what answered it (or the near-miss report when nothing did) and the response.
///
/// The page has inline CSS and no script, and loads nothing, so it is safe to open anywhere. Every value that came
/// from a request or a stub goes through ``escape(_:)``. It is bounded: at most `entryLimit` entries and as many
/// findings, each body and each finding clipped to `bodyLimit` bytes, and the page says what it left out.
enum HTMLReport {
    /// How many journal entries (and how many findings) a page shows at most.
    static let entryLimit = 500
    /// How many bytes of a body (or characters of a finding) a page shows at most.
    static let bodyLimit = 64 * 1024

    /// Text made safe to put in an element or a quoted attribute: `&`, `<`, `>`, `"` and `'` become entities.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// The page for the test named `testName`, whose mock saw `journal` and whose end reported `findings`.
    static func render(testName: String, findings: [String], journal: [JournalEntry],
                       entryLimit: Int = entryLimit, bodyLimit: Int = bodyLimit) -> String {
        var page = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>HTTPMock report: \(escape(testName))</title>
        <style>\(style)</style>
        </head>
        <body>
        <h1>HTTPMock report: <span class="test">\(escape(testName))</span></h1>

        """
        page += "<h2>Findings (\(findings.count))</h2>\n"
        if findings.isEmpty {
            page += "<p>None.</p>\n"
        } else {
            page += "<ol class=\"findings\">\n"
            for finding in findings.prefix(max(0, entryLimit)) {
                page += "<li><pre>\(escape(clipped(finding, to: bodyLimit)))</pre></li>\n"
            }
            page += "</ol>\n"
            if findings.count > entryLimit {
                page += "<p class=\"omitted\">\(findings.count - max(0, entryLimit)) more finding(s) left out: this page shows the first \(max(0, entryLimit)).</p>\n"
            }
        }
        page += "<h2>Requests (\(journal.count))</h2>\n"
        if journal.isEmpty { page += "<p>The mock saw no request.</p>\n" }
        for entry in journal.prefix(max(0, entryLimit)) {
            page += self.entry(entry, bodyLimit: bodyLimit)
        }
        if journal.count > entryLimit {
            page += "<p class=\"omitted\">\(journal.count - max(0, entryLimit)) more request(s) left out: this page shows the first \(max(0, entryLimit)).</p>\n"
        }
        page += "</body>\n</html>\n"
        return page
    }

    private static func entry(_ entry: JournalEntry, bodyLimit: Int) -> String {
        let request = entry.request
        let matched = entry.resolution.isMatched
        var html = "<section class=\"entry \(matched ? "matched" : "unmatched")\" id=\"request-\(entry.id)\">\n"
        html += "<h3>#\(entry.id) <span class=\"method\">\(escape(request.method))</span> <span class=\"url\">\(escape(request.url.absoluteString))</span>"
        html += " <span class=\"status\">\(entry.statusCode.map(String.init) ?? "–")</span></h3>\n"
        html += "<dl class=\"facts\">\n"
        html += "<dt>Received</dt><dd>\(escape(timestamp(entry.receivedAt)))</dd>\n"
        if let completedAt = entry.completedAt {
            html += "<dt>Completed</dt><dd>\(escape(timestamp(completedAt)))</dd>\n"
        }
        html += "<dt>Answered by</dt><dd>\(escape(answeredBy(entry.resolution)))</dd>\n"
        html += "</dl>\n"

        if let report = entry.report {
            html += nearMisses(report)
        } else if case .unmatched(let reason) = entry.resolution {
            html += "<h4>Why no stub answered</h4>\n<pre>\(escape(clipped(reason, to: bodyLimit)))</pre>\n"
        }

        html += "<h4>Request</h4>\n"
        html += headers(request.headers.map { ($0.name, $0.value) })
        html += body(request.body ?? Data(), limit: bodyLimit)
        if let truncation = entry.bodyTruncation {
            html += "<p class=\"omitted\">\(escape(truncation.description))</p>\n"
        }

        html += "<h4>Response</h4>\n"
        switch entry.outcome {
        case .response(let status, let headers, let body):
            html += "<p>Status \(status)</p>\n"
            html += self.headers(headers.sorted { $0.key.lowercased() < $1.key.lowercased() }.map { ($0.key, $0.value) })
            html += self.body(body, limit: bodyLimit)
        case .failure(let error):
            html += "<p>Failed: <code>\(escape(clipped(String(describing: error), to: bodyLimit)))</code></p>\n"
        case nil:
            html += "<p>Not answered yet.</p>\n"
        }
        html += "</section>\n"
        return html
    }

    /// The near-miss report field by field: each close stub, then a row per field that differs.
    private static func nearMisses(_ report: UnmatchedReport) -> String {
        var html = "<h4>Why no stub answered</h4>\n"
        if report.closest.isEmpty { html += "<p>No stub came close.</p>\n" }
        for (index, miss) in report.closest.enumerated() {
            var caption = "\(index + 1). \(miss.stub) \(miss.summary) (\(miss.agreeing) of \(NearMiss.fieldCount) fields agree"
            switch miss.differences.count(where: { [.condition, .scenario, .responses].contains($0.field) }) {
            case 0: break
            case 1: caption += ", and 1 other difference"
            case let other: caption += ", and \(other) other differences"
            }
            caption += ")"
            html += "<table class=\"near-miss\">\n<caption>\(escape(caption))</caption>\n"
            html += "<tr><th>Field</th><th>Expected</th><th>Got</th></tr>\n"
            for difference in miss.differences {
                html += "<tr><td>\(escape(difference.field.rawValue))</td><td><code>\(escape(difference.expected))</code></td><td><code>\(escape(difference.actual))</code></td></tr>\n"
            }
            html += "</table>\n"
        }
        if !report.notes.isEmpty {
            html += "<ul class=\"notes\">\n"
            for note in report.notes { html += "<li>\(escape(note))</li>\n" }
            html += "</ul>\n"
        }
        return html
    }

    private static func headers(_ fields: [(name: String, value: String)]) -> String {
        guard !fields.isEmpty else { return "<p>No headers.</p>\n" }
        var html = "<table class=\"headers\">\n"
        for field in fields {
            html += "<tr><th>\(escape(field.name))</th><td>\(escape(redacted(field.name, field.value)))</td></tr>\n"
        }
        return html + "</table>\n"
    }

    /// The body as text, clipped to `limit` bytes; its size when it is not UTF-8; "No body." when empty.
    private static func body(_ data: Data, limit: Int) -> String {
        guard !data.isEmpty else { return "<p>No body.</p>\n" }
        let limit = max(0, limit)
        guard let text = text(of: data, limit: limit) else {
            return "<p class=\"binary\">\(data.count) bytes, not UTF-8 text.</p>\n"
        }
        var html = "<pre class=\"body\">\(escape(text))</pre>\n"
        if data.count > limit {
            html += "<p class=\"omitted\">Body clipped: showing \(text.utf8.count) of \(data.count) bytes (\(data.count - text.utf8.count) left out).</p>\n"
        }
        return html
    }

    /// The body's first `limit` bytes as UTF-8 text, or `nil` when they are not text. A cut may split a character:
    /// up to three bytes before it are dropped.
    private static func text(of data: Data, limit: Int) -> String? {
        guard data.count > limit else { return String(data: data, encoding: .utf8) }
        let kept = data.prefix(limit)
        for cut in 0...min(3, kept.count) {
            if let text = String(data: kept.dropLast(cut), encoding: .utf8) { return text }
        }
        return nil
    }

    private static func clipped(_ text: String, to limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        let kept = String(decoding: text.utf8.prefix(max(0, limit)), as: UTF8.self)
        return kept + "\n… (\(text.utf8.count - limit) more bytes left out)"
    }

    private static func answeredBy(_ resolution: JournalEntry.Resolution) -> String {
        switch resolution {
        case .stub(let id, let summary): "stub \(id) \(summary)"
        case .unmatched: "no stub (the unmocked policy answered)"
        case .passedThrough: "passed through to the network"
        }
    }

    private static func redacted(_ name: String, _ value: String) -> String {
        HTTPMock.defaultRedactedHeaders.contains { $0.caseInsensitiveCompare(name) == .orderedSame } ? "<redacted>" : value
    }

    private static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    private static let style = """
    body{font:14px/1.4 -apple-system,system-ui,sans-serif;margin:1.5em;color:#1d1d1f;background:#fff}\
    h1{font-size:1.4em}h2{font-size:1.2em;margin-top:1.5em}h3{font-size:1em;margin:0 0 .4em}h4{margin:.8em 0 .3em}\
    pre,code{font:12px/1.4 ui-monospace,Menlo,monospace}pre{white-space:pre-wrap;word-break:break-all;background:#f5f5f7;padding:.5em;margin:0}\
    .findings li{margin-bottom:.6em}.entry{border:1px solid #d2d2d7;border-left:6px solid #34c759;padding:.6em .8em;margin:.8em 0}\
    .entry.unmatched{border-left-color:#ff3b30}.status{color:#6e6e73}.url{word-break:break-all}\
    dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.1em 1em;margin:0}dt{color:#6e6e73}dd{margin:0}\
    table{border-collapse:collapse;margin:.3em 0}th,td{border:1px solid #d2d2d7;padding:.2em .5em;text-align:left;vertical-align:top}\
    td{word-break:break-all}caption{text-align:left;font-weight:600;padding:.2em 0}.omitted,.binary{color:#6e6e73;font-style:italic}
    """
}
