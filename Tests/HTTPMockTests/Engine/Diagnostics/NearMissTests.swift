import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

@Suite struct NearMissTests {
    @Test func reportRanksClosestStubsAndNamesEachDifference() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/users", host: "api.example.com", method: .get) { MockResponse.plaintext("list") }
        mock.addResponses(forPath: "/users", host: "api.example.com", method: .post, query: ["page": "1"]) {
            MockResponse.plaintext("page 1")
        }
        mock.addResponses(forPath: "/orders", host: "shop.example.com") { MockResponse.plaintext("orders") }
        var request = URLRequest(url: URL(string: "https://api.example.com/users?page=2")!)
        request.httpMethod = "POST"
        let (data, response) = try await mock.urlSession.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 404)

        let entry = try #require(mock.journal.last)
        let report = try #require(entry.report)
        #expect(report.closest.count == 3)
        // Two stubs differ in one field; the more specific (more conditions) comes first.
        #expect(report.closest[0].summary.contains("page=1"))
        #expect(report.closest[0].agreeing == 5)
        #expect(report.closest[0].differences == [
            FieldDifference(field: .query, expected: "page=1 (exact)", actual: "page=2"),
        ])
        #expect(report.closest[1].differences == [FieldDifference(field: .method, expected: "GET", actual: "POST")])
        #expect(Set(report.closest[2].differences.map(\.field)) == [.host, .path])
        #expect(report.closest[2].agreeing == 4)

        // The same report is the 404 body and the journal's reason.
        let body = String(decoding: data, as: UTF8.self)
        #expect(body == report.description)
        #expect(entry.resolution == .unmatched(reason: report.description))
        #expect(body.contains("1. #1 api.example.com/users [method POST, query page=1 (exact)] (5 of 6 fields agree)"))
        #expect(body.contains("   - query: expected page=1 (exact), got page=2"))
    }

    @Test func exhaustedStubIsReportedAsUsedUp() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/once", host: "api.example.com") { MockResponse.plaintext("first") }
        _ = try await mock.urlSession.data(from: URL(string: "https://api.example.com/once")!)
        _ = try await mock.urlSession.data(from: URL(string: "https://api.example.com/once")!)
        let report = try #require(mock.journal.last?.report)
        #expect(report.closest.first?.agreeing == 6)
        #expect(report.closest.first?.differences.first?.field == .responses)
        #expect(report.description.contains("all 1 response(s) already served"))
    }

    @Test func aStubInAnotherScenarioStateSaysWhichState() async throws {
        let mock = HTTPMock()
        try mock.stub(.method(.get), .path("/order"), .scenario("checkout", state: "Paid"), responses: [.plaintext("paid")])
        let reply = try await mock.urlSession.fetch("https://shop.example.com/order")
        #expect(reply.status == 404)
        let report = try #require(mock.journal.last?.report)
        #expect(report.closest.first?.agreeing == 6)
        #expect(report.closest.first?.differences == [
            FieldDifference(field: .scenario, expected: "'checkout' in 'Paid'", actual: "'checkout' in 'Started'"),
        ])
        #expect(reply.text.contains("1. #0 (any host)/order [method GET, scenario 'checkout' in 'Paid'] (6 of 6 fields agree, and 1 other difference)"))
        #expect(reply.text.contains("   - scenario: expected 'checkout' in 'Paid', got 'checkout' in 'Started'"))

        // The same through the two halves of a decision (a stub that runs user code), whose report is made outside the lock.
        try mock.stub(.path("/other"), .custom { _ in false }, responses: [.plaintext("never")])
        try mock.setScenarioState("Shipped", of: "checkout")
        let again = try await mock.urlSession.fetch("https://shop.example.com/order")
        #expect(again.text.contains("   - scenario: expected 'checkout' in 'Paid', got 'checkout' in 'Shipped'"))
    }

    @Test func emptyMockSaysSo() async throws {
        let mock = HTTPMock()
        _ = try await mock.urlSession.data(from: URL(string: "https://api.example.com/x")!)
        let report = try #require(mock.journal.last?.report)
        #expect(report.closest.isEmpty)
        #expect(report.notes == ["this mock has no stub"])
    }

    @Test func secretHeadersAreRedactedInReports() {
        var headers = HeaderFields()
        headers.add("Authorization", "Bearer secret")
        headers.add("Accept", "text/plain")
        let request = CapturedRequest(url: URL(string: "https://a.test/")!, headers: headers)
        let text = NearMissFinder.describe(.headers, of: request)
        #expect(!text.contains("secret"))
        #expect(text.contains("Accept: text/plain"))
    }
}

/// Which stub a near-miss report puts first: the closest, field by field, not only the most fields agreeing.
@Suite struct NearMissRankingTests {
    /// A mock with the stubs a small app has.
    static func appMock() -> HTTPMock {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/users", host: "api.example.com", method: .get) { MockResponse.plaintext("users") }
        mock.addResponses(forPath: "/some/thing", host: "api.example.com") { MockResponse.plaintext("thing") }
        mock.addResponses(forPath: "/flaky", host: "api.example.com") { MockResponse.plaintext("flaky") }
        mock.addResponses(forPath: "/orders/*", host: "api.example.com", method: .get) { MockResponse.plaintext("order") }
        mock.addResponses(forPath: "/profile", host: "api.example.com", method: .put) { MockResponse.plaintext("saved") }
        mock.addResponses(forPath: "/users", host: "staging.example.com", method: .get) { MockResponse.plaintext("staging") }
        return mock
    }

    @Test(arguments: [
        // request, the stub named first
        ("GET https://api.example.com/userz", "api.example.com/users [method GET]"),
        ("GET https://api.example.com/user", "api.example.com/users [method GET]"),
        ("POST https://api.example.com/users", "api.example.com/users [method GET]"),
        ("GET https://api.example.com/order/7", "api.example.com/orders/* [method GET]"),
        ("GET https://api.example.com/profile", "api.example.com/profile [method PUT]"),
        ("GET https://api.example.com/some/thinq", "api.example.com/some/thing"),
        ("GET https://stagin.example.com/users", "staging.example.com/users [method GET]"),
        ("GET https://api.example.com/flakey", "api.example.com/flaky"),
    ])
    func theClosestStubComesFirst(request: String, expected: String) async throws {
        let mock = Self.appMock()
        let parts = request.split(separator: " ")
        var urlRequest = URLRequest(url: URL(string: String(parts[1]))!)
        urlRequest.httpMethod = String(parts[0])
        _ = try await mock.urlSession.data(for: urlRequest)
        let report = try #require(mock.journal.last?.report)
        #expect(report.closest.first?.summary == expected, "\(report)")
        // Closest first, and the count says how many of the six fields agree.
        #expect(report.closest.map(\.closeness) == report.closest.map(\.closeness).sorted(by: >))
        for miss in report.closest {
            let fields = Set(miss.differences.map { $0.field == .url ? .path : $0.field }.filter { ![.condition, .scenario, .responses].contains($0) })
            #expect(miss.agreeing == NearMiss.fieldCount - fields.count, "\(miss)")
        }
    }

    @Test func twoDifferencesInOneFieldCountOnce() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/search"), .header("X-A", "1"), .header("X-B", "2"), responses: [.plaintext("found")])
        let reply = try await mock.urlSession.fetch("https://api.example.com/search")
        let miss = try #require(mock.journal.last?.report?.closest.first)
        #expect(miss.differences.map(\.field) == [.headers, .headers])
        #expect(miss.agreeing == 5)
        #expect(reply.text.contains("(5 of 6 fields agree)"))
    }
}
