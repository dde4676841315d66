#if os(Linux)
import Foundation
import Testing

/// How many mocks one process can hold: a mock opens no URLSession until it is used, and mocks share one
/// passthrough session. Run in a child process under `ulimit -n 1024`, since descriptors are per process and
/// other tests run alongside.
@Suite(.disabled(if: runsUnderAddressSanitizer, "launches a process, which Foundation cannot do under AddressSanitizer"))
struct LiveMocksTests {
    @Test func aThousandLiveMocksFitInTheUsualDescriptorLimit() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"ulimit -n 1024 && exec "$0" live-mocks 1000"#, try Fixture.executable().path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // Before: each mock opened two sessions (four descriptors), and corelibs trapped near 255 mocks.
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        let counts = printed.split(whereSeparator: \.isWhitespace).dropFirst().compactMap { Int($0) }
        try #require(counts.count == 2, "fixture printed \(printed)")
        // Two mocks used their sessions (two descriptors each, plus what the first session starts); the shared
        // passthrough session was never needed; the 998 others hold none.
        #expect(counts[1] - counts[0] < 64)
    }
}
#endif
