// libFuzzer target: host and path pattern compilation and matching. Built by Fuzz/run with the library's
// sources in one module, so it reaches internal types. Any crash, hang or sanitizer report is a bug.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPatterns(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    // First line: a pattern; second: something to match it against.
    let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
    let pattern = lines.first ?? ""
    let input = lines.count > 1 ? lines[1] : "api.example.com"
    if let host = try? HostPattern(pattern) {
        _ = host.matches(host: input.split(separator: ".", omittingEmptySubsequences: false).map(String.init), port: 443)
    }
    if let path = try? PathPattern(pattern) {
        _ = path.matches(PathNormalization.segments(of: input))
        _ = path.normalized
    }
    _ = QueryItem.parse(rawQuery: pattern)
    if let url = URL(string: input) {
        _ = CapturedRequest(url: url)
    }
    return 0
}
