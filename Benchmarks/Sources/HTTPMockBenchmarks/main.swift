import Foundation
import BenchmarkFixtures

/// Command-line options: `--quick` (fewer rounds and requests, for a smoke run), `--only SECTION[,SECTION]`
/// (requests, matching, registration, memory, openapi, streams, openapi-streams, wiremock, document).
struct Options {
    var rounds = 31
    var memoryRounds = 3
    var scale = 1.0
    var sections: Set<String> = ["requests", "matching", "registration", "memory", "openapi", "streams", "openapi-streams", "wiremock",
                                 "document"]

    func scaled(_ count: Int) -> Int { max(1, Int(Double(count) * scale)) }
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--child" {
    if arguments[1].hasPrefix("openapi-document-") {
        try await runOpenAPIDocumentChild(arguments[1], Array(arguments.dropFirst(2)))
    } else if arguments[1].hasPrefix("wiremock-") {
        try runWireMockChild(arguments[1], Array(arguments.dropFirst(2)))
    } else {
        try await runChildScenario(arguments[1], Array(arguments.dropFirst(2)))
    }
    exit(0)
}

if arguments.first == "--documents" {
    // OpenAPI descriptions of real APIs, kept outside the repository: what each serves and refuses, and its cost.
    try await checkRealDocuments(Array(arguments.dropFirst()).map { URL(fileURLWithPath: $0) })
    exit(0)
}

var options = Options()
var index = 0
while index < arguments.count {
    switch arguments[index] {
    case "--quick":
        options.rounds = 5
        options.memoryRounds = 1
        options.scale = 0.1
    case "--only":
        index += 1
        options.sections = Set(arguments[index].split(separator: ",").map(String.init))
    default:
        print("usage: HTTPMockBenchmarks [--quick] [--only requests,matching,registration,memory,openapi,streams,openapi-streams,wiremock,document]")
        print("       HTTPMockBenchmarks --documents PATH...   (OpenAPI descriptions of real APIs: what each serves and refuses)")
        exit(2)
    }
    index += 1
}

print("# HTTPMock benchmarks")
print("\(ProcessInfo.processInfo.operatingSystemVersionString), \(ProcessInfo.processInfo.activeProcessorCount) cores; "
      + "\(options.rounds) interleaved rounds; ratios are medians of per-round ratios to the first row")
if options.sections.contains("requests") { try await benchmarkRequests(options) }
if options.sections.contains("matching") { try await benchmarkMatching(options) }
if options.sections.contains("registration") { try await benchmarkRegistration(options) }
if options.sections.contains("memory") { try await benchmarkMemory(options) }
if options.sections.contains("openapi") { try await benchmarkOpenAPI(options) }
if options.sections.contains("streams") { try await benchmarkStreams(options) }
if options.sections.contains("openapi-streams") { try await benchmarkOpenAPIStreams(options) }
if options.sections.contains("wiremock") { try await benchmarkWireMock(options) }
if options.sections.contains("document") { try await benchmarkOpenAPIDocuments(options) }
