import Foundation
import BenchmarkFixtures
import OpenAPIBench

/// (5): a swift-openapi client's request, `GET /v1/users/42` decoded from JSON, answered three ways: a hand-written
/// transport that returns a fixed response (the floor), HTTPMockOpenAPI's transport, and `URLSessionTransport`
/// over the mock's `urlSession`. Through the generated client, then through the bare transport (`send` and the
/// body read). Instruction counts come from `Benchmarks/openapi-instructions` (valgrind), not from here.
func benchmarkOpenAPI(_ options: Options) async throws {
    let routes = try OpenAPIRoute.allCases.map { ($0, try OpenAPIBenchmark(route: $0)) }
    var sink = 0
    for layer in ["client", "transport"] {
        let variants = routes.map { route, benchmark in
            Variant(name: "\(route.rawValue) (\(layer))") {
                let count = route == .urlSession ? options.scaled(200) : options.scaled(2_000)
                let time = try await seconds {
                    for _ in 0..<count {
                        sink &+= try await layer == "client" ? benchmark.callClient() : benchmark.callTransport()
                    }
                }
                benchmark.reset()
                return time / Double(count)
            }
        }
        let samples = try await interleave(rounds: options.rounds, variants)
        report("swift-openapi: one request through the \(layer == "client" ? "generated client" : "bare transport")",
               unit: .perRequest, variants, samples, targets: ["httpMock (\(layer))": 1.5])
    }
    if sink == 42 { print("") }
}
