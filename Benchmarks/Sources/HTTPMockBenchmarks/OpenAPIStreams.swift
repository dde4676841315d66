import BenchmarkFixtures
import Foundation
import HTTPMock
import HTTPMockOpenAPI
import HTTPTypes
import OpenAPIRuntime

/// Events per second of one streamed response read from the OpenAPI transport's `HTTPBody`, as a generated client's
/// `asDecodedServerSentEvents()` reads it: the floor is an `HTTPBody` over an `AsyncStream` of the same parts (each
/// event encoded anew, as a transport reading a socket hands fresh chunks); then HTTPMock's scripted events and a producer's, each through
/// `mock.openAPITransport()`. Interleaved rounds; each round's ratio is to its own floor.
func benchmarkOpenAPIStreams(_ options: Options) async throws {
    let events = options.scaled(20_000)
    let scripted = streamingMock(events: events).openAPITransport()
    let produced = producingMock(events: events).openAPITransport()
    let request = HTTPRequest(method: .get, scheme: "https", authority: "stream.example.com", path: "/events")
    let base = URL(string: "https://stream.example.com")!
    @Sendable func body(of transport: HTTPMockTransport) async throws -> HTTPBody {
        let (_, body) = try await transport.send(request, body: nil, baseURL: base, operationID: "events")
        guard let body else { throw BenchmarkFailure(description: "no body") }
        return body
    }
    @Sendable func floor() -> HTTPBody {
        let chunks = AsyncStream<HTTPBody.ByteChunk> { continuation in
            for _ in 0..<events { continuation.yield(ArraySlice(streamedEvent.encoded)) }
            continuation.finish()
        }
        return HTTPBody(chunks, length: .unknown)
    }
    let rows: [(String, @Sendable () async throws -> HTTPBody)] = [
        ("floor: an HTTPBody of \(events) parts", { floor() }),
        ("MockResponse.events, \(events) events", { try await body(of: scripted) }),
        ("MockResponse.stream(producer:), \(events) events", { try await body(of: produced) }),
    ]
    var rates: [[Double]] = Array(repeating: [], count: rows.count)
    let rounds = max(3, options.rounds / 3)
    for _ in 0..<rounds {
        for (index, row) in rows.enumerated() {
            let start = DispatchTime.now().uptimeNanoseconds
            var parts = 0
            for try await _ in try await row.1() { parts += 1 }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            guard parts == events else {
                throw BenchmarkFailure(description: "\(row.0): \(parts) parts arrived, \(events) expected")
            }
            rates[index].append(Double(events) / seconds)
        }
    }
    reportStreamRates("Streams through the OpenAPI transport: events per second, one streamed response's HTTPBody read whole (\(rounds) interleaved rounds)",
                      names: rows.map(\.0), rates: rates)
}
