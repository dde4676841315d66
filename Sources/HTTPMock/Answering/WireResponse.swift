import Foundation

/// A decided response as a face outside URLSession carries it out: the status, the headers the stub gave, where
/// the body comes from, and how it is delivered. Visible to the package's modules only.
package struct WireResponse: Sendable {
    /// Where the body comes from.
    package enum Body: Sendable {
        /// In memory.
        case data(Data)
        /// Read from this file as it is sent, never held whole.
        case file(URL, size: Int)
        /// Parts over time: the face starts a ``StreamPlayback`` with ``WireResponse/playback()`` and sends each
        /// part as it comes (no `Content-Length`; chunked over the socket).
        case stream(StreamSource)
        /// A WebSocket conversation: the server upgrades the connection and runs it.
        case webSocket(WebSocketConversation)
    }

    /// The status code.
    package var status: Int
    /// The reason phrase of the status line (``MockResponse/reasonPhrase``); `nil` for the standard one.
    package var reasonPhrase: String?
    /// The headers the stub gave, `Content-Type` included (no `Content-Length` added).
    package var headers: [String: String]
    /// The values of headers sent a line each (``MockResponse/headerLines``); a name's lines count only while its
    /// ``headers`` value is their join with `, `.
    package var headerLines: [String: [String]] = [:]
    /// The body.
    package var body: Body
    /// ``NetworkFault/truncatedBody(_:after:)``: the connection drops after this many body bytes.
    package var truncation: Int?
    /// Seconds before the status line goes out (with the delays of the redirects the mock followed first).
    package var headerDelay: TimeInterval
    /// The speed of a ``MockResponse/Delivery/throttled(bytesPerSecond:headersAfter:)`` delivery.
    package var bytesPerSecond: Int?
    /// The URL it answers: the request's, or where the redirects the mock followed led.
    package var url: URL

    /// A response a server built itself, for what it relays from a proxied upstream: sent at once, whole.
    package init(status: Int, headers: [String: String], body: Body, url: URL) {
        self.status = status
        self.headers = headers
        self.body = body
        truncation = nil
        headerDelay = 0
        bytesPerSecond = nil
        self.url = url
    }

    /// A streamed response a server relays from a proxied upstream: its parts are queued on `parts` as they
    /// arrive (``MockStream/enqueue(_:)``), and go out as they come.
    package static func relayed(status: Int, headers: [String: String], parts: MockStream, url: URL) -> WireResponse {
        WireResponse(status: status, headers: headers, body: .stream(StreamSource(.live(parts))), url: url)
    }

    init(_ response: MockResponse, url: URL, extraDelay: TimeInterval) {
        status = response.status.code
        reasonPhrase = response.reasonPhrase
        headers = response.headers
        headerLines = response.headerLines
        switch response.content {
        case .data(let data): body = .data(data)
        case .file(let file): body = .file(file, size: ResponseBody.size(of: response))
        case .stream(let source): body = .stream(source)
        case .webSocket(let conversation): body = .webSocket(conversation)
        // A failure or a forward never becomes a WireResponse; a dynamic response is resolved first.
        case .failure, .dynamic, .forward: body = .data(Data())
        }
        truncation = response.truncation
        headerDelay = response.delivery.headerSeconds + extraDelay
        if case .throttled(let speed, _) = response.delivery { bytesPerSecond = speed }
        self.url = url
    }

    /// The size of the body in bytes.
    package var bodySize: Int {
        switch body {
        case .data(let data): data.count
        case .file(_, let size): size
        case .stream, .webSocket: 0
        }
    }

    /// Whether the body is streamed in parts.
    package var isStreamed: Bool {
        if case .stream = body { return true }
        return false
    }

    /// A new run through the streamed body's parts, for one request; `nil` when the body is not streamed.
    package func playback() -> StreamPlayback? {
        guard case .stream(let source) = body else { return nil }
        return StreamPlayback(source)
    }

    /// Seconds until the last byte has gone out: ``headerDelay`` plus the body at ``bytesPerSecond``.
    package var totalDelay: TimeInterval {
        guard let bytesPerSecond else { return headerDelay }
        return headerDelay + (bytesPerSecond > 0 ? Double(bodySize) / Double(bytesPerSecond) : .infinity)
    }

    /// The whole body, a file read at once.
    ///
    /// - Throws: `URLError(.cannotOpenFile)` naming the file, when it cannot be read.
    package func bodyData() throws -> Data {
        switch body {
        case .data(let data):
            return data
        case .stream, .webSocket:
            return Data()  // a face sends its parts as they come; a conversation has no body
        case .file(let file, _):
            do {
                return try Data(contentsOf: file, options: .mappedIfSafe)
            } catch {
                throw URLError(.cannotOpenFile, userInfo: [
                    NSLocalizedDescriptionKey: "HTTPMock: the response file \(file.path) could not be read: \(error.localizedDescription)",
                ])
            }
        }
    }
}
