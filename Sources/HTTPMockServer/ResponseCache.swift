#if Server
import Foundation
import HTTPMock
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// What a connection keeps of its last response, to send the next one without building it again when it is the
/// same: a stub that answers every request alike (the usual case) costs one comparison instead of sorting,
/// splitting and copying its headers and body each time. Anything that differs (status, headers, body, the
/// request's version or keep-alive) builds afresh, so dynamic responses go out exactly as they were made.
extension WireResponse {
    /// The status of the status line, with the stub's own reason phrase when it has one.
    var statusLine: HTTPResponseStatus {
        // `HTTPResponseStatus(statusCode:reasonPhrase:)` keeps the standard phrase of a known code.
        guard let reasonPhrase else { return HTTPResponseStatus(statusCode: status) }
        return .custom(code: UInt(status), reasonPhrase: reasonPhrase)
    }
}

struct ResponseCache {
    private struct Key: Equatable {
        var status: Int
        var reasonPhrase: String?
        var size: Int
        var keepAlive: Bool
        var version: HTTPVersion
        var headers: [String: String]
        var headerLines: [String: [String]]
    }

    private var head: (key: Key, value: HTTPResponseHead, chunked: Bool)?
    private var body: (data: Data, buffer: ByteBuffer)?
    /// Names the last head and kept body: the same number while ``head(of:size:version:keepAlive:)`` and
    /// ``buffer(of:)`` give the same ones, so ``ResponseEncoder`` encodes them once.
    private(set) var identity = 0
    /// Whether the last head's body is sent in chunks (`Transfer-Encoding: chunked`).
    var isChunked: Bool { head?.chunked ?? false }

    /// Bodies up to this size are kept: a connection holds at most one, so many connections stay cheap.
    private static let largestKeptBody = 64 * 1024

    /// The head of a whole response: the stub's headers in name order, then `Transfer-Encoding: chunked` or
    /// `Content-Length`, and `Connection: close` when the connection closes after it.
    mutating func head(of response: WireResponse, size: Int, version: HTTPVersion, keepAlive: Bool) -> HTTPResponseHead {
        let key = Key(status: response.status, reasonPhrase: response.reasonPhrase, size: size, keepAlive: keepAlive, version: version,
                      headers: response.headers, headerLines: response.headerLines)
        if let head, head.key == key { return head.value }
        let status = response.status
        let hasBody = !(100...199).contains(status) && status != 204 && status != 304
        var (headers, chunked, _) = Self.fields(of: response.headers, lines: response.headerLines)
        if chunked && hasBody {
            headers.add(name: "Transfer-Encoding", value: "chunked")
        } else if hasBody || status == 304 {
            headers.add(name: "Content-Length", value: String(size))
        }
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        let value = HTTPResponseHead(version: version, status: response.statusLine, headers: headers)
        head = (key, value, chunked && hasBody)
        identity &+= 1
        return value
    }

    /// `data` in a buffer to write.
    mutating func buffer(of data: Data) -> ByteBuffer {
        if let body, body.data == data { return body.buffer }
        let buffer = ByteBuffer(data: data)
        if body != nil || data.count <= Self.largestKeptBody { identity &+= 1 }
        body = data.count <= Self.largestKeptBody ? (data, buffer) : nil
        return buffer
    }

    /// A stub's headers as fields to send, in name order, without those the server sets itself:
    /// `Connection`, `Content-Length` (returned as `promised`) and `Transfer-Encoding` (`chunked`). A name with
    /// `lines` whose join is still its value goes out a field per line (``WireResponse/headerLines``).
    static func fields(of headers: [String: String],
                       lines: [String: [String]] = [:]) -> (fields: HTTPHeaders, chunked: Bool, promised: String?) {
        var fields = HTTPHeaders()
        var chunked = false
        var promised: String?
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            switch name.lowercased() {
            case "transfer-encoding": chunked = chunked || value.lowercased().contains("chunked")
            case "content-length": promised = value
            case "connection": continue
            case _ where !lines.isEmpty && lines[name].map({ $0.joined(separator: ", ") == value }) == true:
                for line in lines[name]! { fields.add(name: name, value: line) }
            case "set-cookie":
                // One field per cookie, as servers send them (browsers do not split a joined one).
                for cookie in cookies(in: value) { fields.add(name: name, value: cookie) }
            default: fields.add(name: name, value: value)
            }
        }
        return (fields, chunked, promised)
    }

    /// The stub's own `Content-Length`, when it gives one that is a length (decimal digits only).
    static func promisedLength(in headers: [String: String]) -> Int? {
        guard let value = headers.first(where: { $0.key.utf8.count == 14 && $0.key.lowercased() == "content-length" })?.value
        else { return nil }
        let digits = value.trimmingCharacters(in: .whitespaces)
        guard !digits.isEmpty, digits.utf8.count <= 18, digits.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int(digits)
    }

    /// The cookies of a `Set-Cookie` value that joins several with commas (as a `[String: String]` must): a comma
    /// starts a new cookie only when a `name=` follows it, so the comma inside `Expires=Wed, 21 Oct 2026 …` stays.
    static func cookies(in value: String) -> [String] {
        var cookies: [String] = []
        var current = ""
        let parts = value.split(separator: ",", omittingEmptySubsequences: false)
        for (index, part) in parts.enumerated() {
            let attribute = part.prefix { $0 != ";" }
            if index > 0, attribute.contains("=") {
                cookies.append(current.trimmingCharacters(in: .whitespaces))
                current = String(part)
            } else {
                current += index > 0 ? "," + part : String(part)
            }
        }
        cookies.append(current.trimmingCharacters(in: .whitespaces))
        return cookies.filter { !$0.isEmpty }
    }
}
#endif
