import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMockTesting

extension URLSession {
    /// Sends a request and returns the status and body text.
    @discardableResult
    func send(_ url: String, method: String = "GET", headers: [String: String] = [:]) async throws -> (status: Int, text: String) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? -1, String(decoding: data, as: UTF8.self))
    }
}

/// Runs `body` expecting exactly the failures it records to be at `line` and to contain every text of `containing`.
/// Fails the test if no failure is recorded.
func expectFailure(
    atLine line: Int, containing texts: [String] = [],
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async -> Void
) async {
    await withKnownIssue(sourceLocation: sourceLocation) {
        await body()
    } matching: { issue in
        let text = issue.comments.map(\.rawValue).joined(separator: "\n")
        return issue.sourceLocation?.line == line && texts.allSatisfy { text.contains($0) }
    }
}

/// The text of the issues `body` records (they are expected, so they do not fail the test).
func recordedFailures(_ body: () async -> Void) async -> [String] {
    let texts = Locked<[String]>([])
    await withKnownIssue {
        await body()
    } matching: { issue in
        texts.withLock { $0.append(issue.comments.map(\.rawValue).joined(separator: "\n")) }
        return true
    }
    return texts.current
}
