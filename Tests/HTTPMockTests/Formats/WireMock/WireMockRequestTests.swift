import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

/// The request side of WireMock mapping files (Fixtures/WireMock/api), field by field, through a real URLSession.
@Suite struct WireMockRequestTests {
    static let root = fixtures.appendingPathComponent("WireMock/api")

    static func loaded() throws -> HTTPMock {
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: root)
        return mock
    }

    @Test func urlMatchesPathAndQueryExactly() async throws {
        let mock = try Self.loaded()
        let session = mock.urlSession
        #expect(try await session.fetch("http://localhost/some/thing?colour=red").text == "exact")
        #expect(try await session.fetch("http://localhost/some/thing").status == 404)
        #expect(try await session.fetch("http://localhost/some/thing?colour=red&size=2").status == 404)
    }

    @Test func urlPathIgnoresTheQuery() async throws {
        let mock = try Self.loaded()
        let session = mock.urlSession
        #expect(try await session.fetch("http://localhost/orders").text == "orders")
        #expect(try await session.fetch("http://localhost/orders?page=2").text == "orders")
        #expect(try await session.fetch("http://localhost/orders/1").status == 404)
    }

    @Test func urlPatternMatchesTheWholePathAndQuery() async throws {
        let mock = try Self.loaded()
        let session = mock.urlSession
        #expect(try await session.fetch("http://localhost/reports/12?format=csv").text == "report")
        #expect(try await session.fetch("http://localhost/reports/12?format=xml").status == 404)
        // Anchored at both ends, as WireMock's regular expressions are.
        #expect(try await session.fetch("http://localhost/v1/reports/12?format=csv").status == 404)
        #expect(try await session.fetch("http://localhost/reports/12?format=csv&x=1").status == 404)
    }

    @Test func urlPathPatternMatchesThePathAlone() async throws {
        let mock = try Self.loaded()
        let session = mock.urlSession
        #expect(try await session.fetch("http://localhost/files/notes.txt?download=1").text == "file")
        #expect(try await session.fetch("http://localhost/files/Notes.txt").status == 404)
    }

    @Test func urlPathTemplateWithPathParameters() async throws {
        let mock = try Self.loaded()
        let session = mock.urlSession
        #expect(try await session.fetch("http://localhost/contacts/12345/addresses/99").text == "address 99 of 12345")
        #expect(try await session.fetch("http://localhost/contacts/777/addresses/99").status == 404)
        #expect(try await session.fetch("http://localhost/contacts/12345/addresses/home").status == 404)
    }

    @Test func methodAnyMatchesEveryMethod() async throws {
        let mock = try Self.loaded()
        let session = mock.urlSession
        for method in ["GET", "POST", "DELETE", "PATCH"] {
            #expect(try await session.fetch("http://localhost/anything", method: method).status == 202)
        }
        #expect(try await session.fetch("http://localhost/orders", method: "POST").status == 404)
    }

    @Test func headerPatterns() async throws {
        let mock = try Self.loaded()
        let session = mock.urlSession
        let good = ["Accept": "application/json", "X-Version": "v2", "X-Tenant": "acme", "User-Agent": "MyApp/1.0", "X-Trace": "abc"]
        #expect(try await session.fetch("http://localhost/headers", headers: good).text == "headers matched")
        var bad = good
        bad["X-Debug"] = "1"                                            // absent: true
        #expect(try await session.fetch("http://localhost/headers", headers: bad).status == 404)
        for (name, value) in [("Accept", "text/plain"), ("X-Version", "v2beta"), ("X-Tenant", "acme corp"),
                              ("User-Agent", "googlebot"), ("X-Trace", "my-secret")] {
            var changed = good
            changed[name] = value
            #expect(try await session.fetch("http://localhost/headers", headers: changed).status == 404, "\(name): \(value)")
        }
        // A missing header meets doesNotContain, as WireMock 2.35.1 answered.
        var missing = good
        missing["X-Trace"] = nil
        #expect(try await session.fetch("http://localhost/headers", headers: missing).text == "headers matched")
    }

    @Test func queryParameterPatterns() async throws {
        let mock = try Self.loaded()
        let session = mock.urlSession
        #expect(try await session.fetch("http://localhost/search?q=swift&page=2&tag=b&lang=en").text == "search matched")
        #expect(try await session.fetch("http://localhost/search?q=swift&page=2&tag=a&lang=en&extra=1").text == "search matched")
        for query in ["q=swift&page=x&tag=a&lang=en", "q=swift&page=2&tag=c&lang=en", "q=swift&page=2&tag=a&lang=de",
                      "q=swift&page=2&tag=a&lang=en&sort=asc", "q=kotlin&page=2&tag=a&lang=en", "page=2&tag=a&lang=en"] {
            #expect(try await session.fetch("http://localhost/search?\(query)").status == 404, "\(query)")
        }
    }

    @Test func cookiePatterns() async throws {
        let mock = try Self.loaded()
        let session = mock.urlSession
        #expect(try await session.fetch("http://localhost/account", headers: ["Cookie": "theme=dark; session=0badc0de"]).text == "cookies matched")
        #expect(try await session.fetch("http://localhost/account", headers: ["Cookie": "theme=light; session=0badc0de"]).status == 404)
        #expect(try await session.fetch("http://localhost/account", headers: ["Cookie": "theme=dark; session=nope"]).status == 404)
        #expect(try await session.fetch("http://localhost/account", headers: ["Cookie": "theme=dark"]).status == 404)
    }

    @Test func basicAuthCredentials() async throws {
        let mock = try Self.loaded()
        let session = mock.urlSession
        let token = Data("ann:s3cret".utf8).base64EncodedString()
        #expect(try await session.fetch("http://localhost/secure", headers: ["Authorization": "Basic \(token)"]).text == "authorised")
        let wrong = Data("ann:guess".utf8).base64EncodedString()
        #expect(try await session.fetch("http://localhost/secure", headers: ["Authorization": "Basic \(wrong)"]).status == 404)
        #expect(try await session.fetch("http://localhost/secure").status == 404)
    }

    @Test func equalToJsonWithAndWithoutLeniency() async throws {
        let mock = try Self.loaded()
        let session = mock.urlSession
        let lenient = Data(#"{"total": 2, "items": ["b", "a"], "note": "extra"}"#.utf8)
        #expect(try await session.fetch("http://localhost/orders", method: "POST", body: lenient).text == "order created")
        let missing = Data(#"{"total": 2, "items": ["a"]}"#.utf8)
        #expect(try await session.fetch("http://localhost/orders", method: "POST", body: missing).status == 404)
        #expect(try await session.fetch("http://localhost/orders/1", method: "PUT", body: Data(#"{"status":"paid"}"#.utf8)).text == "order paid")
        let extra = Data(#"{"status": "paid", "by": "card"}"#.utf8)
        #expect(try await session.fetch("http://localhost/orders/1", method: "PUT", body: extra).status == 404)
    }

    @Test func matchesJsonPathForms() async throws {
        let mock = try Self.loaded()
        let session = mock.urlSession
        let person = #"{"name": "Ann", "age": 42, "pets": [{"kind": "dog"}, {"kind": "cat"}], "address": {"city": "Oslo"}}"#
        #expect(try await session.fetch("http://localhost/people", method: "POST", body: Data(person.utf8)).text == "person created")
        for changed in [person.replacingOccurrences(of: #""name": "Ann", "#, with: ""),
                        person.replacingOccurrences(of: "cat", with: "fish"),
                        person.replacingOccurrences(of: "42", with: "142"),
                        person.replacingOccurrences(of: "Oslo", with: "Bergen"),
                        person.replacingOccurrences(of: #""name": "Ann""#, with: #""name": null"#)] {
            #expect(try await session.fetch("http://localhost/people", method: "POST", body: Data(changed.utf8)).status == 404, "\(changed)")
        }
    }

    @Test func textBodyPatterns() async throws {
        let mock = try Self.loaded()
        let session = mock.urlSession
        #expect(try await session.fetch("http://localhost/notes", method: "POST", body: Data("remember the milk".utf8)).text == "note created")
        for text in ["remember to forget", "remember 2 things", "Remember the milk", "buy milk"] {
            #expect(try await session.fetch("http://localhost/notes", method: "POST", body: Data(text.utf8)).status == 404, "\(text)")
        }
        #expect(try await session.fetch("http://localhost/echo", method: "POST", body: Data("ping".utf8)).text == "pong")
        #expect(try await session.fetch("http://localhost/echo", method: "POST", body: Data("ping!".utf8)).status == 404)
        #expect(try await session.fetch("http://localhost/empty", method: "POST").status == 204)
        #expect(try await session.fetch("http://localhost/empty", method: "POST", body: Data("x".utf8)).status == 404)
        #expect(try await session.fetch("http://localhost/binary", method: "POST", body: Data([1, 2, 3])).text == "bytes matched")
        #expect(try await session.fetch("http://localhost/binary", method: "POST", body: Data([1, 2])).status == 404)
    }

    @Test func lowerPriorityNumberWinsOverSpecificity() async throws {
        let mock = try Self.loaded()
        let session = mock.urlSession
        #expect(try await session.fetch("http://localhost/catalog/42").text == "product 42")
        #expect(try await session.fetch("http://localhost/catalog/7").status == 404)
        #expect(try await session.fetch("http://localhost/catalog/maintenance-window").status == 503)
        // Priority 1 beats priority 2, though the priority-2 path is exact and the other a regular expression.
        #expect(try await session.fetch("http://localhost/stock/1").text == "broad")
    }

    @Test func defaultPriorityCompetesWithStubsInCodeBySpecificity() async throws {
        let mock = try Self.loaded()
        // A stub in code ranks like priority 5: the exact WireMock path still beats this broader one…
        try mock.stub(.path("/catalog/*"), responses: [.plaintext("from code", lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch("http://localhost/catalog/42").text == "product 42")
        // …and it beats the priority-10 catch-all.
        #expect(try await mock.urlSession.fetch("http://localhost/catalog/7").text == "from code")
    }

    @Test func aSingleMappingFileAndTheMappingsFolderLoadToo() async throws {
        let single = HTTPMock()
        try single.loadWireMockMappings(from: Self.root.appendingPathComponent("mappings/single.json"))
        #expect(try await single.urlSession.fetch("http://localhost/single").text == "one mapping in the file")
        #expect(single.stubUsage.count == 1)
        let folder = HTTPMock()
        let loaded = try folder.loadWireMockMappings(from: Self.root.appendingPathComponent("mappings"))
        #expect(try await folder.urlSession.fetch("http://localhost/users/7/file").text == #"{"id": 7, "name": "Ann"}"# + "\n")
        loaded.remove()
        #expect(folder.stubUsage.isEmpty)
    }
}
