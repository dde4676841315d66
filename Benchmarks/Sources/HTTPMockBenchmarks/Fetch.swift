import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BenchmarkFixtures

/// Sends `count` GET requests to `url`, at most `concurrency` at a time; returns seconds per request.
func fetch(_ session: URLSession, _ url: URL, count: Int, concurrency: Int) async throws -> Double {
    let total = try await seconds {
        if concurrency <= 1 {
            for _ in 0..<count { try await check(session.data(from: url)) }
            return
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            var started = 0
            while started < min(concurrency, count) {
                group.addTask { try await check(session.data(from: url)) }
                started += 1
            }
            while try await group.next() != nil, started < count {
                group.addTask { try await check(session.data(from: url)) }
                started += 1
            }
            try await group.waitForAll()
        }
    }
    return total / Double(count)
}

private func check(_ result: (Data, URLResponse)) throws {
    guard (result.1 as? HTTPURLResponse)?.statusCode == 200, result.0.count == 1024 else {
        throw BenchmarkFailure(description: "unexpected answer: \(result.1) with \(result.0.count) bytes")
    }
}
