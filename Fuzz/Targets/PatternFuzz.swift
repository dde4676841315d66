// Fuzz target "pattern": feeds host and path pattern compilation and matching, and query parsing.
// Input: line 1 a pattern, line 2 something to match it against. Any crash, hang or sanitizer report is a bug.
import Foundation

@Sendable func fuzzPatterns(_ data: Data) {
    let text = String(decoding: data, as: UTF8.self)
    let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
    let pattern = lines.first ?? ""
    let input = lines.count > 1 ? lines[1] : "api.example.com"
    if let host = try? HostGlob(pattern) {
        _ = host.matches(host: input.split(separator: ".", omittingEmptySubsequences: false).map(String.init), port: 443)
    }
    if let path = try? PathGlob(pattern) {
        _ = path.matches(PathNormalization.segments(of: input))
        _ = path.normalized
    }
    _ = QueryItem.parse(rawQuery: pattern)
    if let url = URL(string: input) {
        _ = CapturedRequest(url: url)
    }
}
