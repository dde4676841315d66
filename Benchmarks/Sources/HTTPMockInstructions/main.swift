// Sends a number of requests of one variant and exits, for `valgrind --tool=callgrind` (instructions) and
// `valgrind --tool=dhat` (heap blocks): `Benchmarks/instructions` runs it twice per variant, with two counts, and
// divides the difference, so setup (100,000 stubs registered) cancels out.
//
// No top-level `await`: valgrind 3.19 crashes under `dispatch_main()`, which an async main calls. The requests run
// on a detached task (a plain `Task` would inherit the main actor, which the waiting main thread holds) while
// the main thread waits on a semaphore.
import BenchmarkFixtures
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock

let variants = ["floor", "floor-reused", "stubs-10", "stubs-1000", "stubs-100000", "wildcard-100000", "miss-10", "delayed",
                "floor-upload-64k", "upload-64k", "stream-floor", "stream-events", "stream-producer"]
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2, variants.contains(arguments[0]), let count = Int(arguments[1]), count > 0 else {
    print("usage: HTTPMockInstructions VARIANT COUNT\nvariants: " + variants.joined(separator: ", "))
    exit(2)
}

/// What the task hands back to the main thread.
final class Outcome: @unchecked Sendable {  // reason: written by the task before it signals, read after the wait
    var failure: (any Error)?
}

let outcome = Outcome()
let done = DispatchSemaphore(value: 0)
let variant = arguments[0]
Task.detached {
    do { try await run(variant, count: count) } catch { outcome.failure = error }
    done.signal()
}
done.wait()
if let failure = outcome.failure {
    print("HTTPMockInstructions \(variant): \(failure)")
    exit(1)
}

func run(_ variant: String, count: Int) async throws {
    let upload = Data(repeating: 0x61, count: 64 << 10)
    switch variant {
    case "floor":
        // The same URL as the hits, so that both pay corelibs the same for it.
        try await send(count, URLRequest(url: StubSet(count: 10).hitURL),
                       through: plainSession(protocolClasses: [FloorProtocol.self]))
    case "floor-reused":
        try await send(count, URLRequest(url: StubSet(count: 10).hitURL),
                       through: plainSession(protocolClasses: [ReusingFloorProtocol.self]))
    case "floor-upload-64k":
        try await send(count, post(StubSet(count: 10).hitURL, upload),
                       through: plainSession(protocolClasses: [FloorProtocol.self]))
    case "stubs-10", "stubs-1000", "stubs-100000":
        let stubs = StubSet(count: Int(variant.dropFirst("stubs-".count))!)
        let mock = makeMock(stubs)
        try await send(count, URLRequest(url: stubs.hitURL), through: mock.urlSession)
    case "wildcard-100000":
        let stubs = StubSet(count: 100_000)
        let mock = makeMock(stubs)
        try await send(count, URLRequest(url: stubs.wildcardHitURL), through: mock.urlSession)
    case "miss-10":
        let stubs = StubSet(count: 10)
        let mock = makeMock(stubs)
        try await send(count, URLRequest(url: stubs.missURL), through: mock.urlSession)
    case "delayed":
        let mock = HTTPMock()
        try mock.stub(.host("delayed.example.com"), responses: [
            MockResponse(body: body1K, contentType: "application/octet-stream", lifetime: .eternal, delivery: .delayed(0.000_1)),
        ])
        try await send(count, URLRequest(url: URL(string: "https://delayed.example.com/x")!), through: mock.urlSession)
    case "stream-floor", "stream-events", "stream-producer":
        // COUNT is the number of events of one streamed response, read by a delegate-based task.
        let configuration = URLSessionConfiguration.ephemeral
        var mock: HTTPMock?
        if variant == "stream-floor" {
            StreamFloorProtocol.events = count
            configuration.protocolClasses = [StreamFloorProtocol.self]
            configuration.urlCache = nil
        } else {
            let made = variant == "stream-events" ? streamingMock(events: count) : producingMock(events: count)
            made.install(into: configuration)
            mock = made
        }
        let client = StreamCounter(configuration: configuration)
        requestsBegin()
        let (parts, _) = try await client.fetch(streamURL)
        requestsEnd()
        withExtendedLifetime(mock) {}
        guard parts == count else { throw BenchmarkFailure(description: "\(parts) parts arrived, \(count) expected") }
    case "upload-64k":
        let stubs = StubSet(count: 10)
        let mock = makeMock(stubs)
        try await send(count, post(stubs.hitURL, upload), through: mock.urlSession)
    default:
        preconditionFailure("unknown variant \(variant)")
    }
}

func post(_ url: URL, _ body: Data) -> URLRequest {
    var request = URLRequest(url: url)
    request.httpMethod = "POST"
    request.httpBody = body
    return request
}

/// Where setup ends and where the requests end: `Benchmarks/instructions` has callgrind dump its counters when
/// each is called (`--dump-before=…`) and counts only what lies between, so neither setup nor the teardown of a
/// mock (which another thread may still be running when the process exits) reaches the figure.
@_silgen_name("httpmock_requests_begin") @inline(never) @_optimize(none)
func requestsBegin() { requestMarks += 1 }

@_silgen_name("httpmock_requests_end") @inline(never) @_optimize(none)
func requestsEnd() { requestMarks += 1 }

/// Written only by the two marks: a side effect that keeps the optimizer from dropping their calls.
nonisolated(unsafe) var requestMarks = 0  // reason: one task writes it, twice per run, and nothing reads it

/// Sends `request` `count` times in sequence; every answer must be the 1 KiB body with status 200.
func send(_ count: Int, _ request: URLRequest, through session: URLSession) async throws {
    requestsBegin()
    for _ in 0..<count {
        let (data, response) = try await session.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200, data.count == 1024 else {
            throw BenchmarkFailure(description: "unexpected answer: \(response) with \(data.count) bytes")
        }
    }
    requestsEnd()
}
