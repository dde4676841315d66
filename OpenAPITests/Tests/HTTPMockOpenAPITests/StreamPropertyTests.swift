import Foundation
import HTTPMockOpenAPI
import HTTPTypes
import OpenAPIRuntime
import Testing

/// Generated streams (``GeneratedStream``, shared with ServerTests) through the OpenAPI transport: the `HTTPBody`
/// yields each part as one chunk, in order, never before it is due, then ends or throws the fault's error. A failing
/// case prints its seed; `HTTPMOCK_STREAM_SEED` runs that case alone.
@Suite struct StreamPropertyTests {
    @Test func generatedStreamsThroughTheTransportsBody() async throws {
        let cases = GeneratedStream.seeds(count: 150, start: 0x0A1_0000).map { GeneratedStream(seed: $0) }
        let mock = HTTPMock()
        for stream in cases {
            mock.addResponses(forPath: "/stream/\(stream.seed)", host: "streams.test") { stream.response }
        }
        let transport = mock.openAPITransport()
        let failures = await GeneratedStream.run(cases) { stream in await Self.check(stream, transport: transport) }
        #expect(failures.isEmpty, "\(failures.count) of \(cases.count) generated streams came differently:\n\(failures.prefix(5).joined(separator: "\n"))")
    }

    /// What went differently for `stream`, or `nil`.
    private static func check(_ stream: GeneratedStream, transport: HTTPMockTransport) async -> String? {
        let started = ContinuousClock.now
        let request = HTTPRequest(method: .get, scheme: "https", authority: "streams.test", path: "/stream/\(stream.seed)")
        let body: HTTPBody
        do {
            let (_, answered) = try await transport.send(request, body: nil, baseURL: URL(string: "https://streams.test")!, operationID: "stream")
            guard let answered else { return "\(stream): no body" }
            body = answered
        } catch {
            return "\(stream): the request failed: \(error)"
        }
        let expected = stream.delivered.filter { !$0.data.isEmpty }
        var chunks: [(data: Data, at: ContinuousClock.Instant)] = []
        var failure: (any Error)?
        // A stall is read until 3 s after its last part was due (the parts before it come well within that).
        let stalls = if case .stall = stream.fault { true } else { false }
        await withTaskGroup(of: Void.self) { group in
            let reader = Task {
                var got: [(Data, ContinuousClock.Instant)] = []
                do {
                    for try await chunk in body { got.append((Data(chunk), ContinuousClock.now)) }
                    return (got, (any Error)?.none)
                } catch {
                    return (got, error)
                }
            }
            if stalls {
                group.addTask {
                    try? await Task.sleep(for: .seconds(3) + .milliseconds(Int(((stream.delivered.last?.due ?? 0) * 1_000).rounded(.up))))
                    reader.cancel()
                }
            }
            let (got, error) = await reader.value
            chunks = got.map { ($0.0, $0.1) }.filter { !$0.data.isEmpty }
            failure = error
            group.cancelAll()
        }
        if chunks.map(\.data) != expected.map(\.data) {
            return "\(stream): got chunks of \(chunks.map(\.data.count)) bytes, expected \(expected.map(\.data.count))"
        }
        for (index, chunk) in chunks.enumerated() where chunk.at - started + .milliseconds(1) < .milliseconds(Int((expected[index].due * 1_000).rounded())) {
            return "\(stream): chunk \(index) came before it was due at \(expected[index].due) s"
        }
        let code = (failure as? URLError)?.code
        switch stream.fault {
        case nil where failure != nil: return "\(stream): failed with \(String(describing: failure))"
        case .drop? where code != .networkConnectionLost: return "\(stream): dropped with \(String(describing: failure))"
        case .fail? where code != .cannotParseResponse: return "\(stream): failed with \(String(describing: failure))"
        default: return nil
        }
    }
}
