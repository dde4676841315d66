import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

// The one way the test targets send a request through a mock and read what came back.

/// What a request sent through a mock got back.
package struct Reply: Sendable {
    package let status: Int
    package let text: String
    package let headers: [String: String]
    package let url: URL?

    /// The value of the response header `name`, whatever its case.
    package func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

extension URLSession {
    /// Sends a request and returns its status, body text, headers and the response URL.
    @discardableResult
    package func fetch(
        _ url: String, method: String = "GET", headers: [String: String] = [:], body: Data? = nil,
        timeout: TimeInterval? = nil
    ) async throws -> Reply {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let timeout { request.timeoutInterval = timeout }
        let (data, response) = try await data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields { fields["\(key)"] = "\(value)" }
        return Reply(status: http.statusCode, text: String(decoding: data, as: UTF8.self), headers: fields, url: http.url)
    }

    /// Sends a request that is expected to fail, and returns its error (`nil` if it succeeded).
    package func failure(_ url: String, method: String = "GET") async -> (any Error)? {
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

/// Whether the suite runs under AddressSanitizer (`.ci/run` sets `HTTPMOCK_SANITIZED=address`). Foundation's
/// `Process.run` reads `/proc/self/fd` in a way AddressSanitizer reports as a heap-buffer-overflow
/// (`findMaximumOpenFromProcSelfFD`, in corelibs, not in HTTPMock), so tests that launch a process skip that run;
/// they run in the plain and ThreadSanitizer runs.
package let runsUnderAddressSanitizer = ProcessInfo.processInfo.environment["HTTPMOCK_SANITIZED"] == "address"
