import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

/// The response side of WireMock mapping files (Fixtures/WireMock/api), through a real URLSession.
@Suite struct WireMockResponseTests {
    @Test func statusHeadersAndJSONBody() async throws {
        let mock = try WireMockRequestTests.loaded()
        let session = mock.urlSession
        let reply = try await session.fetch("http://localhost/users/7")
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type") == "application/json")
        #expect(reply.header("Cache-Control") == "no-cache, no-store")
        #expect(reply.text == #"{"id":7,"roles":["admin"]}"#)
        #expect(try await session.fetch("http://localhost/users/7", method: "DELETE").status == 404)
    }

    @Test("statusMessage becomes the response's reason phrase; one with a line break is refused naming the key")
    func statusMessage() throws {
        #expect(try served("/users/7").reasonPhrase == "Fine")
        #expect(try served("/logo").reasonPhrase == nil)
        let root = try WireMockBadInputTests.folder(["mappings/bad.json": #"{"request": {"urlPath": "/x"}, "response": {"status": 200, "statusMessage": "OK\r\nSet-Cookie: a=b"}}"#])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect { try HTTPMock().loadWireMockMappings(from: root) } throws: { error in
            "\(error)".contains("mappings/bad.json at response.statusMessage: holds a line break")
        }
        let mock = HTTPMock()
        var response = MockResponse.plaintext("hi")
        response.reasonPhrase = "Fine\n"
        #expect { try mock.stub(.path("/x"), responses: [response]) } throws: { error in
            "\(error)".contains("the reason phrase \"Fine\\n\" holds a line break")
        }
    }

    @Test func base64AndFileBodies() async throws {
        let mock = try WireMockRequestTests.loaded()
        let session = mock.urlSession
        #expect(try await session.fetch("http://localhost/logo").text == "Hello")
        let file = try await session.fetch("http://localhost/users/7/file")
        #expect(file.text == #"{"id": 7, "name": "Ann"}"# + "\n")
        #expect(file.header("Content-Type") == "application/json")
        // A body file with the response-template transformer is a template.
        #expect(try await session.fetch("http://localhost/greeting?name=Ann").text == "Hello Ann!\n")
    }

    @Test func templatesReadTheRequest() async throws {
        let mock = try WireMockRequestTests.loaded()
        let session = mock.urlSession
        let body = Data(#"{"user": {"name": "Ann"}}"#.utf8)
        let reply = try await session.fetch("http://localhost/echo/users/x?q=swift", method: "POST",
                                            headers: ["X-Client": "a&b"], body: body)
        // {{…}} prints as it is, as WireMock 3 does ("&", "=" …), and so does {{{…}}}.
        #expect(reply.text == #"echo|users|swift|a&b|/echo/users/x?q=swift|Ann|{"user": {"name": "Ann"}}"#)
        #expect(reply.header("X-Path") == "/echo/users/x")
        // Without the transformer (and without global templating), braces are text.
        #expect(try await session.fetch("http://localhost/literal").text == "{{request.path}}")
    }

    @Test func globalTemplatingRendersEveryResponse() async throws {
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: WireMockRequestTests.root, globalTemplating: true)
        #expect(try await mock.urlSession.fetch("http://localhost/literal").text == "/literal")
    }

    @Test func generatedValues() async throws {
        let mock = try WireMockRequestTests.loaded()
        let session = mock.urlSession
        let reply = try await session.fetch("http://localhost/generated")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(reply.text.utf8)) as? [String: String])
        let token = try #require(json["token"])
        #expect(token.count == 12 && token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
        #expect(UUID(uuidString: try #require(json["id"])) != nil)
        #expect(ISO8601DateFormatter().date(from: try #require(json["at"])) != nil)
        #expect(try #require(json["day"]).wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}/) != nil)
        let again = try await session.fetch("http://localhost/generated")
        #expect(again.text != reply.text)
    }

    /// The response a request gets, as the engine hands it to the session (with its delivery).
    private func served(_ path: String) throws -> MockResponse {
        let mock = try WireMockRequestTests.loaded()
        guard case .respond(let response) = mock.core.engine.decide(CapturedRequest(url: URL(string: "http://localhost\(path)")!)).decision else {
            Issue.record("no response for \(path)")
            throw CancellationError()
        }
        return response
    }

    @Test("a header given several values: one field joined with \", \" in process, each value a line of its own over HTTP; Content-Type the last value, as WireMock sends it")
    func headerValues() throws {
        let root = try WireMockBadInputTests.folder(["mappings/values.json": #"""
            {"mappings": [
              {"request": {"url": "/values"}, "response": {"body": "x", "headers": {
                "X-A": ["1", "2"], "X-B": ["a, b", "c"], "X-One": ["only"], "Set-Cookie": "a=1, b=2",
                "Content-Type": ["text/plain", "application/json"]}}},
              {"request": {"url": "/templated"}, "response": {"body": "x", "transformers": ["response-template"],
                "headers": {"X-T": ["{{request.path}}", "b"]}}}
            ]}
            """#])
        defer { try? FileManager.default.removeItem(at: root) }
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: root)
        func served(_ path: String) throws -> MockResponse {
            guard case .respond(let response) = mock.core.engine.decide(CapturedRequest(url: URL(string: "http://localhost\(path)")!)).decision else {
                Issue.record("no response for \(path)")
                throw CancellationError()
            }
            return response
        }
        let values = try served("/values")
        #expect(values.headers["X-A"] == "1, 2")
        #expect(values.headers["X-B"] == "a, b, c")
        #expect(values.headers["Content-Type"] == "application/json")
        #expect(values.headerLines["X-A"] == ["1", "2"])
        #expect(values.headerLines["X-B"] == ["a, b", "c"])
        #expect(values.headerLines["X-One"] == ["only"])
        // A Set-Cookie written as one text is one line, as WireMock sends it.
        #expect(values.headerLines["Set-Cookie"] == ["a=1, b=2"])
        #expect(values.headerLines["Content-Type"] == nil)
        let templated = try served("/templated")
        #expect(templated.headers["X-T"] == "/templated, b")
        #expect(templated.headerLines["X-T"] == ["/templated", "b"])
    }

    @Test func delays() throws {
        #expect(try served("/slow").delivery == .delayed(0.05))
        // A uniform random delay is drawn for each request, within its bounds.
        for _ in 0..<20 {
            guard case .delayed(let seconds) = try served("/random-slow").delivery else { Issue.record("not delayed"); return }
            #expect((0.01...0.03).contains(seconds))
        }
        // Six bytes in three chunks over 60 ms: two bytes at once, then two every 20 ms, as WireMock sends them.
        let dribbled = try served("/dribble")
        guard case .stream(let source) = dribbled.content, case .script(let parts, nil) = source.kind else {
            Issue.record("chunkedDribbleDelay should stream its chunks, got \(dribbled.content)")
            return
        }
        #expect(parts.map { String(decoding: $0.data, as: UTF8.self) } == ["sl", "ow", "ly"])
        #expect(parts.map(\.delay) == [0, 0.02, 0.02])
    }

    @Test func lognormalDelaysStayUnderTheirMaximum() {
        for _ in 0..<200 {
            let sample = WireMockResponse.sample(.lognormal(median: 90, sigma: 0.4, maximum: 300))
            #expect(sample > 0 && sample <= 300)
        }
    }

    @Test func faults() async throws {
        let mock = try WireMockRequestTests.loaded()
        let session = mock.urlSession
        #expect((await session.failure("http://localhost/fault/reset") as? URLError)?.code == .networkConnectionLost)
        #expect((await session.failure("http://localhost/fault/empty") as? URLError)?.code == .networkConnectionLost)
        #expect((await session.failure("http://localhost/fault/malformed") as? URLError)?.code == .networkConnectionLost)
        #expect((await session.failure("http://localhost/fault/garbage") as? URLError)?.code == .cannotParseResponse)
    }
}
