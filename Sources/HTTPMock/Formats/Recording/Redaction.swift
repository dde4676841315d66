import Foundation
import _HTTPMockJSON

/// What is blanked out of traffic before it is written to a file: header values, query parameter values and
/// JSON body fields, by name (case-insensitive), replaced by ``placeholder``.
///
/// The default covers the usual secrets; add your own names:
///
/// ```swift
/// let redaction = Redaction.default.adding(headers: ["X-Session"], queryParameters: ["key"], jsonFields: ["pin"])
/// try mock.writeHAR(to: url, redaction: redaction)
/// ```
///
/// JSON fields are redacted at any depth, in request and response bodies; query parameters in the URL and in
/// form-encoded request bodies. On replay, a redacted query value or JSON field matches any value, so a recording
/// keeps working when the real token changes.
public struct Redaction: Sendable, Hashable {
    /// Header names whose values are replaced (request and response).
    public let headers: Set<String>
    /// Query parameter names whose values are replaced.
    public let queryParameters: Set<String>
    /// JSON object keys whose values are replaced.
    public let jsonFields: Set<String>
    /// What replaces a secret. Default `REDACTED`.
    public let placeholder: String

    /// A redaction of exactly these names and nothing else. To keep the usual ones, start from ``default`` and use
    /// ``adding(headers:queryParameters:jsonFields:)``.
    public init(headers: Set<String> = [], queryParameters: Set<String> = [], jsonFields: Set<String> = [],
                placeholder: String = "REDACTED") {
        self.headers = Set(headers.map { $0.lowercased() })
        self.queryParameters = Set(queryParameters.map { $0.lowercased() })
        self.jsonFields = Set(jsonFields.map { $0.lowercased() })
        self.placeholder = placeholder
    }

    /// `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, `X-Api-Key`, `X-Auth-Token`; the query
    /// parameters `access_token`, `api_key`, `apikey`, `token`, `client_secret`, `password`, `signature`, `sig`;
    /// the JSON fields `password`, `secret`, `token`, `access_token`, `refresh_token`, `id_token`, `client_secret`,
    /// `api_key`, `apiKey`.
    public static let `default` = Redaction(
        headers: ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Key", "X-Auth-Token"],
        queryParameters: ["access_token", "api_key", "apikey", "token", "client_secret", "password", "signature", "sig"],
        jsonFields: ["password", "secret", "token", "access_token", "refresh_token", "id_token", "client_secret", "api_key", "apiKey"]
    )

    /// Nothing is redacted. Only for traffic without secrets.
    public static let none = Redaction()

    /// This redaction with more names.
    public func adding(headers: Set<String> = [], queryParameters: Set<String> = [], jsonFields: Set<String> = []) -> Redaction {
        Redaction(headers: self.headers.union(headers), queryParameters: self.queryParameters.union(queryParameters),
                  jsonFields: self.jsonFields.union(jsonFields), placeholder: placeholder)
    }

    // MARK: Applying

    func redactsHeader(_ name: String) -> Bool { headers.contains(name.lowercased()) }

    func header(_ name: String, _ value: String) -> String { redactsHeader(name) ? placeholder : value }

    /// Response headers as a recording writes them: redacted, without those that describe the wire and not the
    /// body (`Content-Length`, `Content-Encoding`…, which a replay sets again).
    func recordedHeaders(_ values: [String: String]) -> [String: JSONValue] {
        var headers: [String: JSONValue] = [:]
        for (name, value) in values where !HAR.unreplayedHeaders.contains(name.lowercased()) {
            headers[name] = .string(header(name, value))
        }
        return headers
    }

    /// The URL with the values of redacted query parameters replaced.
    func url(_ url: URL) -> URL {
        guard !queryParameters.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: true),
              let query = components.percentEncodedQuery, !query.isEmpty else { return url }
        components.percentEncodedQuery = self.query(query)
        return components.url ?? url
    }

    /// A raw (percent-encoded) query or form body with the values of redacted parameters replaced.
    func query(_ raw: String) -> String {
        raw.split(separator: "&", omittingEmptySubsequences: false).map { part -> String in
            guard let eq = part.firstIndex(of: "=") else { return String(part) }
            let name = String(part[..<eq]).replacingOccurrences(of: "+", with: " ")
            let decoded = (name.removingPercentEncoding ?? name).lowercased()
            return queryParameters.contains(decoded) ? "\(part[..<eq])=\(placeholder)" : String(part)
        }.joined(separator: "&")
    }

    /// A part of a streamed body, redacted: for server-sent events, the JSON of each `data:` line (an LLM's
    /// deltas, a token in an event); otherwise as ``body(_:contentType:)`` redacts a body of `contentType`.
    func streamedPart(_ data: Data, contentType: String?) -> Data {
        guard let contentType, contentType.lowercased().hasPrefix("text/event-stream") else {
            return body(data, contentType: contentType)
        }
        guard let text = String(data: data, encoding: .utf8) else { return data }
        var changed = false
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.hasPrefix("data:") else { return String(line) }
            var value = line.dropFirst("data:".count)
            let space = value.first == " "
            if space { value = value.dropFirst() }
            let redacted = body(Data(value.utf8), contentType: "application/json")
            guard redacted != Data(value.utf8) else { return String(line) }
            changed = true
            return "data:" + (space ? " " : "") + String(decoding: redacted, as: UTF8.self)
        }
        return changed ? Data(lines.joined(separator: "\n").utf8) : data
    }

    /// A body with redacted JSON fields (or form fields) replaced; unchanged bytes when nothing was redacted.
    func body(_ data: Data, contentType: String?) -> Data {
        guard !data.isEmpty else { return data }
        let type = contentType?.lowercased() ?? ""
        if type.contains("x-www-form-urlencoded"), let text = String(data: data, encoding: .utf8) {
            return Data(query(text).utf8)
        }
        guard !jsonFields.isEmpty, type.isEmpty || type.contains("json"), let first = data.first(where: { !$0.isWhitespace }),
              first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
              // Leniently: a body with a trailing comma still has its secrets.
              let value = JSONValue(data: data) ?? JSONValue.permissive(data) else { return data }
        let (redacted, changed) = redact(value)
        return changed ? redacted.data : data
    }

    private func redact(_ value: JSONValue) -> (JSONValue, Bool) {
        switch value {
        case .object(let object):
            var changed = false
            var result: [String: JSONValue] = [:]
            for (key, child) in object {
                if jsonFields.contains(key.lowercased()) {
                    result[key] = .string(placeholder)
                    changed = true
                } else {
                    let (redacted, childChanged) = redact(child)
                    result[key] = redacted
                    changed = changed || childChanged
                }
            }
            return (.object(result), changed)
        case .array(let array):
            var changed = false
            let result = array.map { child -> JSONValue in
                let (redacted, childChanged) = redact(child)
                changed = changed || childChanged
                return redacted
            }
            return (.array(result), changed)
        default:
            return (value, false)
        }
    }
}

private extension UInt8 {
    var isWhitespace: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}
