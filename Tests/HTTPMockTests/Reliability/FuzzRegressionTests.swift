import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

/// Inputs the fuzzers (`Fuzz/run`) found to crash or hang the library, kept so they never come back. The crash
/// of HAR replay on an empty URL is in the bad-input corpus (`BadInput/HAR/empty-url.har`).
@Suite struct FuzzRegressionTests {
    /// `pattern` target: `**.**.*.*.**.**…` against a long host backtracked exponentially (minutes per match).
    /// Each `**` now costs a pass over the input; this test would hang without that.
    @Test func manyDoubleWildcardsMatchInPolynomialTime() throws {
        let pattern = Array(repeating: "**.*", count: 30).joined(separator: ".")
        let host = try HostGlob(pattern)
        let labels = (0..<80).map { "l\($0)" }
        #expect(host.matches(host: labels, port: nil))
        #expect(!host.matches(host: Array(labels.prefix(29)), port: nil))   // 30 `*` need 30 labels at least
        let path = try PathGlob("/" + Array(repeating: "**/x", count: 30).joined(separator: "/") + "/end")
        #expect(!path.matches(Array(repeating: "x", count: 200)))
        #expect(path.matches(Array(repeating: "x", count: 200) + ["end"]))
    }

    @Test func theTableAgreesWithTheDirectWalk() throws {
        let cases: [(String, String, Bool)] = [
            ("**.a.**.b.**", "x.a.y.b.z", true), ("**.a.**.b.**", "a.b", true), ("**.a.**.b.**", "b.a", false),
            ("**.a.**.b", "a.x.b.b", true), ("**.a-*.**.c", "q.a-1.r.s.c", true), ("**.a-*.**.c", "q.b-1.c", false),
            ("*.**.*.**", "a", false), ("*.**.*.**", "a.b", true),
        ]
        for (pattern, host, expected) in cases {
            let labels = host.split(separator: ".").map(String.init)
            #expect(try HostGlob(pattern).matches(host: labels, port: nil) == expected, "\(pattern) on \(host)")
        }
    }

    /// The router's index walks `**` branches the same way; a stub behind 30 of them is still found, at once.
    @Test func theRouterFindsAStubBehindManyDoubleWildcards() async throws {
        let mock = HTTPMock()
        let pattern = Array(repeating: "**/x", count: 30).joined(separator: "/")
        try mock.stub(.path("/" + pattern + "/end"), responses: [.plaintext("deep", lifetime: .eternal)])
        let url = "https://deep.test/" + Array(repeating: "x", count: 120).joined(separator: "/")
        #expect(try await mock.urlSession.fetch(url + "/end").text == "deep")
        #expect(try await mock.urlSession.fetch(url).status == 404)
    }
}
