import Foundation
import HTTPMock
import BenchmarkFixtures
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Loading WireMock folders. Root folders whose `mappings/` holds N one-mapping files (about 300 bytes each, in
/// subfolders of 100) are written to a temporary folder; each round loads each into a new mock, against the floor of
/// registering the same stubs in code (`addResponses` with the same method, path, query, headers and JSON body). Wall
/// time (loading reads files) and the registering thread's CPU time; then, in child processes, the resident memory a
/// mock grows by per mapping.
func benchmarkWireMock(_ options: Options) async throws {
    let counts = [options.scaled(1_000), options.scaled(10_000)]
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("httpmock-wiremock-\(getpid())")
    defer { try? FileManager.default.removeItem(at: root) }
    var folders: [URL] = [], bytes = 0
    for count in counts {
        let folder = root.appendingPathComponent("n\(count)")
        bytes = try writeWireMockFolder(count: count, at: folder)
        folders.append(folder)
    }
    try await checkSameAnswers(folders[0], count: counts[0])

    // Each run registers into a new mock, made before and released after the clocks run; `interleave` collects the
    // wall times, `cpu` the thread CPU times of the same runs.
    var cpu = Array(repeating: [Double](), count: 4)
    func variant(_ name: String, _ slot: Int, _ body: @escaping (HTTPMock) throws -> Void) -> Variant {
        Variant(name: name) {
            let mock = HTTPMock()
            let (wall, thread) = try withExtendedLifetime(mock) { try wallAndCPUSeconds { try body(mock) } }
            cpu[slot].append(thread)
            return wall
        }
    }
    let variants = [
        variant("floor: addResponses × \(counts[0])", 0) { registerInCode(counts[0], into: $0) },
        variant("floor: addResponses × \(counts[1])", 1) { registerInCode(counts[1], into: $0) },
        variant("loadWireMockMappings, \(counts[0]) files", 2) { try $0.loadWireMockMappings(from: folders[0]) },
        variant("loadWireMockMappings, \(counts[1]) files", 3) { try $0.loadWireMockMappings(from: folders[1]) },
    ]
    let wall = try await interleave(rounds: options.memoryRounds, variants)

    print("\n## WireMock folders: N one-mapping files (\(bytes / counts[1]) bytes each on average, 100 a subfolder) "
          + "into a new mock (median of \(options.memoryRounds) interleaved rounds; ratio to the floor of the same N)")
    print(pad("variant", 36) + pad("wall median", 13) + pad("wall range", 21) + pad("× floor", 9)
          + pad("CPU median", 13) + pad("CPU range", 21) + pad("× floor", 9) + "target")
    for (index, variant) in variants.enumerated() {
        let floor = index % 2   // the floor of the same N
        let row = [wall, cpu].map { samples in
            let sorted = samples[index].sorted()
            let ratio = median(zip(samples[index], samples[floor]).map { $0 / $1 })
            return pad(milliseconds(median(sorted)), 13)
                + pad(milliseconds(sorted.first ?? .nan) + "–" + milliseconds(sorted.last ?? .nan), 21)
                + pad(index < 2 ? "1" : String(format: "%.2f", ratio), 9)
        }.joined()
        var target = ""
        if index == 3 {
            let time = median(wall[3])
            target = counts[1] != 10_000 ? "10,000 files ≤ 300 ms: not run (--quick)"
                : time <= 0.3 ? "10,000 files ≤ 300 ms  met"
                : "10,000 files ≤ 300 ms  MISSED by \(milliseconds(time - 0.3))"
        }
        print(pad(variant.name, 36) + row + target)
    }
    // Linear: the cost of 1,000 files is the same at either size.
    for (clock, samples) in [("wall", wall), ("CPU", cpu)] {
        let small = median(samples[2]) / Double(counts[0]) * 1_000, large = median(samples[3]) / Double(counts[1]) * 1_000
        let growth = large / small
        let verdict = growth <= 1.25 ? (growth >= 0.8 ? "linear" : "less than linear") : "MORE than linear"
        print("linear? \(pad(clock, 5)) per 1,000 files: \(milliseconds(small)) at \(counts[0]), \(milliseconds(large)) at "
              + "\(counts[1]) (× \(String(format: "%.2f", growth))): \(verdict)")
    }

    try await benchmarkServeAndReload(options, folder: folders[1], count: counts[1])

    // Memory, in child processes: what each way of registering the larger folder adds to the resident set.
    print("\n## WireMock folders: resident memory a mock grows by, \(counts[1]) mappings (a child process each, median of "
          + "\(options.memoryRounds); KB = 1,024 bytes)")
    print(pad("variant", 36) + pad("RSS growth", 14) + pad("KB/mapping", 12) + pad("after malloc_trim", 19)
          + pad("KB/mapping", 12) + "target")
    for scenario in ["wiremock-code", "wiremock-files"] {
        var grown: [Double] = [], retained: [Double] = []
        for _ in 0..<options.memoryRounds {
            let (all, kept) = try runWireMockChild(scenario, folder: folders[1], count: counts[1])
            grown.append(all)
            retained.append(kept)
        }
        let perMapping = median(grown) / Double(counts[1])
        let target = scenario == "wiremock-code" ? "" : perMapping <= 2 ? "≤ 2 KB a mapping  met" : "≤ 2 KB a mapping  MISSED"
        print(pad(scenario == "wiremock-code" ? "registered in code (addResponses)" : "loadWireMockMappings (files)", 36)
              + pad(String(format: "%.1f MB", median(grown) / 1024), 14) + pad(String(format: "%.2f", perMapping), 12)
              + pad(String(format: "%.1f MB", median(retained) / 1024), 19)
              + pad(String(format: "%.2f", median(retained) / Double(counts[1])), 12) + target)
    }
}

/// What serving the larger folder costs: loading it and answering a first request (what `httpmock serve` does before
/// its first answer, less binding a socket), and what `--watch` does when one file of it changes: reading that file
/// again and putting its stubs in place of the old ones.
private func benchmarkServeAndReload(_ options: Options, folder: URL, count: Int) async throws {
    let request = URLRequest(url: URL(string: "https://api.example.com\(ItemStub(index: 8).path)?page=1")!)
    var firstAnswer: [Double] = [], reload: [Double] = []
    let changed = folder.appendingPathComponent("mappings/group-000/stub-00008.json")
    let original = try Data(contentsOf: changed)
    defer { try? original.write(to: changed) }
    for round in 0..<options.memoryRounds {
        let mock = HTTPMock()
        let start = DispatchTime.now().uptimeNanoseconds
        try mock.loadWireMockMappings(from: folder, ranking: .mostRecentlyAdded)
        _ = try await mock.urlSession.data(for: request)
        firstAnswer.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        // One file changes: it is read on its own and its stubs replace the previous ones.
        var previous = try mock.loadWireMockMappings(from: changed, ranking: .mostRecentlyAdded)
        let text = String(decoding: original, as: UTF8.self).replacingOccurrences(of: "\"item 8\"", with: "\"item 8, round \(round)\"")
        try Data(text.utf8).write(to: changed)
        let reloadStart = DispatchTime.now().uptimeNanoseconds
        let next = try mock.loadWireMockMappings(from: changed, ranking: .mostRecentlyAdded)
        previous.remove()
        previous = next
        reload.append(Double(DispatchTime.now().uptimeNanoseconds - reloadStart) / 1e9)
        let (data, _) = try await mock.urlSession.data(for: request)
        guard String(decoding: data, as: UTF8.self).contains("round \(round)") else {
            throw BenchmarkFailure(description: "the changed file was not served after its reload")
        }
    }
    print("\n## WireMock folders: serving \(count) files (median of \(options.memoryRounds) rounds)")
    print(pad("step", 52) + pad("median", 13) + pad("range", 21) + "target")
    let rows: [(String, [Double], Double, String)] = [
        ("load and answer a first request", firstAnswer, 0.5, "≤ 500 ms"),
        ("--watch: one changed file read and swapped in", reload, 0.05, "≤ 50 ms"),
    ]
    for (name, samples, goal, label) in rows {
        let sorted = samples.sorted()
        let verdict = count != 10_000 ? "\(label): not run (--quick)" : median(sorted) <= goal ? "\(label)  met" : "\(label)  MISSED"
        print(pad(name, 52) + pad(milliseconds(median(sorted)), 13)
              + pad(milliseconds(sorted.first ?? .nan) + "–" + milliseconds(sorted.last ?? .nan), 21) + verdict)
    }
}

/// What mapping file `index` says: written once, for the file and for the code that registers the same stub. Most
/// are `GET /api/items/<i>?page=<i % 7>`; every tenth is a `POST` answered 201, every fourth response has a
/// `Cache-Control` header too.
private struct ItemStub {
    let index: Int
    var isPost: Bool { index % 10 == 9 }
    var path: String { isPost ? "/api/items/\(index)/orders" : "/api/items/\(index)" }
    var page: String? { isPost ? nil : String(index % 7) }
    var status: Int { isPost ? 201 : 200 }
    var headers: [String: String] {
        index % 4 == 0 ? ["Content-Type": "application/json", "Cache-Control": "max-age=60"] : ["Content-Type": "application/json"]
    }
    var body: [String: Any] {
        ["id": index, "name": "item \(index)", "tags": [["a", "b"], ["c"], []][index % 3], "price": Double(index % 40) + 0.5]
    }

    /// The mapping file, as WireMock writes one (with its `id` and `name`), keys sorted.
    var file: Data {
        get throws {
            var request: [String: Any] = ["method": isPost ? "POST" : "GET", "urlPath": path]
            if let page { request["queryParameters"] = ["page": ["equalTo": page]] }
            let mapping: [String: Any] = [
                "id": String(format: "00000000-0000-4000-8000-%012d", index), "name": "item \(index)", "request": request,
                "response": ["status": status, "headers": headers, "jsonBody": body],
            ]
            return try JSONSerialization.data(withJSONObject: mapping, options: [.sortedKeys, .withoutEscapingSlashes])
        }
    }

    /// The same stub registered in code: any host (mappings match any), the method, the path, `page` among the
    /// query parameters (WireMock allows others), the JSON body answering every request.
    func register(into mock: HTTPMock) {
        mock.addResponses(forPath: path, host: "**", method: isPost ? .post : .get, query: page.map { QueryParameters(["page": $0]) },
                          matching: .contains, responses: [.dictionary(body, status: .init(code: status), lifetime: .eternal, headers: headers)])
    }
}

/// Registers stubs `0..<count` in code, one call each.
private func registerInCode(_ count: Int, into mock: HTTPMock) {
    for index in 0..<count { ItemStub(index: index).register(into: mock) }
    precondition(mock.registrationErrors.isEmpty, "stub registration failed: \(mock.registrationErrors)")
}

/// Writes `root/mappings/group-NNN/stub-NNNNN.json` for stubs `0..<count`, 100 a subfolder; returns the bytes written.
private func writeWireMockFolder(count: Int, at root: URL) throws -> Int {
    var bytes = 0
    for index in 0..<count {
        let group = root.appendingPathComponent(String(format: "mappings/group-%03d", index / 100))
        if index % 100 == 0 { try FileManager.default.createDirectory(at: group, withIntermediateDirectories: true) }
        let data = try ItemStub(index: index).file
        try data.write(to: group.appendingPathComponent(String(format: "stub-%05d.json", index)))
        bytes += data.count
    }
    return bytes
}

/// Checks that the floor mirrors the files: a `GET` and a `POST` get the same status, content type and JSON from a
/// mock that loaded `folder` as from one registered in code.
private func checkSameAnswers(_ folder: URL, count: Int) async throws {
    let loaded = HTTPMock(), coded = HTTPMock()
    try loaded.loadWireMockMappings(from: folder)
    registerInCode(count, into: coded)
    for stub in [ItemStub(index: 8), ItemStub(index: 9)] {
        var request = URLRequest(url: URL(string: "https://api.example.com\(stub.path)?\(stub.page.map { "page=\($0)&" } ?? "")x=1")!)
        request.httpMethod = stub.isPost ? "POST" : "GET"
        var answers: [(Int, String?, NSDictionary?)] = []
        for mock in [loaded, coded] {
            let (data, response) = try await mock.urlSession.data(for: request)
            let http = response as? HTTPURLResponse
            answers.append((http?.statusCode ?? 0, http?.value(forHTTPHeaderField: "Content-Type"),
                            try JSONSerialization.jsonObject(with: data) as? NSDictionary))
        }
        guard answers[0].0 == stub.status, answers[0].0 == answers[1].0, answers[0].1 == answers[1].1,
              answers[0].2 != nil, answers[0].2 == answers[1].2 else {
            throw BenchmarkFailure(description: "\(request.httpMethod!) \(stub.path): files answered \(answers[0]), code \(answers[1])")
        }
    }
}

/// Wall and CPU seconds of the calling thread spent in `body`.
private func wallAndCPUSeconds(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
    var cpu = 0.0
    let wall = try seconds { cpu = try threadCPUSeconds(body) }
    return (wall, cpu)
}

private func milliseconds(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1e3) }

/// Runs one memory scenario in a child process; returns its resident-set growth and what stays of it after
/// `malloc_trim` (freed heap handed back), in KiB.
private func runWireMockChild(_ scenario: String, folder: URL, count: Int) throws -> (grown: Double, retained: Double) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    process.arguments = ["--child", scenario, folder.path, String(count)]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0, let line = output.split(separator: "\n").first(where: { $0.hasPrefix("rss-kib ") }) else {
        throw BenchmarkFailure(description: "child \(scenario) failed (status \(process.terminationStatus)): \(output)")
    }
    let values = line.split(separator: " ").dropFirst().compactMap { Double($0) }
    return (values[0], values[1])
}

/// The child side (`--child wiremock-code|wiremock-files FOLDER COUNT`): registers `COUNT` stubs into a mock, in
/// code or from `FOLDER`, and prints `rss-kib GROWN RETAINED`. Both ways run once on a mock thrown away first, so
/// that the code and data they touch once count before the measure starts, not in it.
func runWireMockChild(_ scenario: String, _ arguments: [String]) throws {
    let folder = URL(fileURLWithPath: arguments[0]), count = Int(arguments[1]) ?? 10_000
    try HTTPMock().loadWireMockMappings(from: folder.appendingPathComponent("mappings/group-000/stub-00000.json"))
    registerInCode(1, into: HTTPMock())
    trimHeap()
    let before = peakResidentKiB("VmRSS:")
    let mock = HTTPMock()
    switch scenario {
    case "wiremock-code": registerInCode(count, into: mock)
    case "wiremock-files": try mock.loadWireMockMappings(from: folder)
    default: throw BenchmarkFailure(description: "unknown child scenario \(scenario)")
    }
    let grown = peakResidentKiB("VmRSS:") - before
    trimHeap()
    let retained = peakResidentKiB("VmRSS:") - before
    withExtendedLifetime(mock) { print("rss-kib \(grown) \(retained)") }
}

/// Hands glibc's free heap pages back to the system (`malloc_trim(0)`, looked up at run time: Swift's Glibc module
/// does not declare it).
private func trimHeap() {
    #if os(Linux)
    typealias Trim = @convention(c) (Int) -> Int32
    if let symbol = dlsym(nil, "malloc_trim") { _ = unsafeBitCast(symbol, to: Trim.self)(0) }
    #endif
}
