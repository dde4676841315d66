import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

extension URLSession {
    /// Sends a request with headers and returns status, body text, headers and the response URL.
    func send(_ url: String, method: String = "GET", headers: [String: String] = [:], body: Data? = nil) async throws -> Reply {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields { fields["\(key)"] = "\(value)" }
        return Reply(status: http.statusCode, text: String(decoding: data, as: UTF8.self), headers: fields, url: http.url)
    }

    /// Sends a request that is expected to fail, and returns its error.
    func failure(_ url: String, method: String = "GET") async -> (any Error)? {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        do {
            _ = try await data(for: request)
            return nil
        } catch {
            return error
        }
    }
}
