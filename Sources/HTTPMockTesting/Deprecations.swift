// Names of the first release that were renamed or dropped. Each keeps building for one more release, with a
// fix-it where the compiler can apply one. Nothing here is part of the API: new code never uses these names.

import Foundation
import HTTPMock

// MARK: - One matcher vocabulary

/// The first release's filter type for assertions. Assertions now take `Match` values, the matchers stubs use.
@available(*, deprecated, message: "pass Match values to the assertion, such as HTTPAssertRequested(.url(\"https://api.example.com/login\"), .method(.post)), or read HTTPRequests(...)")
public struct RequestFilter: Sendable, CustomStringConvertible {
    /// How the URL is compared.
    public enum URLMatch: Sendable {
        /// An absolute URL.
        case exact(String)
        /// A regular expression the URL must contain a match of.
        case pattern(String)
    }

    /// How the URL is compared.
    public let url: URLMatch
    /// Only requests with this method pass; `nil`: any method.
    public let method: HTTPMethod?
    /// Each header must be present with this value.
    public let headers: [String: String]
    /// Each query parameter must be present with this value.
    public let queryParameters: [String: String]
    private let expectation: RequestExpectation

    /// A filter on an exact URL.
    public init(url: String, method: HTTPMethod? = nil, headers: [String: String] = [:],
                queryParameters: [String: String] = [:]) throws(HTTPMockError) {
        expectation = try RequestExpectation(url: url, method: method, headers: headers, queryParameters: queryParameters)
        self.url = .exact(url)
        self.method = method
        self.headers = headers
        self.queryParameters = queryParameters
    }

    /// A filter on a URL pattern.
    public init(urlPattern: String, method: HTTPMethod? = nil, headers: [String: String] = [:],
                queryParameters: [String: String] = [:]) throws(HTTPMockError) {
        expectation = try RequestExpectation(urlPattern: urlPattern, method: method, headers: headers, queryParameters: queryParameters)
        self.url = .pattern(urlPattern)
        self.method = method
        self.headers = headers
        self.queryParameters = queryParameters
    }

    /// Whether `entry`'s request passes the filter.
    public func matches(_ entry: JournalEntry) -> Bool { expectation.matches(entry) }

    /// How `request` differs from the filter, one line per field; empty when it matches.
    public func differences(from request: CapturedRequest) -> [String] { expectation.differences(from: request) }

    /// What the filter looks for.
    public var description: String { String(expectation.phrase(.atLeast(1)).dropFirst("at least 1 ".count)) }
}

/// The first release's error for a filter that could not be built; assertions now report `HTTPMockError`.
@available(*, deprecated, renamed: "HTTPMockError")
public typealias RequestFilterError = HTTPMockError

/// The first release's call-site value. Assertions take `fileID`, `filePath`, `line` and `column` directly.
@available(*, deprecated, message: "pass fileID, filePath, line and column to the assertion instead")
public struct CallSite: Sendable {
    /// `Module/File.swift`.
    public let fileID: String
    /// The full path.
    public let filePath: StaticString
    /// The line, from 1.
    public let line: UInt
    /// The column, from 1.
    public let column: UInt

    /// The place in the caller's source that a failure is reported at.
    public init(fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }
}
