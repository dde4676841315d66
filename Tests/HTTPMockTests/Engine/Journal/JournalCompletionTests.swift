import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

/// Exports and recordings read the journal as soon as the caller has its response: the outcome must be there.
@Suite struct JournalCompletionTests {
    @Test func theOutcomeIsJournaledBeforeTheCallerGetsTheResponse() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/n", host: "journal.test", responses: [.plaintext("n", lifetime: .eternal)])
        mock.addResponses(forPath: "/down", host: "journal.test", responses: [.failure(URLError(.timedOut), lifetime: .eternal)])
        var missing = 0
        for index in 0..<300 {
            if index % 2 == 0 {
                _ = try await mock.urlSession.data(from: URL(string: "https://journal.test/n")!)
            } else {
                _ = try? await mock.urlSession.data(from: URL(string: "https://journal.test/down")!)
            }
            if mock.journal.last?.outcome == nil { missing += 1 }
        }
        #expect(missing == 0)
        #expect(mock.exportHAR().log.entries.count == 300)
    }
}
