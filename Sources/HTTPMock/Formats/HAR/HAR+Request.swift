import Foundation

extension HAR {
    /// A request as HAR records it.
    public struct Request: Codable, Sendable {
        /// The method, upper-cased.
        public var method: String
        /// The absolute URL, query included.
        public var url: String
        /// `HTTP/1.1`.
        public var httpVersion: String
        /// The request headers, in order.
        public var headers: [Pair]
        /// The query items of `url`, decoded.
        public var queryString: [Pair]
        /// The cookies of the `Cookie` header.
        public var cookies: [Pair]
        /// `-1`: not known.
        public var headersSize: Int
        /// The body's length in bytes.
        public var bodySize: Int
        /// The body, if there is one.
        public var postData: PostData?

        /// A request; only `method` and `url` are needed.
        public init(method: String, url: String, httpVersion: String = "HTTP/1.1", headers: [Pair] = [],
                    queryString: [Pair] = [], cookies: [Pair] = [], headersSize: Int = -1, bodySize: Int = 0,
                    postData: PostData? = nil) {
            self.method = method
            self.url = url
            self.httpVersion = httpVersion
            self.headers = headers
            self.queryString = queryString
            self.cookies = cookies
            self.headersSize = headersSize
            self.bodySize = bodySize
            self.postData = postData
        }

        enum CodingKeys: String, CodingKey {
            case method, url, httpVersion, headers, queryString, cookies, headersSize, bodySize, postData
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            method = try container.decodeIfPresent(String.self, forKey: .method) ?? "GET"
            url = try container.decode(String.self, forKey: .url)
            httpVersion = try container.decodeIfPresent(String.self, forKey: .httpVersion) ?? "HTTP/1.1"
            headers = try container.decodeIfPresent([Pair].self, forKey: .headers) ?? []
            queryString = try container.decodeIfPresent([Pair].self, forKey: .queryString) ?? []
            cookies = try container.decodeIfPresent([Pair].self, forKey: .cookies) ?? []
            headersSize = try container.decodeWholeNumberIfPresent(forKey: .headersSize) ?? -1
            bodySize = try container.decodeWholeNumberIfPresent(forKey: .bodySize) ?? -1
            postData = try container.decodeIfPresent(PostData.self, forKey: .postData)
        }

        /// The request body; `nil` without `postData`.
        public var body: Data? { postData?.data }
    }

    /// A request body.
    ///
    /// HAR 1.2 has only `text`. A binary body is written base64-encoded with `"_encoding": "base64"` (an extension
    /// field; HAR allows fields that start with `_`), which HTTPMock reads back.
    public struct PostData: Codable, Sendable {
        /// The body's `Content-Type`.
        public var mimeType: String
        /// The body as text, or base64 (see `encoding`).
        public var text: String
        /// `"base64"` when `text` is base64-encoded bytes.
        public var encoding: String?

        /// A body given as text.
        public init(mimeType: String, text: String, encoding: String? = nil) {
            self.mimeType = mimeType
            self.text = text
            self.encoding = encoding
        }

        /// Text as UTF-8 when it is, base64 otherwise.
        public init(mimeType: String, body: Data) {
            let (text, encoding) = HAR.encode(body, mimeType: mimeType)
            self.init(mimeType: mimeType, text: text, encoding: encoding)
        }

        enum CodingKeys: String, CodingKey {
            case mimeType, text, params
            case encoding = "_encoding"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            mimeType = try container.decodeIfPresent(String.self, forKey: .mimeType) ?? ""
            encoding = try container.decodeIfPresent(String.self, forKey: .encoding)
            if let text = try container.decodeIfPresent(String.self, forKey: .text) {
                self.text = text
            } else if let params = try container.decodeIfPresent([Pair].self, forKey: .params) {
                // Form fields given as `params` only: rebuild the urlencoded body.
                text = params.map { "\(HAR.formEncode($0.name))=\(HAR.formEncode($0.value))" }.joined(separator: "&")
            } else {
                text = ""
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(mimeType, forKey: .mimeType)
            try container.encode(text, forKey: .text)
            try container.encodeIfPresent(encoding, forKey: .encoding)
        }

        /// The body bytes; empty when `encoding` is `base64` and `text` is not valid base64 (replaying such a
        /// body is refused: loading refuses it).
        public var data: Data { decodedData ?? Data() }

        /// The body bytes, or `nil` when `encoding` is `base64` and `text` is not valid base64.
        var decodedData: Data? {
            encoding == "base64" ? Base64.decode(text) : Data(text.utf8)
        }
    }
}

extension HAR {
    /// `(text, nil)` for a UTF-8 text body, `(base64, "base64")` for anything else.
    static func encode(_ body: Data, mimeType: String) -> (String, String?) {
        if isTextual(mimeType) || mimeType.isEmpty, let text = String(data: body, encoding: .utf8) {
            return (text, nil)
        }
        return (body.base64EncodedString(), "base64")
    }

    static func isTextual(_ mimeType: String) -> Bool {
        let type = mimeType.lowercased()
        return type.hasPrefix("text/") || type.contains("json") || type.contains("xml") || type.contains("javascript")
            || type.contains("x-www-form-urlencoded") || type.contains("graphql") || type.contains("yaml")
    }

    static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
