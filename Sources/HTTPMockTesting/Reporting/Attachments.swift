import Foundation
import Testing
#if canImport(XCTest) && canImport(Darwin)
import XCTest
#endif

extension JournalEntry {
    /// Attaches this request and what answered it to the running test, as text: the request line, headers and
    /// body, then the stub (or why none answered) and the response's status, headers and body, or the error.
    ///
    /// ```swift
    /// HTTPAssertRequestedOnce(.method(.post), .path("/login"))?.attach()
    /// ```
    ///
    /// In a Swift Testing test it is a test attachment; in an XCTest test on Apple platforms, an `XCTAttachment`
    /// kept with the result (call it on the main thread there, as `XCTContext` requires). Elsewhere the text
    /// goes to standard error. The values of the headers in `HTTPMock.defaultRedactedHeaders` are written as
    /// `<redacted>`, since attachments are kept with test results.
    ///
    /// - Parameters:
    ///   - name: The attachment's name. Default: `request <id> <method> <host>`.
    ///   - fileID: Where the attachment is recorded; leave the default.
    ///   - filePath: Where the attachment is recorded; leave the default.
    ///   - line: Where the attachment is recorded; leave the default.
    ///   - column: Where the attachment is recorded; leave the default.
    public func attach(
        named name: String? = nil,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        let site = AssertionSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let name = name ?? EntryText.name(of: self)
        let text = EntryText.render(self)
        if Test.current != nil {
            Attachment.record(text, named: name, sourceLocation: site.sourceLocation)
            return
        }
        #if canImport(XCTest) && canImport(Darwin)
        if Thread.isMainThread {
            // XCTContext wants the main thread, checked just above.
            MainActor.assumeIsolated {
                let attachment = XCTAttachment(string: text)
                attachment.name = name
                attachment.lifetime = .keepAlways
                XCTContext.runActivity(named: "HTTP \(name)") { $0.add(attachment) }
            }
            return
        }
        #endif
        FileHandle.standardError.write(Data("HTTPMockTesting: no test to attach \"\(name)\" to here; its text:\n\(text)\n".utf8))
    }
}

/// A journal entry as readable text, for attachments.
enum EntryText {
    /// `request 3 GET api.example.com`
    static func name(of entry: JournalEntry) -> String {
        "request \(entry.id) \(entry.request.method) \(entry.request.host)"
    }

    static func render(_ entry: JournalEntry) -> String {
        var lines = ["\(entry.request.method) \(entry.request.url.absoluteString)"]
        lines += entry.request.headers.map { "\($0.name): \(redact($0.name, $0.value))" }
        lines += body(entry.request.body ?? Data())
        if let truncation = entry.bodyTruncation { lines += ["(\(truncation))"] }
        lines += ["", "Resolution: \(entry.resolution)"]
        switch entry.outcome {
        case .response(let status, let headers, let body):
            lines.append("Status \(status)")
            lines += headers.sorted { $0.key.lowercased() < $1.key.lowercased() }.map { "\($0.key): \(redact($0.key, $0.value))" }
            lines += self.body(body)
        case .failure(let error):
            lines.append("Failed: \(error)")
        case nil:
            lines.append("Not answered yet")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func redact(_ name: String, _ value: String) -> String {
        HTTPMock.defaultRedactedHeaders.contains { $0.caseInsensitiveCompare(name) == .orderedSame } ? "<redacted>" : value
    }

    /// A blank line then the body as text, or its size when it is not UTF-8; nothing for an empty body.
    private static func body(_ data: Data) -> [String] {
        guard !data.isEmpty else { return [] }
        guard let text = String(data: data, encoding: .utf8) else { return ["", "<\(data.count) bytes, not UTF-8 text>"] }
        return ["", text]
    }
}
