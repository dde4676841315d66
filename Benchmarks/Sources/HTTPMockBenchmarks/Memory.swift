@_spi(Benchmarking) import HTTPMock
import Foundation
import BenchmarkFixtures
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// (5): peak memory. Each scenario runs in a child process of this executable (`--child NAME`), which reports its
/// peak resident set (`VmHWM`, which counts touched pages of mapped files too) when done.
func benchmarkMemory(_ options: Options) async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("httpmock-bench-\(getpid()).bin")
    try writeFile(file, megabytes: 100)
    defer { try? FileManager.default.removeItem(at: file) }
    let journalCount = options.scaled(100_000)

    print("\n## Memory: peak RSS of a child process (median of \(options.memoryRounds))")
    print(pad("scenario", 44) + pad("peak RSS", 12) + pad("above baseline", 16) + "target")
    var baseline = 0.0
    var stream10k = 0.0
    for scenario in ["baseline", "stubs", "journal-off", "journal", "file-read", "file-served", "stream-10000", "stream-100000"] {
        var peaks: [Double] = []
        for _ in 0..<options.memoryRounds {
            peaks.append(try runChild(scenario, arguments: [file.path, String(journalCount)]))
        }
        let peak = median(peaks)
        if scenario == "baseline" { baseline = peak }
        if scenario == "stream-10000" { stream10k = peak }
        let above = peak - baseline
        let (label, target): (String, String) = switch scenario {
        case "baseline": ("baseline (a mock, 1 stub, 1 request)", "")
        case "stubs": ("100000 stubs", above <= 100 ? "≤ 100 MB  met" : "≤ 100 MB  MISSED")
        case "journal-off": ("\(journalCount) requests, journal capacity 0", "")
        case "journal": ("\(journalCount) requests, journal capacity \(journalCount)", "")
        case "file-read": ("100 MB file read into memory by hand (1 copy)", "")
        case "stream-10000": ("a 10,000-event stream (producer, delegate)", "")
        case "stream-100000": ("a 100,000-event stream (producer, delegate)",
                               peak - stream10k <= 2 ? "flat (≤ +2 MB over 10,000)  met" : "flat  MISSED")
        default: ("100 MB file response, fetched and read", above <= 100 * 1.1 ? "≤ 1 copy  met" : "≤ 1 copy  MISSED")
        }
        print(pad(label, 44) + pad(String(format: "%.1f MB", peak), 12) + pad(String(format: "%+.1f MB", above), 16) + target)
    }
}

private func writeFile(_ url: URL, megabytes: Int) throws {
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
        throw BenchmarkFailure(description: "cannot create \(url.path)")
    }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    let chunk = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0) })
    for _ in 0..<megabytes { try handle.write(contentsOf: chunk) }
}

/// Runs one scenario in a child process (`--child SCENARIO ARGUMENTS…`) and returns the peak RSS it reports, in MB.
func runChild(_ scenario: String, arguments: [String]) throws -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    process.arguments = ["--child", scenario] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0,
          let line = output.split(separator: "\n").first(where: { $0.hasPrefix("peak-kib ") }),
          let kib = Double(line.dropFirst("peak-kib ".count)) else {
        throw BenchmarkFailure(description: "child \(scenario) failed (status \(process.terminationStatus)): \(output)")
    }
    return kib / 1024
}

/// `VmHWM` (peak) or `VmRSS` (now) of this process, in KiB.
func peakResidentKiB(_ field: String = "VmHWM:") -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }) else { return -1 }
    return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? -1
}

/// The child side: sets up one scenario, then prints `peak-kib N`.
func runChildScenario(_ scenario: String, _ arguments: [String]) async throws {
    let file = URL(fileURLWithPath: arguments[0])
    let journalCount = Int(arguments[1]) ?? 100_000
    let mock = HTTPMock()
    mock.addResponses(forPath: "/one", host: "api.example.com", responses: [mockResponse])
    let one = URL(string: "https://api.example.com/one")!
    switch scenario {
    case "profile-mock", "profile-floor":
        // For profilers (callgrind, perf): only requests, no measuring.
        let set = StubSet(count: 10)
        let profiled = makeMock(set)
        let session = scenario == "profile-mock" ? profiled.urlSession : plainSession(protocolClasses: [FloorProtocol.self])
        _ = try await fetch(session, set.hitURL, count: journalCount, concurrency: 1)
        return
    case "profile-capture":
        var request = URLRequest(url: StubSet(count: 100_000).hitURL)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        var sink = 0
        for _ in 0..<journalCount { sink &+= HTTPMock._capture(request).pathSegments.count }
        print("sink \(sink)")
        return
    case "profile-register":
        StubSet(count: 100_000).register(into: mock)
        return
    case "profile-lookup", "profile-decide":
        let set = StubSet(count: 100_000)
        let profiled = makeMock(set)
        let request = CapturedRequest(url: set.hitURL)
        var sink = 0
        for round in 0..<journalCount {
            if scenario == "profile-lookup" { sink &+= profiled._candidateCount(for: request) } else { sink &+= profiled._decide(request) }
            if round % 5_000 == 4_999 { profiled.clearJournal() }
        }
        print("sink \(sink)")
        return
    case "baseline":
        _ = try await mock.urlSession.data(from: one)
    case "stubs":
        StubSet(count: 100_000).register(into: mock)
        _ = try await mock.urlSession.data(from: one)
    case "journal", "journal-off":
        mock.journalCapacity = scenario == "journal" ? journalCount : 0
        let many = URL(string: "https://api.example.com/many")!
        mock.addResponses(forPath: "/many", host: "api.example.com", responses: [mockResponse])
        _ = try await fetch(mock.urlSession, many, count: journalCount, concurrency: 16)
        let kept = mock.journal.count
        guard kept == (scenario == "journal" ? journalCount : 0) else { throw BenchmarkFailure(description: "journal kept \(kept)") }
    case "stream-10000", "stream-100000", "stream-floor-10000", "stream-floor-100000":
        // One streamed response made by a producer, read part by part by a delegate: what the face holds; the floor
        // is a bare URLProtocol delivering as many parts in one pass.
        let count = Int(scenario.split(separator: "-").last!)!
        let configuration = URLSessionConfiguration.ephemeral
        let produced = producingMock(events: count)
        if scenario.hasPrefix("stream-floor") {
            StreamFloorProtocol.events = count
            configuration.protocolClasses = [StreamFloorProtocol.self]
            configuration.urlCache = nil
        } else {
            produced.install(into: configuration)
        }
        let client = StreamCounter(configuration: configuration)
        let (parts, _) = try await client.fetch(streamURL)
        guard parts == count else { throw BenchmarkFailure(description: "\(parts) parts of \(count)") }
    case "file-read":
        _ = try await mock.urlSession.data(from: one)
        let data = try Data(contentsOf: file)
        print("checksum \(checksum(data))")
    case "file-served":
        mock.addResponses(forPath: "/big", host: "api.example.com", responses: [.file(url: file)])
        let (data, _) = try await mock.urlSession.data(from: URL(string: "https://api.example.com/big")!)
        guard data.count == 100 << 20 else { throw BenchmarkFailure(description: "file response has \(data.count) bytes") }
        print("checksum \(checksum(data))")
    default:
        throw BenchmarkFailure(description: "unknown child scenario \(scenario)")
    }
    print("peak-kib \(peakResidentKiB())")
    print("now-kib \(peakResidentKiB("VmRSS:"))")
}

/// Touches every byte, as a caller reading the body would.
private func checksum(_ data: Data) -> UInt64 {
    data.withUnsafeBytes { bytes in
        var sum: UInt64 = 0
        for word in bytes.bindMemory(to: UInt64.self) { sum &+= word }
        return sum
    }
}
