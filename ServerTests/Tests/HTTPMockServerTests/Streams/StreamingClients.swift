import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTTPMock

/// `curl -N` (no buffering) in a child process, whose output the test reads as it arrives.
///
/// curl writes to a file, not a pipe: a pipe's reader waits for every process holding its write end, and a child
/// of a test running in parallel may hold one it inherited.
final class StreamingCurl: @unchecked Sendable {  // reason: the process and the file are set up once in init; the exit code is behind `Guarded`
    private let process = Process()
    private let file: URL
    private let exit = Guarded<Int32?>(nil)

    init(_ url: URL) throws {
        file = FileManager.default.temporaryDirectory.appendingPathComponent("httpmock-curl-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-N", "--silent", "--max-time", "300", url.absoluteString]
        process.standardOutput = try FileHandle(forWritingTo: file)
        process.standardError = FileHandle.nullDevice
        let exit = self.exit
        process.terminationHandler = { process in exit.withLock { $0 = process.terminationStatus } }
        try process.run()
    }

    deinit { try? FileManager.default.removeItem(at: file) }

    /// What curl wrote so far.
    var text: String { (try? String(contentsOf: file, encoding: .utf8)) ?? "" }

    /// Waits until curl's output contains `text` (or curl exited without writing it); true if it does.
    func waitFor(_ text: String) async -> Bool {
        while true {
            let exited = exit.withLock { $0 } != nil
            if self.text.contains(text) { return true }
            if exited { return self.text.contains(text) }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
    }

    /// Waits for curl to exit, and returns its exit code.
    func waitForExit() async -> Int32 {
        while true {
            if let code = exit.withLock({ $0 }) { return code }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
    }
}

/// A data task over the socket whose delegate keeps each piece URLSession hands it.
final class SocketStreamClient: NSObject, URLSessionDataDelegate, @unchecked Sendable {  // reason: fields are behind `state`'s lock; URLSession's delegate protocols are not Sendable
    private let state = Guarded((pieces: [Data](), error: (any Error)?.none, finished: false, received: [Date]()))
    private var session: URLSession!

    init(_ url: URL, configuration: URLSessionConfiguration = .ephemeral, timeout: TimeInterval = 120) {
        super.init()
        configuration.timeoutIntervalForRequest = timeout
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        session.dataTask(with: url).resume()
    }

    var text: String { state.withLock { String(decoding: $0.pieces.reduce(Data(), +), as: UTF8.self) } }
    var finished: Bool { state.withLock { $0.finished } }
    var error: (any Error)? { state.withLock { $0.error } }
    /// When each piece reached the delegate.
    var receivedAt: [Date] { state.withLock { $0.received } }
    /// Every piece, joined.
    var body: Data { state.withLock { $0.pieces.reduce(into: Data()) { $0.append($1) } } }
    /// The size of each piece, in order.
    var pieceSizes: [Int] { state.withLock { $0.pieces.map(\.count) } }

    /// Waits until what arrived contains `text` (or the task ended); true if it does.
    func waitFor(_ text: String) async -> Bool {
        while true {
            if self.text.contains(text) { return true }
            if finished { return false }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
    }

    func waitForEnd() async {
        while !finished { try? await Task.sleep(nanoseconds: 5_000_000) }
        session.finishTasksAndInvalidate()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let now = Date()
        state.withLock {
            $0.pieces.append(data)
            $0.received.append(now)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        state.withLock {
            $0.error = error
            $0.finished = true
        }
    }
}
