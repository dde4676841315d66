import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A reply read as the admin API writes it.
struct JSONReply: @unchecked Sendable {  // reason: `json` holds only JSONSerialization's immutable values, read by the test that made it
    var status: Int
    var text: String
    var headers: [String: String]
    /// The body as a JSON object, if it is one.
    var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }
}

/// Sends `method` to `url` with `body`, over a plain URLSession (no mock in the way). `timeout`: seconds the request
/// may stay idle (URLSession's default 60 is short for a request that waits on purpose, on a loaded machine).
func call(_ method: String, _ url: URL, body: String? = nil, headers: [String: String] = [:],
          timeout: TimeInterval? = nil) async throws -> JSONReply {
    var request = URLRequest(url: url)
    if let timeout { request.timeoutInterval = timeout }
    request.httpMethod = method
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    if let body { request.httpBody = Data(body.utf8) }
    let (data, response) = try await plainSession().data(for: request)
    let http = response as? HTTPURLResponse
    var headers: [String: String] = [:]
    for (name, value) in http?.allHeaderFields ?? [:] {
        if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
    }
    return JSONReply(status: http?.statusCode ?? 0, text: String(decoding: data, as: UTF8.self), headers: headers)
}

extension URL {
    /// This base URL with `path` (and any query in it) appended as written.
    func adding(_ path: String) -> URL { URL(string: absoluteString + path)! }
}
