import Foundation
import HTTPMock
import HTTPMockServer
import Testing

/// Generated streams (see ``GeneratedStream``) served by HTTPMockServer and read by a raw socket that keeps the
/// chunked encoding's boundaries and when each chunk came. A failing case prints its seed; set
/// `HTTPMOCK_STREAM_SEED` to run that case alone.
@Suite("Generated streams reach a raw socket exactly as defined")
struct StreamPropertyTests {
    @Test("240 generated streams over HTTPMockServer: every part whole, one chunk each, in order, never before it is due, ending as defined")
    func generatedStreamsOverTheSocket() async throws {
        let cases = GeneratedStream.seeds(count: 240, start: 0x5EED_0000).map { GeneratedStream(seed: $0) }
        let mock = HTTPMock()
        for stream in cases {
            mock.addResponses(forPath: "/stream/\(stream.seed)") { stream.response }
        }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let port = server.port
            let failures = await withTaskGroup(of: String?.self) { group in
                var pending = cases.makeIterator()
                for _ in 0..<6 {
                    if let stream = pending.next() { group.addTask { await Self.check(stream, port: port) } }
                }
                var failures: [String] = []
                while let result = await group.next() {
                    if let result { failures.append(result) }
                    if let stream = pending.next() { group.addTask { await Self.check(stream, port: port) } }
                }
                return failures
            }
            #expect(failures.isEmpty, "\(failures.count) of \(cases.count) generated streams came differently:\n\(failures.prefix(5).joined(separator: "\n"))")
        }
    }

    @Test("six parts of 64 KiB and more, 50 ms apart: all six, whole and in order, each after its time")
    func largePartsWithDelays() async throws {
        let parts = (0..<6).map { index in
            StreamPart(Data(repeating: UInt8(65 + index), count: 65_536 + index * 40_000), after: 0.05)
        }
        let mock = HTTPMock()
        mock.addResponses(forPath: "/large") { MockResponse.chunks(parts) }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let port = server.port
            let (response, sent) = await offPool { () -> (RawConnection.ChunkedResponse?, ContinuousClock.Instant) in
                let connection = RawConnection(port: port)
                let sent = ContinuousClock.now
                connection?.send("GET /large HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                return (connection?.nextChunkedResponse(), sent)
            }
            let read = try #require(response)
            #expect(read.ending == .complete)
            #expect(read.chunks.map { Data($0.bytes) } == parts.map(\.data))
            for (index, chunk) in read.chunks.enumerated() {
                #expect(chunk.at - sent >= .milliseconds(50 * (index + 1)), "part \(index) came before it was due")
            }
        }
    }

    /// What went differently for `stream`, or `nil` when it came exactly as defined.
    private static func check(_ stream: GeneratedStream, port: Int) async -> String? {
        let stalls = if case .stall = stream.fault { true } else { false }
        let (response, sent) = await offPool { () -> (RawConnection.ChunkedResponse?, ContinuousClock.Instant) in
            // A stalled stream is read until nothing comes for a second (nothing may come after the stall).
            let connection = RawConnection(port: port, readTimeout: stalls ? 1 : 60)
            let sent = ContinuousClock.now
            connection?.send("GET /stream/\(stream.seed) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            return (connection?.nextChunkedResponse(), sent)
        }
        guard let response else { return "\(stream): no chunked response" }
        let expected = stream.delivered.filter { !$0.data.isEmpty }
        let got = response.chunks.map { Data($0.bytes) }
        if got != expected.map(\.data) {
            return "\(stream): got \(got.count) chunks of \(got.map(\.count)) bytes, expected \(expected.count) of \(expected.map(\.data.count))"
        }
        for (index, chunk) in response.chunks.enumerated() {
            let arrived = chunk.at - sent
            // Due times are sums of whole milliseconds; a millisecond covers the clocks' rounding.
            if arrived + .milliseconds(1) < .milliseconds(Int((expected[index].due * 1_000).rounded())) {
                return "\(stream): chunk \(index) came \(arrived) after the request, before it was due at \(expected[index].due) s"
            }
        }
        let ending: RawConnection.ChunkedResponse.Ending = switch stream.fault {
        case nil: .complete
        case .drop?, .fail?: .closed
        case .stall?: .stalled
        }
        if response.ending != ending { return "\(stream): ended \(response.ending), expected \(ending)" }
        if response.status != 200 { return "\(stream): status \(response.status)" }
        let type = stream.events ? "text/event-stream" : "application/octet-stream"
        if response.headers["content-type"] != type { return "\(stream): Content-Type \(response.headers["content-type"] ?? "none")" }
        return nil
    }
}
