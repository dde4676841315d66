import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

/// 2,000 concurrent requests at 4 instances, with delays and `URLSessionTask.cancel()` storms.
/// Every request must end exactly once, with its own mock's answer or (if cancelled in time) `.cancelled`.
@Suite struct StressTests {
    private struct Tally: Sendable {
        var right = 0, cancelled = 0, wrong: [String] = []
    }

    @Test func twoThousandConcurrentRequestsWithDelaysAndCancels() async throws {
        let mocks = (0..<4).map { _ in HTTPMock() }
        for (index, mock) in mocks.enumerated() {
            mock.addResponses(forPath: "/instant/*", host: "stress.test",
                              responses: [.plaintext("m\(index)", lifetime: .eternal)])
            mock.addResponses(forPath: "/delayed/*", host: "stress.test",
                              responses: [.plaintext("m\(index)-late", lifetime: .eternal, delivery: .delayed(0.05))])
        }
        let tally = Locked(Tally())
        let group = DispatchGroup()
        var tasks: [URLSessionDataTask] = []
        for number in 0..<2_000 {
            let index = number % 4
            let delayed = number % 3 == 0
            let expected = delayed ? "m\(index)-late" : "m\(index)"
            let url = URL(string: "https://stress.test/\(delayed ? "delayed" : "instant")/\(number)")!
            group.enter()
            let task = mocks[index].urlSession.dataTask(with: url) { data, response, error in
                defer { group.leave() }
                tally.withLock { tally in
                    if let error = error as? URLError, error.code == .cancelled {
                        tally.cancelled += 1
                    } else if let data, (response as? HTTPURLResponse)?.statusCode == 200,
                              String(decoding: data, as: UTF8.self) == expected {
                        tally.right += 1
                    } else {
                        tally.wrong.append("\(url): \(error.map { "\($0)" } ?? String(decoding: data ?? Data(), as: UTF8.self))")
                    }
                }
            }
            tasks.append(task)
            task.resume()
        }
        // Cancel storms: every seventh request, from several threads at once.
        let doomed = tasks.enumerated().filter { $0.offset % 7 == 0 }.map(\.element)
        DispatchQueue.concurrentPerform(iterations: 4) { slice in
            for (position, task) in doomed.enumerated() where position % 4 == slice { task.cancel() }
        }
        let finished = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: group.wait(timeout: .now() + 120)) }
        }
        try #require(finished == .success, "requests still pending after 120 s")
        let result = tally.current
        #expect(result.wrong.isEmpty, "\(result.wrong.prefix(5))")
        #expect(result.right + result.cancelled == 2_000)
        #expect(result.cancelled <= doomed.count)
        #expect(result.right >= 2_000 - doomed.count)
    }
}
