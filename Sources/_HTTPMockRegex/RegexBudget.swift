import Foundation

/// How much work one match of a regular expression a user wrote may take. ICU, which runs `NSRegularExpression`,
/// backtracks: an expression with nested quantifiers such as `(a+)+$` takes time exponential in the length of an
/// input that almost matches. ICU reports its progress every few thousand steps of its matcher; a match is
/// stopped after ``progressReports(for:)`` reports (for a URL, about 20 million steps: a quarter of a second of
/// one core), and the decision it was part of answers `500` naming the stub instead of waiting for it. So does a
/// match ICU gives up itself where Foundation says so (`.internalError`); swift-corelibs-foundation does not, and
/// a match whose backtracking fills ICU's 8 MB stack (`x+end$` over a body of a few MB) ends as no match.
package enum RegexBudget {
    /// Progress reports past which a match on `length` UTF-16 units is stopped: a fixed part, and one per unit,
    /// because ICU reports once at every position a search starts from (a body of 64 KiB without a match makes
    /// 64 Ki reports and no backtracking), so an expression that runs in time linear in its input is never stopped.
    package static func progressReports(for length: Int) -> Int {
        2_000 + length
    }

    /// Progress reports past which a match tried in place (``Overrun/inPlace``) is given up, beyond one per
    /// position a search starts from: an expression that backtracks at all goes where user code runs.
    package static let inPlaceReports = 16

    /// The longest text a match tried in place reads: a longer one goes where user code runs.
    package static let inPlaceLength = 16 * 1024

    /// The expression that ran past the budget during the decision on this thread, if one did.
    package final class Overrun: @unchecked Sendable {  // reason: bound to one decision, which runs on one thread
        package private(set) var pattern: String?
        /// The decision is tried in place (a server's event loop), within a far smaller budget than the one it
        /// has where user code runs: running past it only says "not here" (``inPlaceReports``, ``inPlaceLength``;
        /// templates count their own steps against a smaller budget too).
        package let inPlace: Bool

        package init(inPlace: Bool = false) {
            self.inPlace = inPlace
        }

        package func record(_ pattern: String) {
            if self.pattern == nil { self.pattern = pattern }
        }

        /// The expression recorded since the last call, and forgets it.
        package func take() -> String? {
            defer { pattern = nil }
            return pattern
        }
    }

    /// Set while the conditions of one decision are tested (by the engine of HTTPMock), so that an expression stopped
    /// deep inside a condition is reported with the stub that holds it.
    @TaskLocal package static var overrun: Overrun?
}

extension NSRegularExpression {
    /// Whether `text` contains a match, within ``RegexBudget``: an expression stopped on the way (or given up by
    /// ICU) counts as no match, and is recorded for the decision under way.
    package func containsMatch(in text: String) -> Bool {
        var found = false
        var reports = 0
        let length = text.utf16.count
        var budget = RegexBudget.progressReports(for: length)
        let pattern = self.pattern
        if let overrun = RegexBudget.overrun, overrun.inPlace {
            guard length <= RegexBudget.inPlaceLength else {
                overrun.record(pattern)
                return false
            }
            budget = min(budget, RegexBudget.inPlaceReports + length)
        }
        enumerateMatches(in: text, options: [.reportProgress], range: NSRange(text.startIndex..., in: text)) { result, flags, stop in
            if result != nil {
                found = true
                stop.pointee = true
            } else if flags.contains(.internalError) {
                RegexBudget.overrun?.record(pattern)
            } else if flags.contains(.progress) {
                reports += 1
                if reports >= budget {
                    RegexBudget.overrun?.record(pattern)
                    stop.pointee = true
                }
            }
        }
        return found
    }
}
