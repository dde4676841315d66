import Foundation
import HTTPMock

/// What an assertion, a wait or `HTTPRequests` looks for, in the one matcher vocabulary: every form compiles to
/// `Match` values and checks a journaled request as a stub checks a live one.
///
/// The URL forms that HTTPAssertion documents translate as follows: `url` is `Match/url(_:options:)` (ignoring
/// the query when the URL has none), `urlPattern` is `Match/urlRegex(_:options:)`, `method` is
/// `Match/method(_:)`, each of `headers` is `Match/header(_:_:)`, and `queryParameters` is
/// `Match/query(_:matching:)` with `.contains`.
struct RequestExpectation: Sendable {
    let predicate: RequestPredicate
    /// How failures name what was looked for: `to https://api.example.com/login with query q=swift`.
    let target: String
    /// The expected method, named in count phrases (`exactly 1 POST request`).
    let method: String?

    /// Requests that meet every one of `matchers`.
    init(matchers: [Match]) throws(HTTPMockError) {
        guard !matchers.isEmpty else {
            throw HTTPMockError(.invalidPattern, "no matcher was given; say which requests to look for, such as .path(\"/login\")")
        }
        predicate = try RequestPredicate(matchers)
        target = "matching " + matchers.map(\.description).joined(separator: ", ")
        method = nil
    }

    /// Requests to `url` (absolute; its query, when it has one, compared exactly).
    init(url: String, method: HTTPMethod?, headers: [String: String], queryParameters: [String: String]) throws(HTTPMockError) {
        guard let parsed = URL(string: url), parsed.scheme != nil, parsed.host != nil else {
            throw HTTPMockError(.invalidPattern, "\"\(url)\" is not an absolute URL; give scheme and host, such as \"https://api.example.com/login\" (or use urlPattern: for a regular expression)")
        }
        let options: URLMatchOptions = (parsed.query ?? "").isEmpty ? .ignoreQuery : []
        try self.init(.url(url, options: options), target: "to \(url)", method: method, headers: headers,
                      queryParameters: queryParameters)
    }

    /// Requests whose URL contains a match of the regular expression `urlPattern`.
    init(urlPattern: String, method: HTTPMethod?, headers: [String: String], queryParameters: [String: String]) throws(HTTPMockError) {
        try self.init(.urlRegex(urlPattern), target: "to a URL matching /\(urlPattern)/", method: method, headers: headers,
                      queryParameters: queryParameters)
    }

    private init(_ url: Match, target: String, method: HTTPMethod?, headers: [String: String],
                 queryParameters: [String: String]) throws(HTTPMockError) {
        var matchers = [url]
        if let method { matchers.append(.method(method)) }
        let headers = headers.sorted { $0.key < $1.key }
        for (name, value) in headers { matchers.append(.header(name, value)) }
        if !queryParameters.isEmpty { matchers.append(.query(QueryParameters(queryParameters), matching: .contains)) }
        predicate = try RequestPredicate(matchers)
        var extras: [String] = []
        if !headers.isEmpty { extras.append("headers " + headers.map { "\($0.key): \($0.value)" }.joined(separator: ", ")) }
        if !queryParameters.isEmpty {
            extras.append("query " + queryParameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&"))
        }
        self.target = target + (extras.isEmpty ? "" : " with " + extras.joined(separator: " and "))
        self.method = method?.rawValue
    }

    /// Whether `entry`'s request is one of those looked for.
    func matches(_ entry: JournalEntry) -> Bool { predicate.matches(entry.request) }

    /// How `request` differs, one line per unmet matcher, as the near-miss report words it.
    func differences(from request: CapturedRequest) -> [String] { predicate.differences(from: request).map(\.description) }

    /// `exactly 1 POST request to https://api.example.com/login`
    func phrase(_ count: RequestCount) -> String { count.description(method: method) + " " + target }
}
