import Testing
import HTTPMockTesting

/// Runs `body` expecting exactly the failures it records to be at `line` and to contain every text of `containing`.
/// Fails the test if no failure is recorded.
func expectFailure(
    atLine line: Int, containing texts: [String] = [],
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async -> Void
) async {
    await withKnownIssue("expected: this test makes an assertion fail on purpose and checks its message", sourceLocation: sourceLocation) {
        await body()
    } matching: { issue in
        let text = issue.comments.map(\.rawValue).joined(separator: "\n")
        return issue.sourceLocation?.line == line && texts.allSatisfy { text.contains($0) }
    }
}

/// The text of the issues `body` records (they are expected, so they do not fail the test).
func recordedFailures(_ body: () async -> Void) async -> [String] {
    let texts = Locked<[String]>([])
    await withKnownIssue("expected: this test makes assertions fail on purpose and reads their messages") {
        await body()
    } matching: { issue in
        texts.withLock { $0.append(issue.comments.map(\.rawValue).joined(separator: "\n")) }
        return true
    }
    return texts.current
}
