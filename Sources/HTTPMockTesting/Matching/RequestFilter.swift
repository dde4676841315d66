import Foundation

/// Which journaled requests an assertion counts: a URL (exact, or a regular expression over the whole URL),
/// optionally a method, headers and query parameters.
///
/// The assertion functions build one from their arguments; build one yourself to reuse a filter:
///
/// ```swift
/// let login = try RequestFilter(url: "https://api.example.com/login", method: .post)
/// let calls = mock.journal.filter(login.matches)
/// ```
public struct RequestFilter: Sendable, CustomStringConvertible {
    /// How the URL is compared.
    public enum URLMatch: Sendable {
        /// Scheme, host, port and path equal (path compared as the mock normalises it: `/a/` is `/a`). A query in
        /// the expected URL must be present with the same items; without one, the request's query is not compared.
        case exact(String)
        /// A regular expression that must match the whole URL (`absoluteString`).
        case pattern(String)
    }

    /// How the URL is compared.
    public let url: URLMatch
    /// Only requests with this method pass; `nil`: any method.
    public let method: HTTPMethod?
    /// Each header must be present with this value (names compared case-insensitively).
    public let headers: [String: String]
    /// Each query parameter must be present with this value (among its values, if repeated).
    public let queryParameters: [String: String]

    private let compiled: Compiled

    private enum Compiled: @unchecked Sendable {  // reason: NSRegularExpression is immutable and thread-safe once made
        case exact(CapturedRequest)
        case pattern(NSRegularExpression)
    }

    /// A filter on an exact URL.
    ///
    /// - Throws: ``RequestFilterError`` when `url` is not an absolute URL (scheme and host).
    public init(url: String, method: HTTPMethod? = nil, headers: [String: String] = [:],
                queryParameters: [String: String] = [:]) throws(RequestFilterError) {
        guard let parsed = URL(string: url), parsed.scheme != nil, parsed.host != nil else {
            throw RequestFilterError(message: "\"\(url)\" is not an absolute URL; give scheme and host, such as \"https://api.example.com/login\" (or use urlPattern: for a regular expression)")
        }
        self.url = .exact(url)
        self.method = method
        self.headers = headers
        self.queryParameters = queryParameters
        compiled = .exact(CapturedRequest(url: parsed))
    }

    /// A filter on a URL pattern: a regular expression that must match the whole URL.
    ///
    /// - Throws: ``RequestFilterError`` naming the pattern when it is not a valid regular expression.
    public init(urlPattern: String, method: HTTPMethod? = nil, headers: [String: String] = [:],
                queryParameters: [String: String] = [:]) throws(RequestFilterError) {
        let expression: NSRegularExpression
        do {
            expression = try NSRegularExpression(pattern: "^(?:" + urlPattern + ")$")
        } catch {
            throw RequestFilterError(message: "urlPattern \"\(urlPattern)\" is not a valid regular expression; check its parentheses, brackets and backslashes (escape a literal \".\", \"?\" or \"(\" with a backslash)")
        }
        self.url = .pattern(urlPattern)
        self.method = method
        self.headers = headers
        self.queryParameters = queryParameters
        compiled = .pattern(expression)
    }

    /// Whether `entry`'s request passes the filter.
    public func matches(_ entry: JournalEntry) -> Bool { differences(from: entry.request).isEmpty }

    /// How `request` differs from the filter, one line per field; empty when it matches.
    public func differences(from request: CapturedRequest) -> [String] {
        var differences: [String] = []
        switch compiled {
        case .exact(let expected):
            if !Self.sameURL(expected, request) {
                differences.append("url: expected \(Self.urlText(url)), got \(request.url.absoluteString)")
            }
        case .pattern(let expression):
            let text = request.url.absoluteString
            if expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil {
                differences.append("url: expected to match /\(Self.urlText(url))/, got \(text)")
            }
        }
        if let method, method.rawValue != request.method {
            differences.append("method: expected \(method), got \(request.method)")
        }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            let found = request.headers.values(for: name)
            if !found.contains(value) {
                differences.append("header \(name): expected \"\(value)\", got \(found.isEmpty ? "none" : found.map { "\"\($0)\"" }.joined(separator: ", "))")
            }
        }
        for (name, value) in queryParameters.sorted(by: { $0.key < $1.key }) {
            let found = request.queryValues(for: name)
            if !found.contains(value) {
                differences.append("query \(name): expected \"\(value)\", got \(found.isEmpty ? "none" : found.map { $0.map { "\"\($0)\"" } ?? "(flag)" }.joined(separator: ", "))")
            }
        }
        return differences
    }

    /// `POST https://api.example.com/login with headers Authorization: Bearer x and query q=swift`
    public var description: String {
        (method.map { "\($0) " } ?? "") + (isPattern ? "a URL matching /\(Self.urlText(url))/" : Self.urlText(url)) + extras
    }

    /// `exactly 1 POST request to https://api.example.com/login with query q=swift`
    func phrase(_ count: RequestCount) -> String {
        let target = isPattern ? "to a URL matching /\(Self.urlText(url))/" : "to \(Self.urlText(url))"
        return count.description(method: method?.rawValue) + " " + target + extras
    }

    private var extras: String {
        var extras: [String] = []
        if !headers.isEmpty {
            extras.append("headers " + headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))
        }
        if !queryParameters.isEmpty {
            extras.append("query " + queryParameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&"))
        }
        return extras.isEmpty ? "" : " with " + extras.joined(separator: " and ")
    }

    private var isPattern: Bool {
        if case .pattern = url { return true }
        return false
    }

    private static func urlText(_ match: URLMatch) -> String {
        switch match {
        case .exact(let text), .pattern(let text): text
        }
    }

    private static func sameURL(_ expected: CapturedRequest, _ request: CapturedRequest) -> Bool {
        guard expected.scheme == request.scheme, expected.host == request.host,
              effectivePort(expected) == effectivePort(request), expected.pathSegments == request.pathSegments
        else { return false }
        if expected.queryItems.isEmpty { return true }
        return expected.queryItems.map(\.description).sorted() == request.queryItems.map(\.description).sorted()
    }

    private static func effectivePort(_ request: CapturedRequest) -> Int? {
        request.port ?? (request.scheme == "https" ? 443 : request.scheme == "http" ? 80 : nil)
    }
}

/// A filter an assertion could not build: a URL that is not absolute, or a pattern that is not a regular expression.
public struct RequestFilterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    public let message: String
    public var description: String { "HTTPMockTesting: " + message }
}
