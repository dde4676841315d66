import Foundation
import BenchmarkFixtures
import HTTPMockOpenAPI
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// (8): mocks made from an OpenAPI document. A 1,000-operation document in the shape of real ones
/// (`Benchmarks/Scripts/generate-openapi-document.py`, YAML and JSON): the time to read it, to read and register it,
/// and the peak memory of a process that serves it; then one request answered from the document (its example) next
/// to the same response registered by hand, and a response made from the schema.
func benchmarkOpenAPIDocuments(_ options: Options) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("httpmock-bench-documents-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let yaml = folder.appendingPathComponent("api.yaml")
    let json = folder.appendingPathComponent("api.json")
    try generateDocument(yaml, json: false)
    try generateDocument(json, json: true)
    let operations = try OpenAPIDocument(contentsOf: yaml).operations.count
    let size = (try FileManager.default.attributesOfItem(atPath: yaml.path)[.size] as? Int) ?? 0

    let loads = [
        Variant(name: "read YAML") { try seconds { _ = try OpenAPIDocument(contentsOf: yaml) } },
        Variant(name: "read JSON") { try seconds { _ = try OpenAPIDocument(contentsOf: json) } },
        Variant(name: "read YAML and register") { try seconds { _ = try HTTPMock().loadOpenAPIDocument(from: yaml) } },
    ]
    let loadRounds = max(3, options.rounds / 4)
    let loadSamples = try await interleave(rounds: loadRounds, loads)
    print("\n## OpenAPI document: \(operations) operations, \(size / 1024) KiB of YAML (median of \(loadRounds))")
    print(pad("variant", 34) + "median")
    for (index, variant) in loads.enumerated() {
        print(pad(variant.name, 34) + String(format: "%.1f ms", median(loadSamples[index]) * 1e3))
    }

    print("\n## OpenAPI document: peak RSS of a child process (median of \(options.memoryRounds))")
    var peaks: [String: [Double]] = [:]
    for _ in 0..<options.memoryRounds {
        for scenario in ["baseline", "document"] {
            peaks[scenario, default: []].append(try runDocumentChild(scenario, yaml))
        }
    }
    let baseline = median(peaks["baseline"]!)
    let loaded = median(peaks["document"]!)
    print(pad("a mock, no document", 44) + String(format: "%.1f MB", baseline))
    print(pad("a mock serving the document", 44) + String(format: "%.1f MB  (%+.1f MB)", loaded, loaded - baseline))

    // One request: GET /v1/accounts/{id}, from the document's first named example, and the same body by hand.
    let fromDocument = HTTPMock()
    try fromDocument.loadOpenAPIDocument(from: yaml)
    let url = URL(string: "https://api.example.com/v1/accounts/00000000-0000-4000-8000-000000000003")!
    let (exampleBody, _) = try await fromDocument.urlSession.data(from: url)
    let byHand = HTTPMock()
    try byHand.loadOpenAPIDocument(from: yaml, options: OpenAPIMockOptions(serverURL: URL(string: "https://elsewhere.example.com")!))
    try byHand.stub(.method(.get), .uriTemplate("https://api.example.com/v1/accounts/{id}"), responses: [
        MockResponse(body: exampleBody, contentType: "application/json", lifetime: .eternal),
    ])
    let generated = URL(string: "https://api.example.com/v1/accounts/00000000-0000-4000-8000-000000000003")!
    var put = URLRequest(url: generated)
    put.httpMethod = "PUT"
    put.setValue("application/json", forHTTPHeaderField: "Content-Type")
    put.httpBody = Data(#"{"name": "A", "status": "active"}"#.utf8)
    let count = options.scaled(2_000)
    let requests = [
        Variant(name: "stub by hand (same body)") { try await send(URLRequest(url: url), byHand.urlSession, count: count) },
        Variant(name: "document, example") { try await send(URLRequest(url: url), fromDocument.urlSession, count: count) },
        Variant(name: "document, body from schema") { try await send(put, fromDocument.urlSession, count: count) },
    ]
    let samples = try await interleave(rounds: options.rounds, requests)
    fromDocument.clearJournal()
    byHand.clearJournal()
    report("OpenAPI document: one request among \(operations) operations (URLSession)", unit: .perRequest, requests, samples)
}

/// Sends `request` `count` times, one at a time; seconds per request. Every answer must be a 200 with a body.
private func send(_ request: URLRequest, _ session: URLSession, count: Int) async throws -> Double {
    try await seconds {
        for _ in 0..<count {
            let (data, response) = try await session.data(for: request)
            guard (response as? HTTPURLResponse)?.statusCode == 200, !data.isEmpty else {
                throw BenchmarkFailure(description: "unexpected answer: \(response) with \(String(decoding: data, as: UTF8.self))")
            }
        }
    } / Double(count)
}

/// Runs Benchmarks/Scripts/generate-openapi-document.py.
private func generateDocument(_ output: URL, json: Bool) throws {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/generate-openapi-document.py")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path, "--operations", "1000"] + (json ? ["--json"] : []) + [output.path]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw BenchmarkFailure(description: "\(script.path) failed") }
}

func runDocumentChild(_ scenario: String, _ document: URL) throws -> Double {
    try runChild("openapi-document-\(scenario)", arguments: [document.path])
}

/// The child side of the memory rows: a mock with or without the document, one request answered.
func runOpenAPIDocumentChild(_ scenario: String, _ arguments: [String]) async throws {
    let mock = HTTPMock()
    if scenario == "openapi-document-document" {
        try mock.loadOpenAPIDocument(from: URL(fileURLWithPath: arguments[0]))
    } else {
        try mock.stub(.method(.get), .uriTemplate("https://api.example.com/v1/accounts/{id}"), responses: [.plaintext("{}")])
    }
    _ = try await mock.urlSession.data(from: URL(string: "https://api.example.com/v1/accounts/00000000-0000-4000-8000-000000000003")!)
    print("peak-kib \(peakResidentKiB())")
}
