@_spi(Benchmarks) import HTTPMock
import Foundation

/// (6): registering stubs, one call each and in one batch, at 10,000 and 100,000 (the ratio shows how it scales).
func benchmarkRegistration(_ options: Options) async throws {
    let small = StubSet(count: 10_000), large = StubSet(count: 100_000)
    let variants = [
        Variant(name: "addResponses × 10000") { seconds { small.register(into: HTTPMock()) } },
        Variant(name: "addResponses × 100000") { seconds { large.register(into: HTTPMock()) } },
        Variant(name: "register { } batch of 100000") { try seconds { try large.registerBatch(into: HTTPMock()) } },
    ]
    let samples = try await interleave(rounds: options.memoryRounds, variants)
    print("\n## Registration (median of \(options.memoryRounds), each into a new mock)")
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
