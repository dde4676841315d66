import Foundation
import Testing
@testable import _HTTPMockRegex

/// A match within the budget: an expression that backtracks exponentially is stopped and recorded for the decision
/// under way; one that runs in time linear in its input is never stopped, however long the input.
@Suite struct RegexBudgetTests {
    @Test("a backtracking expression is stopped as no match, and recorded once for the decision under way")
    func backtrackingIsStopped() throws {
        let regex = try NSRegularExpression(pattern: "(a+)+$")
        let overrun = RegexBudget.Overrun()
        let found = RegexBudget.$overrun.withValue(overrun) {
            regex.containsMatch(in: String(repeating: "a", count: 30) + "b")
        }
        #expect(!found)
        #expect(overrun.take() == "(a+)+$")
        #expect(overrun.take() == nil, "take() forgets what it returned")
        // The same expression still finds what it should, and records nothing.
        #expect(RegexBudget.$overrun.withValue(overrun) { regex.containsMatch(in: "aaaa") })
        #expect(overrun.take() == nil)
    }

    @Test("linear expressions over long inputs, with and without a match, are never stopped", arguments: [0, 1, 4_096, 256 << 10])
    func linearIsNeverStopped(_ length: Int) throws {
        let overrun = RegexBudget.Overrun()
        let text = String(repeating: "x", count: length)
        let (hit, miss) = try RegexBudget.$overrun.withValue(overrun) {
            (try NSRegularExpression(pattern: "x*end$").containsMatch(in: text + "end"),
             try NSRegularExpression(pattern: "[0-9]+zzz").containsMatch(in: text))
        }
        #expect(hit)
        #expect(!miss)
        #expect(overrun.take() == nil)
    }

    @Test("the budget grows with the input: a fixed part, and one report per UTF-16 unit")
    func budgetGrowsWithInput() {
        #expect(RegexBudget.progressReports(for: 0) < RegexBudget.progressReports(for: 1))
        #expect(RegexBudget.progressReports(for: 1_000_000) - RegexBudget.progressReports(for: 0) == 1_000_000)
    }
}
