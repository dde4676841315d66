import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// Body, JSON, form and header matchers, and custom matchers (closure and protocol).
@Suite struct BodyAndHeaderMatcherTests {
    let url = "https://api.example.com/login"

    @Test func exactBodyBytes() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/login"), .body(Data([0, 1, 2, 255])), responses: [.plaintext("bytes", lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch(url, method: "POST", body: Data([0, 1, 2, 255])).text == "bytes")
        #expect(try await mock.urlSession.fetch(url, method: "POST", body: Data([0, 1, 2])).status == 404)
        #expect(try await mock.urlSession.fetch(url).status == 404)
    }

    @Test func bodyFromAnUploadTaskIsSeen() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/login"), .body("payload"), responses: [.plaintext("uploaded")])
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "POST"
        let (data, _) = try await mock.urlSession.upload(for: request, from: Data("payload".utf8))
        #expect(String(decoding: data, as: UTF8.self) == "uploaded")
    }

    @Test func jsonEqualToAnEncodableIgnoresKeyOrderAndWhitespace() async throws {
        let mock = HTTPMock()
        try mock.stub(.json(User(id: 34, name: "Mark")), responses: [.plaintext("mark", lifetime: .eternal)])
        let reordered = Data(#"{ "name" : "Mark",  "id" : 34.0 }"#.utf8)
        #expect(try await mock.urlSession.fetch(url, method: "POST", body: reordered).text == "mark")
        #expect(try await mock.urlSession.fetch(url, method: "POST", body: Data(#"{"name":"Mark","id":35}"#.utf8)).status == 404)
        #expect(try await mock.urlSession.fetch(url, method: "POST", body: Data(#"{"name":"Mark","id":34,"x":1}"#.utf8)).status == 404)
        #expect(try await mock.urlSession.fetch(url, method: "POST", body: Data("not json".utf8)).status == 404)
    }

    @Test func jsonObjectKeepsBooleansApartFromNumbers() async throws {
        let mock = HTTPMock()
        try mock.stub(.json(object: ["on": true, "tags": ["a", "b"]]), responses: [.plaintext("on", lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch(url, method: "POST", body: Data(#"{"tags":["a","b"],"on":true}"#.utf8)).text == "on")
        #expect(try await mock.urlSession.fetch(url, method: "POST", body: Data(#"{"tags":["a","b"],"on":1}"#.utf8)).status == 404)
        #expect(try await mock.urlSession.fetch(url, method: "POST", body: Data(#"{"tags":["b","a"],"on":true}"#.utf8)).status == 404)
    }

    @Test func jsonContainingASubset() async throws {
        let mock = HTTPMock()
        try mock.stub(.jsonContaining(["action": "login"]), responses: [.plaintext("encodable subset", lifetime: .eternal)])
        try mock.stub(.jsonContaining(object: ["user": ["role": "admin"]]), responses: [.plaintext("nested subset", lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch(url, method: "POST", body: Data(#"{"action":"login","user":"ann"}"#.utf8)).text == "encodable subset")
        #expect(try await mock.urlSession.fetch(url, method: "POST", body: Data(#"{"user":{"name":"bo","role":"admin"}}"#.utf8)).text == "nested subset")
        #expect(try await mock.urlSession.fetch(url, method: "POST", body: Data(#"{"action":"logout"}"#.utf8)).status == 404)
    }

    @Test func jsonMatcherRefusesAValueThatIsNotJSON() {
        let mock = HTTPMock()
        let error = #expect(throws: HTTPMockError.self) { try mock.stub(.json(object: ["date": Date()]), responses: [.plaintext("x")]) }
        #expect(error?.message.contains("not a JSON value") == true)
    }

    @Test func formFields() async throws {
        let mock = HTTPMock()
        try mock.stub(.form(["user": "ann lee", "password": .any]), responses: [.plaintext("form", lifetime: .eternal)])
        try mock.stub(.form(["user": "bo"], matching: .contains), responses: [.plaintext("contains", lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch(url, method: "POST", body: Data("password=s%26cret&user=ann+lee".utf8)).text == "form")
        #expect(try await mock.urlSession.fetch(url, method: "POST", body: Data("user=ann+lee".utf8)).status == 404)
        #expect(try await mock.urlSession.fetch(url, method: "POST", body: Data("user=ann+lee&password=x&extra=1".utf8)).status == 404)
        #expect(try await mock.urlSession.fetch(url, method: "POST", body: Data("user=bo&remember=1".utf8)).text == "contains")
    }

    @Test func headerPresentEqualAndMatchingWithCaseInsensitiveNames() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/a"), .header("x-api-key"), responses: [.plaintext("present", lifetime: .eternal)])
        try mock.stub(.path("/b"), .header("Authorization", "Bearer t0k3n"), responses: [.plaintext("equal", lifetime: .eternal)])
        try mock.stub(.path("/c"), .header("user-agent", matching: "^MyApp/[0-9]+$"), responses: [.plaintext("regex", lifetime: .eternal)])
        let base = "https://api.example.com"
        #expect(try await mock.urlSession.fetch(base + "/a", headers: ["X-API-Key": "k"]).text == "present")
        #expect(try await mock.urlSession.fetch(base + "/a").status == 404)
        #expect(try await mock.urlSession.fetch(base + "/b", headers: ["authorization": "Bearer t0k3n"]).text == "equal")
        #expect(try await mock.urlSession.fetch(base + "/b", headers: ["Authorization": "Bearer other"]).status == 404)
        #expect(try await mock.urlSession.fetch(base + "/c", headers: ["User-Agent": "MyApp/12"]).text == "regex")
        #expect(try await mock.urlSession.fetch(base + "/c", headers: ["User-Agent": "Other/12"]).status == 404)
    }

    @Test func everyValueOfARepeatedHeaderIsChecked() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/tags"), .header("X-Tag", matching: "^beta$"), responses: [.plaintext("beta", lifetime: .eternal)])
        var request = URLRequest(url: URL(string: "https://api.example.com/tags")!)
        request.addValue("alpha", forHTTPHeaderField: "X-Tag")
        request.addValue("beta", forHTTPHeaderField: "X-Tag")
        let (data, _) = try await mock.urlSession.data(for: request)
        #expect(String(decoding: data, as: UTF8.self) == "beta")
    }

    @Test func invalidHeaderRegexIsRefusedNamingItAndTheHeader() {
        let mock = HTTPMock()
        let error = #expect(throws: HTTPMockError.self) { try mock.stub(.header("User-Agent", matching: "(unclosed"), responses: [.plaintext("x")]) }
        #expect(error?.message.contains("(unclosed") == true)
        #expect(error?.message.contains("User-Agent") == true)
    }

    @Test func headerNameThatCannotBeOneIsRefused() {
        let mock = HTTPMock()
        let error = #expect(throws: HTTPMockError.self) { try mock.stub(.header("X Tag", "a"), responses: [.plaintext("x")]) }
        #expect(error?.message.contains("\"X Tag\" is not a header name") == true)
    }

    struct HasSecretKey: RequestMatcher {
        func matches(_ request: CapturedRequest) -> Bool { request.queryValues(for: "key") == ["secret"] }
        var matcherDescription: String { "key=secret" }
    }

    @Test func customClosureAndProtocolMatchers() async throws {
        let mock = HTTPMock()
        try mock.stub(.custom("agent is custom") { $0.headers["User-Agent"] == "customAgent" },
                      responses: [.plaintext("closure", lifetime: .eternal)])
        try mock.stub(.host("api.example.com"), .custom(HasSecretKey()), responses: [.plaintext("protocol", lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch("https://any.test/x", headers: ["User-Agent": "customAgent"]).text == "closure")
        #expect(try await mock.urlSession.fetch("https://any.test/x", headers: ["User-Agent": "other"]).status == 404)
        #expect(try await mock.urlSession.fetch("https://api.example.com/x?key=secret").text == "protocol")
        let miss = try await mock.urlSession.fetch("https://api.example.com/x?key=wrong")
        #expect(miss.status == 404)
        #expect(miss.text.contains("expected key=secret"))
    }

    @Test func everyMatcherMustHold() async throws {
        let mock = HTTPMock()
        try mock.stub(.method(.post), .path("/login"), .header("Content-Type", "application/json"), .jsonContaining(["user": "ann"]),
                      responses: [.plaintext("all", lifetime: .eternal)])
        let body = Data(#"{"user":"ann"}"#.utf8)
        #expect(try await mock.urlSession.fetch(url, method: "POST", headers: ["Content-Type": "application/json"], body: body).text == "all")
        #expect(try await mock.urlSession.fetch(url, method: "PUT", headers: ["Content-Type": "application/json"], body: body).status == 404)
        #expect(try await mock.urlSession.fetch(url, method: "POST", headers: ["Content-Type": "text/plain"], body: body).status == 404)
    }
}
