import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import HTTPMock

struct User: Codable, Equatable, Sendable {
    let id: Int
    let name: String
}

struct Reply: Sendable {
    let status: Int
    let text: String
    let headers: [String: String]
    let url: URL?

    func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

extension URLSession {
    /// Sends a request and returns status, body text and headers.
    func fetch(_ url: String, method: String = "GET", body: Data? = nil, timeout: TimeInterval? = nil) async throws -> Reply {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.httpBody = body
        if let timeout { request.timeoutInterval = timeout }
        let (data, response) = try await data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields { headers["\(key)"] = "\(value)" }
        return Reply(status: http.statusCode, text: String(decoding: data, as: UTF8.self), headers: headers, url: http.url)
    }
}

import Testing

/// The folder of test fixtures.
let fixtures = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")
