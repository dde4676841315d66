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
        process.arguments = ["-N", "--silent", "--max-time", "60", url.absoluteString]
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
    private let state = Guarded((pieces: [Data](), error: (any Error)?.none, finished: false))
    private var session: URLSession!

    init(_ url: URL, configuration: URLSessionConfiguration = .ephemeral) {
        super.init()
        configuration.timeoutIntervalForRequest = 30
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        session.dataTask(with: url).resume()
    }

    var text: String { state.withLock { String(decoding: $0.pieces.reduce(Data(), +), as: UTF8.self) } }
    var finished: Bool { state.withLock { $0.finished } }
    var error: (any Error)? { state.withLock { $0.error } }

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
        state.withLock { $0.pieces.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        state.withLock {
            $0.error = error
            $0.finished = true
        }
    }
}

/// A client that sends a request and then reads nothing until told to, as a client on a slow link.
final class StalledReader: @unchecked Sendable {  // reason: the socket is written once in init and closed once in `close`
    private let fd: Int32

    init?(port: Int, request: String) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var size: Int32 = 16 * 1024  // a small receive buffer, so the server's writes back up soon
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            closeSocket(fd)
            return nil
        }
        let bytes = Array(request.utf8)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        self.fd = fd
    }

    func close() { closeSocket(fd) }
}

private func closeSocket(_ fd: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(fd)
    #else
    _ = Darwin.close(fd)
    #endif
}
