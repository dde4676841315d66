import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
@testable import HTTPMock
@testable import _HTTPMockTemplates

/// `request.…` in WireMock templates, with the values WireMock's documentation gives for them.
@Suite struct TemplateRequestModelTests {
    @Test("url, path, path segments, urlPathTemplate variables, method, host, port, scheme, baseUrl")
    func urlParts() async throws {
        let server = try TemplateServer([
            "/shop/items/42": "{{request.url}}|{{request.path}}|{{request.path.[1]}}|{{request.path.2}}|{{request.pathSegments.[0]}}|{{request.method}}|{{request.host}}|{{request.port}}|{{request.scheme}}|{{request.baseUrl}}",
        ], pathTemplates: [
            "/contacts/{contactId}/addresses/{addressId}": "{{request.path.contactId}}/{{request.path.addressId}}|{{request.path.[3]}}|{{size request.pathSegments}}",
        ])
        try await server.expect("/shop/items/42?x=1", method: "PUT", "/shop/items/42?x=1|/shop/items/42|items|42|shop|PUT|localhost|80|http|http://localhost")
        try await server.expect("/contacts/7/addresses/99", "7/99|99|4")
        let secure = try await server.mock.urlSession.fetch("https://api.example.com:8443/shop/items/42")
        #expect(secure.text == "/shop/items/42|/shop/items/42|items|42|shop|GET|api.example.com|8443|https|https://api.example.com:8443")
    }

    @Test("a query parameter is one or many: it prints the first; .N, first, last and [-1] as WireMock documents; each over all")
    func queryValues() async throws {
        let server = try TemplateServer([
            "/multi-query": "{{request.query.things}} {{request.query.things.0}} {{request.query.things.first}} {{request.query.things.1}} {{request.query.things.[-1]}} {{request.query.things.last}} {{request.query.things.size}}",
            "/each": "{{#each request.query.things}}{{this}};{{/each}}{{size request.query.things}}|{{request.query.[q]}}",
            "/lookup": "{{lookup request.query 'ids[].1'}}",
        ])
        try await server.expect("/multi-query?things=1&things=2&things=3", "1 1 1 2 2 3 3")
        try await server.expect("/each?things=a&things=b&q=x%20y", "a;b;2|x y")
        try await server.expect("/lookup?ids%5B%5D=111&ids%5B%5D=222&ids%5B%5D=333", "222")
    }

    @Test("headers by any case, one or many; cookies; body, bodyAsBase64, clientIp, id")
    func headersCookiesAndBody() async throws {
        let server = try TemplateServer([
            "/headers": "{{request.headers.x-request-id}}|{{request.headers.[X-REQUEST-ID]}}|{{request.headers.X-Many.[1]}}|{{request.cookies.session}}|{{request.cookies.theme}}",
            "/body": "{{{request.body}}}|{{request.bodyAsBase64}}|[{{request.clientIp}}]|{{request.multipart}}",
            "/id": "{{request.id}}",
        ])
        try await server.expect("/headers", headers: ["X-Request-Id": "abc", "X-Many": "one, two", "Cookie": "session=s1; theme=dark"], "abc|abc||s1|dark")
        try await server.expect("/body", method: "POST", body: #"{"a":1}"#, "{\"a\":1}|eyJhIjoxfQ==|[127.0.0.1]|false")
        let id = try await server.text("/id")
        #expect(UUID(uuidString: id) != nil && id == id.lowercased())
        #expect(try await server.text("/id") != id)
    }

    @Test("each over the headers goes in the order of their names without regard to case, as WireMock's")
    func headerOrder() throws {
        let request = CapturedRequest(url: URL(string: "http://localhost/")!, headers: [
            "X-T": "1", "x-lower": "2", "X-A": "3", "Cookie": "c=1", "Accept": "*/*", "Host": "localhost", "x-a": "4", "X_B": "5",
        ])
        let template = try HandlebarsTemplate("{{#each request.headers}}{{@key}}={{this.[0]}}{{this.[1]}};{{/each}}|{{request.headers.x-t}}",
                                              pathNames: [:], place: "test")
        #expect(template.render(request) == "Accept=*/*;Cookie=c=1;Host=localhost;X-A=34;x-lower=2;X-T=1;X_B=5;|1")
    }

    @Test("templated response headers read the request too")
    func headerTemplates() async throws {
        let server = try TemplateServer(["/h": "body"], headers: ["/h": ["X-Echo": "{{upper request.query.v}}", "X-Fixed": "plain"]])
        let reply = try await server.reply("/h?v=abc")
        #expect(reply.header("X-Echo") == "ABC")
        #expect(reply.header("X-Fixed") == "plain")
    }
}
