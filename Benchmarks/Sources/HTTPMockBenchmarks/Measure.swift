import Foundation
import BenchmarkFixtures

/// Monotonic nanoseconds.
func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Seconds taken by `body`.
func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = now()
    try body()
    return Double(now() - start) / 1e9
}

/// Seconds taken by `body`.
func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    let start = now()
    try await body()
    return Double(now() - start) / 1e9
}

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// One variant of an interleaved comparison: run once per round, returns the cost of one operation in seconds.
struct Variant {
    let name: String
    let run: () async throws -> Double
}

/// Runs every variant once per round, in a rotating order so none always runs first, and returns for each
/// variant the per-round costs. The first variant is the baseline the ratios are taken against.
func interleave(rounds: Int, _ variants: [Variant]) async throws -> [[Double]] {
    var samples = Array(repeating: [Double](), count: variants.count)
    for round in 0..<rounds {
        for offset in 0..<variants.count {
            let index = (offset + round) % variants.count
            samples[index].append(try await variants[index].run())
        }
    }
    return samples
}

/// Prints a table: each variant's median cost and its median per-round ratio to the first (paired ratios cancel
/// most of the machine's drift between rounds).
func report(_ title: String, unit: Unit, _ variants: [Variant], _ samples: [[Double]], targets: [String: Double] = [:]) {
    print("\n## \(title)")
    print(pad("variant", 34) + pad("median", 14) + pad("× \(variants[0].name)", 18) + "target")
    for (index, variant) in variants.enumerated() {
        let ratios = zip(samples[index], samples[0]).map { $0 / $1 }
        let ratio = median(ratios)
        var target = ""
        if let limit = targets[variant.name] {
            target = ratio <= limit ? "≤ \(limit)×  met" : "≤ \(limit)×  MISSED by \(String(format: "%.0f", (ratio / limit - 1) * 100))%"
        }
        print(pad(variant.name, 34) + pad(unit.format(median(samples[index])), 14) + pad(String(format: "%.3f", ratio), 18) + target)
    }
}

enum Unit {
    case perRequest, perLookup
    func format(_ seconds: Double) -> String {
        switch self {
        case .perRequest: String(format: "%.1f µs", seconds * 1e6)
        case .perLookup: String(format: "%.0f ns", seconds * 1e9)
        }
    }
}

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}
