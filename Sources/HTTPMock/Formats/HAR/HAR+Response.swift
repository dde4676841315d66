import Foundation

extension HAR {
    /// A response as HAR records it.
    ///
    /// A request that failed without a response (offline, refused connection) has status `0` and the reason in
    /// `_error`, as browsers write it; HTTPMock writes the `URLError` code's name there (`notConnectedToInternet`).
    public struct Response: Codable, Sendable {
        /// The status code; `0` when the request failed without a response.
        public var status: Int
        /// The reason phrase (`OK`).
        public var statusText: String
        /// `HTTP/1.1`.
        public var httpVersion: String
        /// The response headers.
        public var headers: [Pair]
        /// The cookies of `Set-Cookie` headers.
        public var cookies: [Pair]
        /// The body.
        public var content: Content
        /// The `Location` of a redirect, else `""`.
        public var redirectURL: String
        /// `-1`: not known.
        public var headersSize: Int
        /// The body's length in bytes.
        public var bodySize: Int
        /// Why there is no response (`status` 0), or, for a streamed response that failed part of the way
        /// (``parts``), why it failed.
        public var error: String?
        /// A streamed body's parts with their timing, as HTTPMock writes them (`_parts`, an extension field:
        /// other tools ignore it and read ``content`` whole). `nil` for a body that was not streamed.
        public var parts: [Part]?
        /// `true` when the journal kept only the first parts of a long stream (`_partsTruncated`): ``parts`` is
        /// then not the whole body, and replay serves ``content`` whole instead.
        public var partsTruncated: Bool?

        /// A response; a failed request has `status` 0 and an `error`.
        public init(status: Int, statusText: String, httpVersion: String = "HTTP/1.1", headers: [Pair] = [],
                    cookies: [Pair] = [], content: Content, redirectURL: String = "", headersSize: Int = -1,
                    bodySize: Int = -1, error: String? = nil, parts: [Part]? = nil, partsTruncated: Bool? = nil) {
            self.status = status
            self.statusText = statusText
            self.httpVersion = httpVersion
            self.headers = headers
            self.cookies = cookies
            self.content = content
            self.redirectURL = redirectURL
            self.headersSize = headersSize
            self.bodySize = bodySize
            self.error = error
            self.parts = parts
            self.partsTruncated = partsTruncated
        }

        enum CodingKeys: String, CodingKey {
            case status, statusText, httpVersion, headers, cookies, content, redirectURL, headersSize, bodySize
            case error = "_error"
            case parts = "_parts"
            case partsTruncated = "_partsTruncated"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            status = try container.decodeWholeNumber(forKey: .status)
            statusText = try container.decodeIfPresent(String.self, forKey: .statusText) ?? ""
            httpVersion = try container.decodeIfPresent(String.self, forKey: .httpVersion) ?? "HTTP/1.1"
            headers = try container.decodeIfPresent([Pair].self, forKey: .headers) ?? []
            cookies = try container.decodeIfPresent([Pair].self, forKey: .cookies) ?? []
            content = try container.decodeIfPresent(Content.self, forKey: .content) ?? Content(size: 0, mimeType: "")
            redirectURL = try container.decodeIfPresent(String.self, forKey: .redirectURL) ?? ""
            headersSize = try container.decodeWholeNumberIfPresent(forKey: .headersSize) ?? -1
            bodySize = try container.decodeWholeNumberIfPresent(forKey: .bodySize) ?? -1
            error = try container.decodeIfPresent(String.self, forKey: .error)
            parts = try container.decodeIfPresent([Part].self, forKey: .parts)
            partsTruncated = try container.decodeIfPresent(Bool.self, forKey: .partsTruncated)
        }
    }

    /// One part of a streamed body (`_parts`): its bytes, and when it reached the client.
    public struct Part: Codable, Sendable, Hashable {
        /// Seconds after the response's headers.
        public var offset: Double
        /// The part as text, or base64 (see ``encoding``).
        public var text: String
        /// `"base64"` when ``text`` is base64-encoded bytes.
        public var encoding: String?

        /// A part given as text (or base64 with `encoding: "base64"`).
        public init(offset: Double, text: String, encoding: String? = nil) {
            self.offset = offset
            self.text = text
            self.encoding = encoding
        }

        /// A part's bytes: text when they are UTF-8, base64 otherwise.
        public init(offset: Double, data: Data) {
            if let text = String(data: data, encoding: .utf8) {
                self.init(offset: offset, text: text)
            } else {
                self.init(offset: offset, text: data.base64EncodedString(), encoding: "base64")
            }
        }

        /// The part's bytes; `nil` when ``encoding`` is `base64` and ``text`` is not valid base64.
        public var data: Data? {
            encoding == "base64" ? Base64.decode(text) : Data(text.utf8)
        }
    }

    /// A response body.
    public struct Content: Codable, Sendable {
        /// Length of the (decoded) body in bytes.
        public var size: Int
        /// The body's `Content-Type`.
        public var mimeType: String
        /// The body as text, or base64 (see `encoding`); `nil` when not kept.
        public var text: String?
        /// `"base64"` when `text` is base64-encoded bytes.
        public var encoding: String?

        /// A body given as text.
        public init(size: Int, mimeType: String, text: String? = nil, encoding: String? = nil) {
            self.size = size
            self.mimeType = mimeType
            self.text = text
            self.encoding = encoding
        }

        /// Text as UTF-8 when it is, base64 otherwise.
        public init(mimeType: String, body: Data) {
            let (text, encoding) = HAR.encode(body, mimeType: mimeType)
            self.init(size: body.count, mimeType: mimeType, text: text, encoding: encoding)
        }

        enum CodingKeys: String, CodingKey { case size, mimeType, text, encoding }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            size = try container.decodeWholeNumberIfPresent(forKey: .size) ?? 0
            mimeType = try container.decodeIfPresent(String.self, forKey: .mimeType) ?? ""
            text = try container.decodeIfPresent(String.self, forKey: .text)
            encoding = try container.decodeIfPresent(String.self, forKey: .encoding)
        }

        /// The body bytes (empty when the file kept no text); `nil` when `encoding` is `base64` and `text` is not
        /// valid base64 (line breaks and spaces in it are ignored).
        public var data: Data? {
            guard let text else { return Data() }
            return encoding == "base64" ? Base64.decode(text) : Data(text.utf8)
        }
    }
}
