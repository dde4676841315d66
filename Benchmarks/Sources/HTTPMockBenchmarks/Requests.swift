@_spi(Benchmarking) import HTTPMock
import Foundation
import BenchmarkFixtures
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// (1)–(3): a whole request through URLSession, against the floor, with 10 / 1,000 / 100,000 stubs, hits and
/// misses, and against a real server on 127.0.0.1.
func benchmarkRequests(_ options: Options) async throws {
    let sets = [10, 1_000, 100_000].map(StubSet.init)
    let mocks = sets.map(makeMock)
    for (set, mock) in zip(sets, mocks) {
        precondition(mock._candidateCount(for: CapturedRequest(url: set.hitURL)) >= 1, "the hit URL of \(set.count) stubs matches no stub")
        precondition(mock._candidateCount(for: CapturedRequest(url: set.missURL)) == 0, "the miss URL of \(set.count) stubs matches a stub")
    }
    let floor = plainSession(protocolClasses: [FloorProtocol.self])
    let reusingFloor = plainSession(protocolClasses: [ReusingFloorProtocol.self])
    let server = try LoopbackServer(body: body1K)
    defer { server.stop() }
    let client = plainSession()

    for concurrency in [1, 64] {
        let count = concurrency == 1 ? options.scaled(200) : options.scaled(800)
        func variant(_ name: String, _ session: URLSession, _ url: URL, count: Int = count, after: (() -> Void)? = nil) -> Variant {
            Variant(name: name) {
                let cost = try await fetch(session, url, count: count, concurrency: concurrency)
                after?()
                return cost
            }
        }
        var variants = [
            variant("floor (bare URLProtocol)", floor, sets[0].hitURL),
            variant("floor reusing its response", reusingFloor, sets[0].hitURL),
        ]
        for (set, mock) in zip(sets, mocks) {
            variants.append(variant("HTTPMock \(set.count) stubs, hit", mock.urlSession, set.hitURL, after: mock.clearJournal))
        }
        for (set, mock) in zip(sets, mocks) where set.count != 1_000 {
            variants.append(variant("HTTPMock \(set.count) stubs, miss", mock.urlSession, set.missURL, after: mock.clearJournal))
        }
        variants.append(variant("server on 127.0.0.1", client, server.url, count: max(count / 8, 20)))
        for variant in variants { _ = try await variant.run() }   // warm up
        let samples = try await interleave(rounds: options.rounds, variants)
        let title = concurrency == 1 ? "Requests, sequential (1 KiB response)" : "Requests, \(concurrency) concurrent (1 KiB response)"
        report(title, unit: .perRequest, variants, samples, targets: [
            "HTTPMock 10 stubs, hit": 1.15, "HTTPMock 100000 stubs, hit": 1.25,
        ])
    }
}
