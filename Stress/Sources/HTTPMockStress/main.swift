// Runs stress rounds and prints one line per round. Exit status 1 on any wrong or lost answer.
// Usage: HTTPMockStress [rounds] [requests-per-round]
import Foundation

let arguments = CommandLine.arguments.dropFirst().compactMap(Int.init)
let rounds = arguments.first ?? 1
var round = Round()
if arguments.count > 1 { round.requests = arguments[1] }
var failed = false
for number in 1...rounds {
    let result = round.run()
    print("round \(number): \(result.right) right, \(result.cancelled) cancelled, \(result.wrong.count) wrong, \(result.lost) lost, \(result.journalReads) journal reads")
    for line in result.wrong.prefix(5) { print("  wrong: \(line)") }
    if !result.wrong.isEmpty || result.lost > 0 || result.right + result.cancelled != round.requests { failed = true }
}
exit(failed ? 1 : 0)
