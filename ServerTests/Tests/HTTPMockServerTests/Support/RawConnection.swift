import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One TCP connection to 127.0.0.1 held open by a test: sends bytes as they are, reads responses when the test
/// says so (a client that pipelines requests and reads nothing for a while). Every call blocks: use it through
/// ``offPool(_:)``.
final class RawConnection: @unchecked Sendable {  // reason: used by one test at a time, each call from one thread in turn
    private var fd: Int32
    /// Bytes read and not yet taken as a response.
    private var buffered = [UInt8]()

    /// One response as read: its status, header fields (names lower-cased) and body size; the body itself only
    /// when `keepingBodies`.
    struct Response {
        var status: Int
        var headers: [String: String]
        var bodySize: Int
        var body: [UInt8]
    }

    /// Connects; `receiveBuffer` sets the socket's receive buffer before connecting (small: the server meets a
    /// client that does not read sooner). `nil` when the connection fails.
    init?(port: Int, receiveBuffer: Int? = nil, readTimeout seconds: Int = 60) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        if var size = receiveBuffer.map(Int32.init) {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // A server that neither reads nor closes fails the test instead of hanging it.
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            closeDescriptor(fd)
            return nil
        }
    }

    /// Closes the connection now, as a client that goes away; it closes when released otherwise.
    func close() {
        if fd >= 0 { closeDescriptor(fd) }
        fd = -1
    }

    deinit { close() }

    /// Sends `text` whole; whether it all went.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { sendWithoutSignal(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Reads the next response (framed by `Content-Length`); `nil` when the connection ends or the read times out
    /// first.
    func nextResponse(keepingBody: Bool = false) -> Response? {
        var headEnd: Int?
        while headEnd == nil {
            headEnd = Self.find([13, 10, 13, 10], in: buffered)
            if headEnd == nil, !fill() { return nil }
        }
        let head = String(decoding: buffered[0..<headEnd!], as: UTF8.self)
        buffered.removeFirst(headEnd! + 4)
        var lines = head.components(separatedBy: "\r\n")
        let status = Int(lines.removeFirst().split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        var body = [UInt8]()
        var remaining = length
        while remaining > 0 {
            if buffered.isEmpty, !fill() { return nil }
            let taken = min(remaining, buffered.count)
            if keepingBody { body += buffered[0..<taken] }
            buffered.removeFirst(taken)
            remaining -= taken
        }
        return Response(status: status, headers: headers, bodySize: length, body: body)
    }

    /// A response read with its chunks as they came: the boundaries the server's chunked encoding drew, each
    /// chunk's bytes and when its last byte was read.
    struct ChunkedResponse {
        enum Ending: Equatable {
            /// The terminating chunk came.
            case complete
            /// The connection closed (or the server reset it) before the terminating chunk.
            case closed
            /// Nothing more came within the read timeout: the stream stalled.
            case stalled
        }
        var status: Int
        var headers: [String: String]
        var chunks: [(bytes: [UInt8], at: ContinuousClock.Instant)]
        var ending: Ending
    }

    /// Reads the next response, which must use chunked transfer encoding, keeping each chunk apart; `nil` when
    /// the head does not come or is not chunked.
    func nextChunkedResponse() -> ChunkedResponse? {
        var ending = ChunkedResponse.Ending.complete
        func line(through needle: [UInt8]) -> [UInt8]? {
            while true {
                if let end = Self.find(needle, in: buffered) {
                    let taken = Array(buffered[0..<end])
                    buffered.removeFirst(end + needle.count)
                    return taken
                }
                switch read() {
                case .bytes: continue
                case .closed: ending = .closed; return nil
                case .timedOut: ending = .stalled; return nil
                }
            }
        }
        guard let head = line(through: [13, 10, 13, 10]) else { return nil }
        let (status, headers) = Self.parseHead(head)
        guard headers["transfer-encoding"]?.lowercased() == "chunked" else { return nil }
        var response = ChunkedResponse(status: status, headers: headers, chunks: [], ending: .complete)
        while true {
            guard let sizeLine = line(through: [13, 10]),
                  let size = Int(String(decoding: sizeLine, as: UTF8.self), radix: 16) else { break }
            guard let chunk = take(exactly: size + 2, ending: &ending) else { break }
            if size == 0 {
                response.ending = .complete
                return response
            }
            response.chunks.append((Array(chunk.dropLast(2)), ContinuousClock.now))
        }
        response.ending = ending == .complete ? .closed : ending
        return response
    }

    private enum ReadResult { case bytes, closed, timedOut }

    private func take(exactly count: Int, ending: inout ChunkedResponse.Ending) -> [UInt8]? {
        while buffered.count < count {
            switch read() {
            case .bytes: continue
            case .closed: ending = .closed; return nil
            case .timedOut: ending = .stalled; return nil
            }
        }
        let taken = Array(buffered[0..<count])
        buffered.removeFirst(count)
        return taken
    }

    /// One read: bytes, the connection's end (or a reset), or the read timeout.
    private func read() -> ReadResult {
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        let count = recv(fd, &chunk, chunk.count, 0)
        if count > 0 {
            buffered += chunk[0..<count]
            return .bytes
        }
        if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return .timedOut }
        return .closed
    }

    /// Whether the server ends the connection (closes or resets it) before sending another byte. `false` when
    /// bytes arrive, or when the read times out first.
    func isEnded() -> Bool {
        guard buffered.isEmpty else { return false }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &chunk, chunk.count, 0)
        return count == 0 || (count < 0 && errno == ECONNRESET)
    }

    /// Sends `chunk` again and again until `limit` bytes went or a send fails; what went, and whether a send
    /// failed because the server closed the connection (a send that times out is no refusal).
    func sendRepeatedly(_ chunk: [UInt8], upTo limit: Int) -> (sent: Int, refused: Bool) {
        var sent = 0
        while sent < limit {
            var offset = 0
            while offset < chunk.count {
                let count = chunk[offset...].withUnsafeBytes { sendWithoutSignal(fd, $0.baseAddress, $0.count) }
                guard count > 0 else { return (sent, errno == EPIPE || errno == ECONNRESET) }
                offset += count
                sent += count
            }
        }
        return (sent, false)
    }

    /// Reads the head of a response whose body goes on for as long as the server likes (a stream of events): its
    /// status and header fields (names lower-cased); `nil` when the head does not come.
    func nextStreamHead() -> (status: Int, headers: [String: String])? {
        guard let head = bytes(through: [13, 10, 13, 10]) else { return nil }
        return Self.parseHead(head)
    }

    /// A response head's status and header fields (names lower-cased).
    private static func parseHead(_ head: [UInt8]) -> (status: Int, headers: [String: String]) {
        var lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines.removeFirst().split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (status, headers)
    }

    /// The next chunk of the chunked body after ``nextStreamHead()``, read as it comes; `[]` for the last chunk,
    /// `nil` when the connection ends or the read times out first.
    func nextChunk() -> [UInt8]? {
        guard let sizeLine = bytes(through: [13, 10]),
              let size = Int(String(decoding: sizeLine, as: UTF8.self), radix: 16) else { return nil }
        while buffered.count < size + 2 {
            guard case .bytes = read() else { return nil }
        }
        let chunk = Array(buffered[0..<size])
        buffered.removeFirst(size + 2)
        return chunk
    }

    /// The buffered bytes up to `needle`, taken with it; `nil` when the connection ends or the read times out.
    private func bytes(through needle: [UInt8]) -> [UInt8]? {
        while true {
            if let end = Self.find(needle, in: buffered) {
                let taken = Array(buffered[0..<end])
                buffered.removeFirst(end + needle.count)
                return taken
            }
            guard case .bytes = read() else { return nil }
        }
    }

    /// Reads what the socket has (waiting for it); `false` at its end or on a timeout.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        let count = recv(fd, &chunk, chunk.count, 0)
        guard count > 0 else { return false }
        buffered += chunk[0..<count]
        return true
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if Array(bytes[start..<(start + needle.count)]) == needle { return start }
        }
        return nil
    }
}

/// `send` that raises no SIGPIPE when the server has closed the connection.
private func sendWithoutSignal(_ fd: Int32, _ pointer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    return send(fd, pointer, count, Int32(MSG_NOSIGNAL))
    #else
    return send(fd, pointer, count, 0)
    #endif
}

private func closeDescriptor(_ fd: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(fd)
    #else
    _ = Darwin.close(fd)
    #endif
}
