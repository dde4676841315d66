import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// `Set-Cookie` of mocked responses lands in the session's cookie storage and comes back as `Cookie`.
@Suite struct CookiesTests {
    static let showCookie = MockResponse.dynamic(lifetime: .eternal) { request, _ in
        .plaintext(request.headers["Cookie"] ?? "no cookie")
    }

    @Test func setCookieIsStoredAndSentBack() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/login"), responses: [.empty(headers: ["Set-Cookie": "session=abc123; Path=/"])])
        try mock.stub(.path("/me"), responses: [Self.showCookie])
        #expect(try await mock.urlSession.fetch("https://shop.test/me").text == "no cookie")
        _ = try await mock.urlSession.fetch("https://shop.test/login", method: "POST")
        let stored = mock.urlSession.configuration.httpCookieStorage?.cookies(for: URL(string: "https://shop.test/")!) ?? []
        #expect(stored.map(\.name) == ["session"])
        #expect(try await mock.urlSession.fetch("https://shop.test/me").text == "session=abc123")
        #expect(try await mock.urlSession.fetch("https://other.test/me").text == "no cookie")
    }

    @Test func aResponseServedEveryTimeStoresItsCookieEveryTime() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/login"), responses: [.empty(lifetime: .eternal, headers: ["Set-Cookie": "session=abc123; Path=/"])])
        let storage = try #require(mock.urlSession.configuration.httpCookieStorage)
        let site = URL(string: "https://shop.test/")!
        for _ in 0..<2 {
            _ = try await mock.urlSession.fetch("https://shop.test/login", method: "POST")
            #expect(storage.cookies(for: site)?.map(\.name) == ["session"])
            for cookie in storage.cookies(for: site) ?? [] { storage.deleteCookie(cookie) }
        }
    }

    @Test func severalCookiesInOneHeader() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/login"), responses: [.empty(headers: ["Set-Cookie": "a=1; Path=/, b=2; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT"])])
        try mock.stub(.path("/me"), responses: [Self.showCookie])
        _ = try await mock.urlSession.fetch("https://shop.test/login")
        let cookie = try await mock.urlSession.fetch("https://shop.test/me").text
        #expect(cookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.sorted() == ["a=1", "b=2"])
    }

    @Test func cookiesOfDifferentMocksStayApart() async throws {
        let first = HTTPMock(), second = HTTPMock()
        for mock in [first, second] { try mock.stub(.path("/me"), responses: [Self.showCookie]) }
        try first.stub(.path("/login"), responses: [.empty(headers: ["Set-Cookie": "who=first"])])
        _ = try await first.urlSession.fetch("https://shop.test/login")
        #expect(try await first.urlSession.fetch("https://shop.test/me").text == "who=first")
        #expect(try await second.urlSession.fetch("https://shop.test/me").text == "no cookie")
    }

    @Test func cookieSetOnARedirectReachesTheNextHop() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/login"), responses: [.redirect(to: "/home", status: .seeOther, headers: ["Set-Cookie": "token=t1; Path=/"])])
        try mock.stub(.path("/home"), responses: [Self.showCookie])
        #expect(try await mock.urlSession.fetch("https://shop.test/login", method: "POST").text == "token=t1")
    }

    @Test func sessionsMadeByTheMockUseTheirOwnStorage() async throws {
        let mock = HTTPMock()
        let session = mock.makeSession()
        try mock.stub(.path("/login"), responses: [.empty(headers: ["Set-Cookie": "s=1"])])
        try mock.stub(.path("/me"), responses: [Self.showCookie])
        _ = try await session.fetch("https://shop.test/login")
        #expect(try await session.fetch("https://shop.test/me").text == "s=1")
        #if canImport(FoundationNetworking)
        // On Linux the task's own session is found, so the mock's main session saw nothing.
        #expect(try await mock.urlSession.fetch("https://shop.test/me").text == "no cookie")
        #endif
    }

    @Test func theSharedOnDiskStorageIsNeverWritten() async throws {
        let mock = HTTPMock()
        let session = mock.makeSession(configuration: .default)
        try mock.stub(.path("/login"), responses: [.empty(headers: ["Set-Cookie": "leak=1"])])
        _ = try await session.fetch("https://never-stored.test/login")
        #expect(HTTPCookieStorage.shared.cookies(for: URL(string: "https://never-stored.test/")!)?.isEmpty ?? true)
    }

    @Test func requestsThatTurnCookiesOffNeitherStoreNorSend() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/login"), responses: [.empty(headers: ["Set-Cookie": "s=1"])])
        try mock.stub(.path("/me"), responses: [Self.showCookie])
        var request = URLRequest(url: URL(string: "https://shop.test/login")!)
        request.httpShouldHandleCookies = false
        _ = try await mock.urlSession.data(for: request)
        #expect(try await mock.urlSession.fetch("https://shop.test/me").text == "no cookie")
    }
}
