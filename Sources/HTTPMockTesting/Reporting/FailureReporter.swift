import Testing
#if canImport(XCTest)
import XCTest
#endif

/// Records a test failure in whichever framework is running the caller.
enum FailureReporter {
    /// Inside a Swift Testing test (``Test/current`` is set) an issue is recorded; otherwise an XCTest failure.
    static func fail(_ message: String, at site: CallSite) {
        if Test.current != nil {
            Issue.record(Comment(rawValue: message), sourceLocation: site.sourceLocation)
            return
        }
        #if canImport(XCTest)
        XCTFail(message, file: site.filePath, line: site.line)
        #else
        Issue.record(Comment(rawValue: message), sourceLocation: site.sourceLocation)
        #endif
    }

    /// Puts the caller's message after the failure, the way XCTest does.
    static func compose(_ failure: String, message: String, details: [String] = []) -> String {
        var text = failure
        if !message.isEmpty { text += " — " + message }
        return ([text] + details).joined(separator: "\n")
    }
}
