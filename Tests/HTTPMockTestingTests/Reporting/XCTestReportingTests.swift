#if canImport(XCTest)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import HTTPMockTesting

/// The assertions under XCTest: a failure is an XCTest failure at the caller's file and line.
final class XCTestReportingTests: XCTestCase {
    private var capturing = false
    private var captured: [(description: String, file: String, line: Int)] = []

    #if canImport(FoundationNetworking)
    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        guard capturing else {
            return super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
        captured.append((description, filePath, lineNumber))
    }
    #else
    override func record(_ issue: XCTIssue) {
        guard capturing else { return super.record(issue) }
        captured.append((issue.compactDescription, issue.sourceCodeContext.location?.fileURL.path ?? "",
                         issue.sourceCodeContext.location?.lineNumber ?? 0))
    }
    #endif

    private func capture(_ body: () async throws -> Void) async rethrows {
        capturing = true
        defer { capturing = false }
        try await body()
    }

    func testFailureIsReportedAtTheCallersLine() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/seen", host: "api.example.com") { MockResponse.plaintext("ok") }
        try await mock.urlSession.fetch("https://api.example.com/seen")
        var line = 0
        await capture {
            HTTPAssertRequested("https://api.example.com/seen", in: mock)  // passes: nothing recorded
            line = #line + 1
            HTTPAssertRequested("https://api.example.com/missing", in: mock, "Data API should be called")
        }
        XCTAssertEqual(captured.count, 1)
        XCTAssertEqual(captured.first?.line, line)
        XCTAssertEqual(captured.first?.file, "\(#filePath)")
        XCTAssertTrue(captured.first?.description.contains("expected at least 1 request to https://api.example.com/missing, found 0 — Data API should be called") == true)
    }

    func testWithHTTPMockReportsUnusedStubsAtTheCallersLine() async throws {
        var line = 0
        try await capture {
            line = #line + 1
            try await withHTTPMock { mock in
                mock.addResponses(forPath: "/me", host: "api.example.com") { MockResponse.plaintext("Alice") }
                mock.addResponses(forPath: "/unused", host: "api.example.com") { MockResponse.plaintext("never") }
                let reply = try await URLSession.shared.fetch("https://api.example.com/me")
                XCTAssertEqual(reply.text, "Alice")
                HTTPAssertRequestedOnce("https://api.example.com/me")
            }
        }
        XCTAssertEqual(captured.count, 1)
        XCTAssertEqual(captured.first?.line, line)
        XCTAssertTrue(captured.first?.description.contains("#1 api.example.com/unused") == true)
    }
}
#endif
