import Foundation
import Testing
import HTTPMock

/// Query matching: the README's exact and contains samples, repeated keys, flags and percent-encoded values.
@Suite struct QueryMatchingTests {
    @Test func readmeExactAndContains() async throws {
        let mock = HTTPMock()
        mock.registerResponses {
            Host("api.example.com") {
                Path("/search", query: ["q": "swift", "page": "1"], matching: .exact) {
                    MockResponse.plaintext("ok-exact")
                }
                Path("/search", query: ["q": "swift"], matching: .contains) {
                    MockResponse.plaintext("ok-contains-1")
                    MockResponse.plaintext("ok-contains-2")
                }
            }
        }
        let session = mock.urlSession
        #expect(try await session.fetch("https://api.example.com/search?page=1&q=swift").text == "ok-exact")
        #expect(try await session.fetch("https://api.example.com/search?q=swift&sort=new").text == "ok-contains-1")
        #expect(try await session.fetch("https://api.example.com/search?q=swift").text == "ok-contains-2")
        // `exact` refuses extra parameters; `contains` is used up.
        #expect(try await session.fetch("https://api.example.com/search?q=swift&page=1&x=1").status == 404)
        #expect(try await session.fetch("https://api.example.com/search?q=kotlin").status == 404)
    }

    @Test func repeatedKeysAndFlagsMatch() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/list", host: "q.test", query: ["tag": ["a", "b"], "debug": .flag],
                          responses: [.plaintext("tagged")])
        #expect(try await mock.urlSession.fetch("https://q.test/list?tag=b&debug&tag=a").text == "tagged")
    }

    @Test func repeatedKeysDoNotMatchASingleValue() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/list", host: "q.test", query: ["tag": "a"], responses: [.plaintext("one")])
        #expect(try await mock.urlSession.fetch("https://q.test/list?tag=a&tag=b").status == 404)
        #expect(try await mock.urlSession.fetch("https://q.test/list?tag=a").text == "one")
    }

    @Test func flagDiffersFromEmptyValueAndAnyAcceptsBoth() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/f", host: "q.test", query: ["debug": .flag], responses: [.plaintext("flag")])
        mock.addResponses(forPath: "/f", host: "q.test", query: ["debug": .any],
                          responses: [.plaintext("any", lifetime: .eternal)])
        #expect(try await mock.urlSession.fetch("https://q.test/f?debug=").text == "any")
        #expect(try await mock.urlSession.fetch("https://q.test/f?debug").text == "flag")
        #expect(try await mock.urlSession.fetch("https://q.test/f?debug").text == "any")
    }

    @Test func percentEncodedValuesAreCompareDecoded() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/s", host: "q.test", query: ["q": "a b&c"], responses: [.plaintext("decoded")])
        #expect(try await mock.urlSession.fetch("https://q.test/s?q=a%20b%26c").text == "decoded")
    }

    @Test func aPlainStringDictionaryIsAccepted() async throws {
        let mock = HTTPMock()
        let query: [String: String] = ["id": "7"]
        mock.registerResponses { Host("q.test") { Path("/p", query: query) { MockResponse.plaintext("seven") } } }
        #expect(try await mock.urlSession.fetch("https://q.test/p?id=7").text == "seven")
    }
}
