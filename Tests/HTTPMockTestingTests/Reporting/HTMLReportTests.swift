import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMockTesting

/// The HTML page a failing mock scope attaches and writes: what it shows, that a request's values stay text, that
/// it is bounded, and where it is written.
@Suite struct HTMLReportTests {
    /// Everything a page must show as text: markup, both quotes, an entity's start and the end of the page's style.
    static let payload = #"<script>alert("x")</script>'&</style>"#
    static let escapedPayload = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;&lt;/style&gt;"

    /// A folder of its own under the temporary folder, removed by the caller.
    static func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("httpmock-report-\(UUID().uuidString)", isDirectory: true)
    }

    static func files(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test func aScopeWithAnUnmatchedRequestWritesAPageWithItsNearMissAndTheFindings() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var trait = HTTPMockTrait.httpMock { mock in
            mock.addResponses(forPath: "/users", host: "api.example.com") { MockResponse.plaintext("users") }
        }
        trait.options.reportEnvironment = [ReportFolder.environmentVariable: folder.path]
        let test = try #require(Test.current)
        let failures = await recordedFailures {
            try? await trait.provideScope(for: test, testCase: nil) {
                _ = try await URLSession.shared.fetch("https://api.example.com/user", headers: ["X-Trace": "abc"])
            }
        }
        #expect(failures.count == 2)

        // One file, named after the test with its parentheses dropped.
        #expect(Self.files(in: folder) == ["aScopeWithAnUnmatchedRequestWritesAPageWithItsNearMissAndTheFindings.html"])
        let html = try String(contentsOf: folder.appendingPathComponent(Self.files(in: folder)[0]), encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<h2>Findings (2)</h2>"))
        for failure in failures { #expect(html.contains(HTMLReport.escape(failure))) }
        // The near miss, field by field.
        #expect(html.contains("<caption>1. #0 api.example.com/users"))
        #expect(html.contains("<tr><td>path</td><td><code>/users</code></td><td><code>/user</code></td></tr>"))
        // The journal entry: method, URL, status, what answered, the request's header.
        #expect(html.contains("#0 <span class=\"method\">GET</span> <span class=\"url\">https://api.example.com/user</span> <span class=\"status\">404</span>"))
        #expect(html.contains("<dt>Answered by</dt><dd>no stub (the unmocked policy answered)</dd>"))
        #expect(html.contains("<tr><th>X-Trace</th><td>abc</td></tr>"))
        // Static: no script, nothing fetched.
        #expect(!html.contains("<script"))
        #expect(!html.contains("http://") && !html.contains("src="))
    }

    @Test func aScopeThatPassesWritesNothing() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var trait = HTTPMockTrait.httpMock { mock in
            mock.addResponses(forPath: "/users", host: "api.example.com") { MockResponse.plaintext("users") }
        }
        trait.options.reportEnvironment = [ReportFolder.environmentVariable: folder.path]
        try await trait.provideScope(for: try #require(Test.current), testCase: nil) {
            _ = try await URLSession.shared.fetch("https://api.example.com/users")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test func nothingIsWrittenWhenTheVariableIsNotSet() {
        #expect(ReportFolder.publish("<p>page</p>", testName: "t()", environment: [:]) == nil)
        #expect(ReportFolder.publish("<p>page</p>", testName: "t()", environment: [ReportFolder.environmentVariable: ""]) == nil)
    }

    @Test func aTestNameCannotLeaveTheFolder() throws {
        let parent = Self.temporaryFolder()
        let folder = parent.appendingPathComponent("reports", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: parent) }
        let environment = [ReportFolder.environmentVariable: folder.path]

        let written = try #require(ReportFolder.publish("<p>one</p>", testName: "../../etc/passwd", environment: environment))
        #expect(written.lastPathComponent == "etc_passwd.html")
        #expect(ReportFolder.publish("<p>two</p>", testName: "..", environment: environment)?.lastPathComponent == "test.html")
        #expect(ReportFolder.publish("<p>three</p>", testName: "a\\b c:d/e\u{0}é()", environment: environment)?.lastPathComponent == "a_b_c_d_e.html")
        // A name already taken gets a number rather than replacing the page there.
        #expect(ReportFolder.publish("<p>four</p>", testName: "etc/passwd", environment: environment)?.lastPathComponent == "etc_passwd-2.html")
        #expect(Self.files(in: folder) == ["a_b_c_d_e.html", "etc_passwd-2.html", "etc_passwd.html", "test.html"])
        #expect(Self.files(in: parent) == ["reports"])
        #expect(try String(contentsOf: written, encoding: .utf8) == "<p>one</p>")
        #expect(ReportFolder.fileName(for: String(repeating: "x", count: 500)) == String(repeating: "x", count: 120) + ".html")
    }

    @Test func everyValueFromARequestIsText() async throws {
        let payload = Self.payload
        // A real near miss, from a mock, for its stub identifier; its fields replaced by the payload.
        let mock = HTTPMock()
        mock.addResponses(forPath: "/users", host: "api.example.com") { MockResponse.plaintext("users") }
        _ = try await mock.urlSession.fetch("https://api.example.com/user")
        let real = try #require(mock.journal.first?.report?.closest.first)
        let report = UnmatchedReport(method: payload, url: payload, closest: [
            NearMiss(stub: real.stub, summary: payload, agreeing: 5,
                     differences: [FieldDifference(field: .path, expected: payload, actual: payload)]),
        ], notes: [payload])
        let encoded = try #require(payload.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let request = CapturedRequest(method: payload, url: try #require(URL(string: "https://api.example.com/\(encoded)?q=\(encoded)")),
                                      headers: HeaderFields([HeaderFields.Field(name: payload, value: payload)]),
                                      body: Data(payload.utf8))
        let entry = JournalEntry(id: 0, request: request, receivedAt: Date(timeIntervalSince1970: 0),
                                 resolution: .unmatched(reason: payload), report: report,
                                 outcome: .response(status: 404, headers: [payload: payload], body: Data(payload.utf8)))
        let html = HTMLReport.render(testName: payload, findings: [payload], journal: [entry])

        #expect(!html.contains("<script"))
        #expect(html.components(separatedBy: "</style>").count == 2)   // the page's own, once
        #expect(!html.contains(payload))
        // Test name (title and heading), finding, method, near miss (caption, expected, got), note, request header
        // name and value, request body, response header name and value, response body.
        #expect(html.components(separatedBy: Self.escapedPayload).count - 1 == 14)
        // The quotes the page writes itself are only around its own attribute values.
        let outsideText = html.replacingOccurrences(of: Self.escapedPayload, with: "")
        #expect(!outsideText.contains("'"))
    }

    @Test func escapingCoversTheFiveCharacters() {
        #expect(HTMLReport.escape(#"a<b>c&d"e'f"#) == "a&lt;b&gt;c&amp;d&quot;e&#39;f")
        #expect(HTMLReport.escape("plain é ✓") == "plain é ✓")
    }

    @Test func aPageIsBounded() throws {
        let bodyLimit = HTMLReport.bodyLimit
        let url = try #require(URL(string: "https://api.example.com/items"))
        func entry(_ id: Int, body: Data? = nil, response: Data = Data()) -> JournalEntry {
            JournalEntry(id: id, request: CapturedRequest(method: "POST", url: url, body: body),
                         receivedAt: Date(timeIntervalSince1970: 0), resolution: .passedThrough,
                         outcome: .response(status: 200, headers: [:], body: response))
        }
        // A text body past the bound, one whose cut falls inside a character (€ is three bytes), and a binary one.
        let long = Data(String(repeating: "~", count: bodyLimit + 100).utf8)
        let euros = Data(String(repeating: "€", count: bodyLimit / 3 + 10).utf8)
        let binary = Data([0xFF, 0xFE, 0x00, 0x01])
        var journal = [entry(0, body: long, response: euros), entry(1, body: binary)]
        for id in 2..<(HTMLReport.entryLimit + 10) { journal.append(entry(id)) }
        let findings = [String(repeating: "f", count: bodyLimit + 5)] + (1..<(HTMLReport.entryLimit + 3)).map { "finding \($0)" }
        let html = HTMLReport.render(testName: "bounded()", findings: findings, journal: journal)

        #expect(html.contains("Body clipped: showing \(bodyLimit) of \(long.count) bytes (100 left out)."))
        let keptEuros = bodyLimit / 3 * 3
        #expect(html.contains("Body clipped: showing \(keptEuros) of \(euros.count) bytes (\(euros.count - keptEuros) left out)."))
        #expect(html.utf8.count { $0 == UInt8(ascii: "~") } == bodyLimit)
        #expect(html.contains("4 bytes, not UTF-8 text."))
        #expect(html.contains("… (5 more bytes left out)"))
        #expect(html.contains("id=\"request-\(HTMLReport.entryLimit - 1)\""))
        #expect(!html.contains("id=\"request-\(HTMLReport.entryLimit)\""))
        #expect(html.contains("<pre>finding \(HTMLReport.entryLimit - 1)</pre>"))
        #expect(!html.contains("<pre>finding \(HTMLReport.entryLimit)</pre>"))
        #expect(html.contains("3 more finding(s) left out: this page shows the first \(HTMLReport.entryLimit)."))
        #expect(html.contains("10 more request(s) left out: this page shows the first \(HTMLReport.entryLimit)."))
        #expect(html.utf8.count < 4 * bodyLimit + HTMLReport.entryLimit * 2_000)
    }
}
