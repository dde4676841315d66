import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A session with no URLProtocol of any mock: requests go over the loopback network.
func plainSession() -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 300  // a guard against a hang, not a measure: a loaded machine under ThreadSanitizer can leave a request idle for long
    return URLSession(configuration: configuration)
}

/// curl in a child process: its exit code, what it wrote to standard output, and to standard error.
struct CurlResult: Sendable {
    var exitCode: Int32
    var output: String
    var errors: String
}

enum Curl {
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") }

    static func run(_ arguments: [String]) async throws -> CurlResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["--silent", "--show-error", "--max-time", "300"] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        return try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { process in
                let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                continuation.resume(returning: CurlResult(exitCode: process.terminationStatus, output: out, errors: err))
            }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
    }
}

/// Runs blocking socket calls on a thread of their own, never on one of Swift concurrency's few pool threads (on
/// two cores, two blocked reads would stall every other test), nor on Dispatch's global queue, which on Linux runs
/// as many blocks at once as there are cores and adds a thread for a blocked one only about a second later.
func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: work()) }
    }
}

/// A TCP client that sends bytes as they are, for requests no HTTP client would send.
enum RawSocket {
    /// Connects to 127.0.0.1:`port`, sends `bytes` (then nothing), and reads until the server closes the
    /// connection or `seconds` pass with nothing read. `closed`: whether the server closed it (a reset counts).
    /// `seconds` only stops a test that would hang: on two busy cores a close can take longer than one might think.
    static func exchange(port: Int, sending bytes: [UInt8], readTimeout seconds: Int = 60) async -> (reply: String, closed: Bool) {
        let (reply, ending) = await exchangeBytes(port: port, sending: bytes, readTimeout: seconds)
        return (String(decoding: reply, as: UTF8.self), ending != .open)
    }

    /// How the server ended a connection, as the client saw it.
    enum Ending: Equatable {
        /// An orderly close (FIN): `recv` returned 0.
        case fin
        /// A TCP reset (RST): `recv` failed with `ECONNRESET`.
        case reset
        /// Still open when the read timed out (or it failed otherwise).
        case open
    }

    /// ``exchange(port:sending:readTimeout:)`` with the reply's bytes as they came and how the connection ended.
    static func exchangeBytes(port: Int, sending bytes: [UInt8], readTimeout seconds: Int = 60) async -> (reply: [UInt8], ending: Ending) {
        await offPool {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return ([], .open) }
            defer { close(fd) }
            var timeout = timeval(tv_sec: seconds, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let connected = connectToLoopback(fd, port: port)
            guard connected == 0 else { return ([], .open) }
            if !bytes.isEmpty { _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
            var reply = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count > 0 { reply += buffer[0..<count]; continue }
                return (reply, count == 0 ? .fin : errno == ECONNRESET ? .reset : .open)
            }
        }
    }

    /// Connects socket `fd` to 127.0.0.1:`port`; 0 on success, as `connect` returns.
    private static func connectToLoopback(_ fd: Int32, port: Int) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// Connects and sends the head of a request whose body never ends, reads `readBytes` of the response, and
    /// closes: a client that goes away in the middle of a response.
    static func abandon(port: Int, request: String, afterReading readBytes: Int) async {
        await offPool {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return }
            defer { close(fd) }
            let connected = connectToLoopback(fd, port: port)
            guard connected == 0 else { return }
            let bytes = Array(request.utf8)
            _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            var buffer = [UInt8](repeating: 0, count: readBytes)
            _ = recv(fd, &buffer, readBytes, Int32(MSG_WAITALL))
        }
    }
}

/// A file of `size` bytes of a repeating pattern, in a temporary folder.
func temporaryFile(size: Int) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("httpmockserver-\(UUID().uuidString).bin")
    var data = Data(capacity: size)
    for index in 0..<size { data.append(UInt8(truncatingIfNeeded: index &* 31)) }
    try data.write(to: url)
    return url
}
