import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

/// User code (matchers, regular expressions, dynamic responses) runs neither under the engine's lock nor on
/// URLSession's work queue: a stuck closure holds only its own request.
@Suite struct UserCodeIsolationTests {
    /// A latch a matcher waits on, and a signal that it was entered.
    final class Gate: Sendable {
        private let entered = DispatchSemaphore(value: 0)
        private let opened = DispatchSemaphore(value: 0)

        /// Called from the matcher: says it is in, then blocks until ``open()``.
        func hold() {
            entered.signal()
            opened.wait()
            opened.signal()  // every later call passes at once
        }

        func open() { opened.signal() }

        /// Suspends until a matcher is inside ``hold()``.
        func waitUntilEntered() async {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    self.entered.wait()
                    continuation.resume()
                }
            }
        }
    }

    @Test func anotherMocksRequestCompletesWhileAMatcherIsStuck() async throws {
        let stuck = HTTPMock(), other = HTTPMock()
        let gate = Gate()
        try stuck.stub(.custom("blocks until opened") { _ in
            gate.hold()
            return true
        }, responses: [.plaintext("late")])
        other.addResponses(forPath: "/fast", host: "other.test") { MockResponse.plaintext("fast") }

        let first = Task { try await stuck.urlSession.data(from: URL(string: "https://stuck.test/")!) }
        await gate.waitUntilEntered()
        // Before: the matcher ran in startLoading, on URLSession's one work queue, and this never completed.
        let (data, _) = try await other.urlSession.data(from: URL(string: "https://other.test/fast")!)
        #expect(String(decoding: data, as: UTF8.self) == "fast")
        #expect(stuck.journal.isEmpty)  // the first request is still undecided
        gate.open()
        let (late, _) = try await first.value
        #expect(String(decoding: late, as: UTF8.self) == "late")
    }

    @Test func aMatcherCanReadItsOwnMocksJournal() async throws {
        let mock = HTTPMock()
        // Before: the matcher ran under the engine's lock, and reading the journal took it again: a deadlock.
        try mock.stub(.custom("reads the journal") { [weak mock] _ in (mock?.journal.count ?? 0) >= 0 },
                      responses: [.plaintext("ok")])
        let (data, _) = try await mock.urlSession.data(from: URL(string: "https://own.test/")!)
        #expect(String(decoding: data, as: UTF8.self) == "ok")
    }

    @Test func aDynamicResponseCanRegisterAStub() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/first"), responses: [.dynamic { [weak mock] _, _ in
            mock?.addResponses(forPath: "/second", host: "own.test") { MockResponse.plaintext("second") }
            return .plaintext("first")
        }])
        _ = try await mock.urlSession.data(from: URL(string: "https://own.test/first")!)
        let (data, _) = try await mock.urlSession.data(from: URL(string: "https://own.test/second")!)
        #expect(String(decoding: data, as: UTF8.self) == "second")
    }

    @Test func theRequestsTimeoutAppliesWhileAMatcherIsStuck() async throws {
        let mock = HTTPMock()
        let gate = Gate()
        try mock.stub(.custom("blocks until opened") { _ in
            gate.hold()
            return true
        }, responses: [.plaintext("late")])
        var request = URLRequest(url: URL(string: "https://stuck.test/")!)
        request.timeoutInterval = 0.2
        // Before: no timeout applied to a URLProtocol, and the request waited for the matcher for ever.
        await #expect(throws: URLError.self) {
            do { _ = try await mock.urlSession.data(for: request) } catch let error as URLError {
                #expect(error.code == .timedOut)
                throw error
            }
        }
        gate.open()
    }

    @Test func aMissIsReportedWithoutHoldingTheLockDuringUserCode() async throws {
        let mock = HTTPMock()
        try mock.stub(.custom("reads the journal") { [weak mock] _ in (mock?.journal.count ?? 0) < 0 },
                      responses: [.plaintext("never")])
        // The near-miss report tests every stub's conditions; before, under the lock (a deadlock here).
        let (_, response) = try await mock.urlSession.data(from: URL(string: "https://own.test/")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 404)
        #expect(mock.journal.first?.report?.closest.first?.summary.contains("reads the journal") == true)
    }
}
