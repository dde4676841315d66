@_spi(Benchmarking) import HTTPMock
import Foundation
import BenchmarkFixtures
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// (4): matching alone, without URLSession: the index lookup, the engine's whole decision, and turning a
/// `URLRequest` into a `CapturedRequest`.
func benchmarkMatching(_ options: Options) async throws {
    let sets = [10, 1_000, 100_000].map(StubSet.init)
    let mocks = sets.map(makeMock)
    let iterations = options.scaled(10_000)
    var sink = 0

    func lookup(_ name: String, _ mock: HTTPMock, _ url: URL) -> Variant {
        let request = CapturedRequest(url: url)
        return Variant(name: name) {
            let time = seconds { for _ in 0..<iterations { sink &+= mock._candidateCount(for: request) } }
            return time / Double(iterations)
        }
    }
    func decide(_ name: String, _ mock: HTTPMock, _ url: URL) -> Variant {
        let request = CapturedRequest(url: url)
        return Variant(name: name) {
            let count = iterations / 4
            let time = seconds { for _ in 0..<count { sink &+= mock._decide(request) } }
            mock.clearJournal()
            return time / Double(count)
        }
    }

    var variants: [Variant] = []
    for (set, mock) in zip(sets, mocks) { variants.append(lookup("lookup \(set.count) stubs, hit", mock, set.hitURL)) }
    for (set, mock) in zip(sets, mocks) { variants.append(lookup("lookup \(set.count) stubs, miss", mock, set.missURL)) }
    for (set, mock) in zip(sets, mocks) { variants.append(decide("decide \(set.count) stubs, hit", mock, set.hitURL)) }
    for (set, mock) in zip(sets, mocks) where set.count != 1_000 {
        variants.append(decide("decide \(set.count) stubs, miss", mock, set.missURL))
    }

    // The journal at its default capacity (10,000): every further entry drops the oldest.
    let full = makeMock(sets[0])
    let hit = CapturedRequest(url: sets[0].hitURL)
    for _ in 0..<10_000 { full._decide(hit) }
    variants.append(Variant(name: "decide 10 stubs, journal full") {
        let count = iterations / 20
        let time = seconds { for _ in 0..<count { sink &+= full._decide(hit) } }
        return time / Double(count)
    })

    var request = URLRequest(url: sets[2].hitURL)
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    request.setValue("Bearer abc", forHTTPHeaderField: "Authorization")
    let captureRequest = request
    variants.append(Variant(name: "capture URLRequest") {
        let time = seconds { for _ in 0..<iterations { sink &+= HTTPMock._capture(captureRequest).pathSegments.count } }
        return time / Double(iterations)
    })

    for variant in variants { _ = try await variant.run() }
    let samples = try await interleave(rounds: options.rounds, variants)
    report("Matching alone, per request (no URLSession)", unit: .perLookup, variants, samples)
    let lookup100K = median(samples[2])
    print("target: lookup at 100000 stubs ≤ 2 µs: \(lookup100K <= 2e-6 ? "met" : "MISSED") (\(Unit.perLookup.format(lookup100K)))")
    if sink == 42 { print("") }   // keeps the work observable
}
