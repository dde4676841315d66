import Testing
#if canImport(XCTest)
import XCTest
#endif

/// Records a test failure in whichever framework is running the caller.
enum FailureReporter {
    /// Inside a Swift Testing test (``Test/current`` is set) an issue is recorded. Otherwise both frameworks are
    /// told, because each silently ignores the other's calls: `XCTFail` fails a running XCTest, and
    /// `Issue.record` fails a Swift Testing run reached from a detached task (where `Test.current` is nil).
    static func fail(_ message: String, at site: AssertionSite) {
        if Test.current != nil {
            Issue.record(Comment(rawValue: message), sourceLocation: site.sourceLocation)
            return
        }
        #if canImport(XCTest)
        XCTFail(message, file: site.filePath, line: site.line)
        #endif
        Issue.record(Comment(rawValue: message), sourceLocation: site.sourceLocation)
    }

    /// Puts the caller's message after the failure, the way XCTest does.
    static func compose(_ failure: String, message: String, details: [String] = []) -> String {
        var text = failure
        if !message.isEmpty { text += " — " + message }
        return ([text] + details).joined(separator: "\n")
    }
}
