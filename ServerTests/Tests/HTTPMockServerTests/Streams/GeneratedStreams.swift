import Foundation
import HTTPMock

/// A stream made from a seed: parts of every size (0 bytes to past a socket buffer), delays from none to a few
/// hundred milliseconds, server-sent events or raw bytes, and now and then a fault. Each part's bytes name its case
/// and its place, so a part that is lost, doubled or overtaken is seen in the bytes.
struct GeneratedStream: CustomStringConvertible {
    enum Fault: Equatable {
        case drop(afterParts: Int)
        case fail(afterParts: Int)
        case stall(afterParts: Int)

        var afterParts: Int {
            switch self {
            case .drop(let count), .fail(let count), .stall(let count): count
            }
        }
    }

    let seed: UInt64
    let events: Bool
    let parts: [StreamPart]
    let fault: Fault?

    /// Sizes where a reader's reading has edges: empty, one byte, around a socket buffer's and a chunk's size.
    private static let sizes = [0, 1, 2, 17, 100, 1_000, 4_095, 4_096, 16_384, 65_535, 65_536, 65_537, 131_072,
                                212_993, 1 << 20, (1 << 20) + 1]
    /// Delays in milliseconds, most of them short so that a few hundred cases run in seconds.
    private static let delays = [0, 0, 0, 1, 2, 5, 10, 20, 50, 120, 250]

    init(seed: UInt64, allowStall: Bool = true) {
        self.seed = seed
        var random = SplitMix(seed: seed)
        events = random.next(below: 3) == 0
        let count = random.next(below: 9)  // 0...8 parts
        var parts: [StreamPart] = []
        var bytes = 0
        for index in 0..<count {
            var size = Self.sizes[random.next(below: Self.sizes.count)]
            // At most about 2.5 MiB a stream, so many run side by side.
            if bytes + size > 5 << 19 { size = random.next(below: 2_000) }
            bytes += size
            let delay = Double(Self.delays[random.next(below: Self.delays.count)]) / 1_000
            let data = events ? Self.event(seed: seed, index: index, size: size) : Self.raw(seed: seed, index: index, size: size)
            parts.append(StreamPart(data, after: delay))
        }
        self.parts = parts
        switch random.next(below: 12) {
        case 0: fault = .drop(afterParts: random.next(below: count + 1))
        case 1: fault = .fail(afterParts: random.next(below: count + 1))
        case 2 where allowStall: fault = .stall(afterParts: random.next(below: count + 1))
        default: fault = nil
        }
    }

    /// Bytes that say which case and which part they are, then filler up to `size`.
    private static func raw(seed: UInt64, index: Int, size: Int) -> Data {
        let label = Array("<\(seed):\(index)>".utf8)
        var bytes = [UInt8](repeating: UInt8(65 + index % 26), count: size)
        for (offset, byte) in label.prefix(size).enumerated() { bytes[offset] = byte }
        return Data(bytes)
    }

    /// An event framed as `text/event-stream` frames it, of about `size` bytes.
    private static func event(seed: UInt64, index: Int, size: Int) -> Data {
        let label = "\(seed):\(index)"
        let filler = String(repeating: Character(UnicodeScalar(UInt8(97 + index % 26))), count: max(0, size - label.count - 8))
        return ServerSentEvent(label + " " + filler, id: String(index)).encoded
    }

    /// The response a mock serves for this stream.
    var response: MockResponse {
        let fault: StreamFault? = switch self.fault {
        case .drop(let count): .drop(afterParts: count)
        case .fail(let count): .fail(URLError(.cannotParseResponse), afterParts: count)
        case .stall(let count): .stall(afterParts: count)
        case nil: nil
        }
        return MockResponse.chunks(parts, contentType: events ? "text/event-stream" : "application/octet-stream",
                                   fault: fault)
    }

    /// The parts a client gets (those before the fault), with the earliest each may arrive: the sum of the delays
    /// up to it, counted from when the request was sent (a part's delay starts once the one before went out).
    var delivered: [(data: Data, due: Double)] {
        var due = 0.0
        var out: [(Data, Double)] = []
        for part in parts.prefix(fault?.afterParts ?? parts.count) {
            due += part.delay
            out.append((part.data, due))
        }
        return out
    }

    var description: String {
        let shape = parts.map { "\($0.data.count)B@\(Int($0.delay * 1_000))ms" }.joined(separator: ",")
        return "seed \(seed) (HTTPMOCK_STREAM_SEED=\(seed)): \(events ? "events" : "raw") [\(shape)] fault \(fault.map { "\($0)" } ?? "none")"
    }

    /// Runs `check` over `cases`, six at a time; what failed.
    static func run(_ cases: [GeneratedStream], _ check: @escaping @Sendable (GeneratedStream) async -> String?) async -> [String] {
        await withTaskGroup(of: String?.self) { group in
            var pending = cases.makeIterator()
            for _ in 0..<6 {
                if let stream = pending.next() { group.addTask { await check(stream) } }
            }
            var failures: [String] = []
            while let result = await group.next() {
                if let result { failures.append(result) }
                if let stream = pending.next() { group.addTask { await check(stream) } }
            }
            return failures
        }
    }

    /// The seeds of a run: `HTTPMOCK_STREAM_SEED` replays one case; otherwise `count` cases from a fixed start, so
    /// every run tries the same ones. Under a sanitizer (`HTTPMOCK_SANITIZED`, as `.ci/run` sets it) a quarter of
    /// them: there they look for races, not for more shapes, and the suite's other tests share the cores.
    static func seeds(count: Int, start: UInt64) -> [UInt64] {
        let environment = ProcessInfo.processInfo.environment
        if let one = environment["HTTPMOCK_STREAM_SEED"].flatMap(UInt64.init) { return [one] }
        let cases = environment["HTTPMOCK_SANITIZED"] == nil ? count : max(1, count / 4)
        return (0..<UInt64(cases)).map { start &+ $0 }
    }
}

/// A small seeded generator (SplitMix64), so a generated case that fails is the same on the next run.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(below bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(max(bound, 1)))
    }
}
