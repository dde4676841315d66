import Foundation

/// SplitMix64: the same numbers for the same seed, on every platform. The template suites' generated cases start
/// from `HTTPMOCK_TEMPLATE_SEED` when it is set (to replay a run), else from a random seed they print on failure.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["HTTPMOCK_TEMPLATE_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number below `bound`.
    mutating func next(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
