@_spi(Benchmarking) import HTTPMock
import Foundation
import BenchmarkFixtures

/// (6): registering stubs, one call each and in one batch, at 10,000 and 100,000 (the ratio shows how it scales).
func benchmarkRegistration(_ options: Options) async throws {
    let small = StubSet(count: 10_000), large = StubSet(count: 100_000)
    // The mock is made before and released after the clock runs: only registering is timed.
    func timed(_ body: @escaping (HTTPMock) throws -> Void) -> () async throws -> Double {
        {
            let mock = HTTPMock()
            return try withExtendedLifetime(mock) { try threadCPUSeconds { try body(mock) } }
        }
    }
    let variants = [
        Variant(name: "addResponses × 10000", run: timed(small.register)),
        Variant(name: "addResponses × 100000", run: timed(large.register)),
        Variant(name: "register { } batch of 100000", run: timed(large.registerBatch)),
    ]
    let samples = try await interleave(rounds: options.memoryRounds, variants)
    print("\n## Registration: CPU time of the registering thread (median of \(options.memoryRounds), each into a new mock)")
    print(pad("variant", 34) + pad("median", 14) + pad("× \(variants[0].name)", 26) + "target")
    for (index, variant) in variants.enumerated() {
        let time = median(samples[index])
        let ratio = median(zip(samples[index], samples[0]).map { $0 / $1 })
        let target = index == 0 ? "" : (time < 1 ? "< 1 s  met" : "< 1 s  MISSED by \(String(format: "%.2f", time - 1)) s")
        print(pad(variant.name, 34) + pad(String(format: "%.3f s", time), 14) + pad(String(format: "%.2f", ratio), 26) + target)
    }
    // Loading a 10,000-entry HAR file or stub bundle belongs here once those formats exist: time the load into a
    // new mock as a fourth variant, against "addResponses × 10000".
}

/// CPU seconds the calling thread spends in `body`: unlike wall time, not inflated by other processes on a shared
/// machine (registration runs on one thread).
func threadCPUSeconds(_ body: () throws -> Void) rethrows -> Double {
    func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
    let start = now()
    try body()
    return now() - start
}
