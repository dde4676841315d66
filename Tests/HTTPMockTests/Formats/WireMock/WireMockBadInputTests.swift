import Foundation
import Testing
@testable import HTTPMock

/// Bad WireMock folders: each is refused whole, with an error that names the file, the mapping and the key.
@Suite struct WireMockBadInputTests {
    /// A WireMock root in a temporary folder with these files (`mappings/…`, `__files/…`).
    static func folder(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wiremock-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    /// The message of the error loading one mapping file `mappings/bad.json` gives.
    private func message(_ mapping: String, files: [String: String] = [:]) throws -> String {
        let root = try Self.folder(files.merging(["mappings/bad.json": mapping]) { $1 })
        defer { try? FileManager.default.removeItem(at: root) }
        let mock = HTTPMock()
        do {
            try mock.loadWireMockMappings(from: root)
        } catch {
            #expect(mock.stubUsage.isEmpty)
            return error.message
        }
        Issue.record("loaded without an error")
        return ""
    }

    @Test func unknownField() throws {
        let text = try message(#"{"name": "bad", "request": {"urlPath": "/x", "headerz": {}}, "response": {"status": 200}}"#)
        #expect(text.hasPrefix(#"mappings/bad.json, mapping "bad" at request: unknown key "headerz" (did you mean "headers"?); the keys here are: method, url"#))
        let nested = try message(#"{"request": {"urlPath": "/x", "headers": {"Accept": {"equalsTo": "json"}}}}"#)
        #expect(nested.hasPrefix(#"mappings/bad.json at request.headers.Accept: unknown key "equalsTo" (did you mean "equalTo"?); the keys here are: equalTo"#))
        let cased = try message(#"{"request": {"urlpath": "/x"}}"#)
        #expect(cased.contains(#"unknown key "urlpath" (did you mean "urlPath"?)"#))
        let misspelt = try message(#"{"request": {"urlPath": "/x", "queryParamaters": {}}}"#)
        #expect(misspelt.contains(#"unknown key "queryParamaters" (did you mean "queryParameters"?)"#))
        let unlike = try message(#"{"request": {"urlPath": "/x", "colour": {}}}"#)
        #expect(!unlike.contains("did you mean"))
    }

    @Test func wrongTypes() throws {
        #expect(try message(#"{"request": {"urlPath": "/x"}, "response": {"status": "OK"}}"#)
            == #"mappings/bad.json at response.status: expected a whole number from 100 to 599, not a string ("OK")"#)
        #expect(try message(#"{"request": {"url": 7}}"#) == "mappings/bad.json at request.url: expected a string, not a number (7)")
        #expect(try message(#"{"request": {"urlPath": "/x", "headers": {"A": "b"}}}"#)
            == #"mappings/bad.json at request.headers.A: expected a value pattern such as {"equalTo": "…"}, not a string ("b")"#)
        #expect(try message(#"{"request": {"urlPath": "/x"}, "priority": 0}"#)
            == "mappings/bad.json at priority: expected a whole number from 1 to 1000000, not 0")
        #expect(try message(#"{"response": {"status": 200}}"#)
            == #"mappings/bad.json at the top level: the required key "request" is missing; add it"#)
    }

    @Test func bodyFileNameNeverLeavesFiles() throws {
        let climbing = try message(#"{"name": "up", "request": {"urlPath": "/x"}, "response": {"bodyFileName": "../secret.txt"}}"#,
                                   files: ["secret.txt": "secret", "__files/ok.txt": "ok"])
        #expect(climbing.contains(#"mappings/bad.json, mapping "up" at response.bodyFileName"#))
        #expect(climbing.contains(#""../secret.txt" leaves the folder"#))

        let outside = try Self.folder(["secret.txt": "secret"])
        defer { try? FileManager.default.removeItem(at: outside) }
        let root = try Self.folder(["mappings/bad.json": #"{"request": {"urlPath": "/x"}, "response": {"bodyFileName": "link.txt"}}"#])
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("__files"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("__files/link.txt"),
                                                   withDestinationURL: outside.appendingPathComponent("secret.txt"))
        let mock = HTTPMock()
        #expect { try mock.loadWireMockMappings(from: root) } throws: { error in
            let message = (error as? HTTPMockError)?.message ?? ""
            return message.contains("mappings/bad.json at response.bodyFileName") && message.contains(#""link.txt" leaves the folder"#)
                && message.contains("through a symbolic link")
        }
    }

    @Test("a bodyFileName not there loads, as in WireMock, which reads body files when it answers: 500 naming it, then the file once there")
    func missingBodyFileAnswers500() async throws {
        let root = try Self.folder(["mappings/m.json": #"{"request": {"urlPath": "/x"}, "response": {"bodyFileName": "later.json"}}"#,
                                    "__files/a.txt": "a"])
        defer { try? FileManager.default.removeItem(at: root) }
        let mock = HTTPMock()
        try mock.loadWireMockMappings(from: root)
        let missing = try await mock.urlSession.fetch("http://localhost/x")
        #expect(missing.status == 500)
        #expect(missing.text.contains(#""later.json" does not exist"#), "\(missing.text)")
        try Data("now".utf8).write(to: root.appendingPathComponent("__files/later.json"))
        #expect(try await mock.urlSession.fetch("http://localhost/x").text == "now")
    }

    @Test func badRegularExpressions() throws {
        #expect(try message(#"{"request": {"urlPattern": "/x(["}}"#)
            == #"mappings/bad.json at request.urlPattern: the regular expression "/x([" does not compile (check brackets, parentheses and escapes; write a literal dot as \.)"#)
        #expect(try message(#"{"request": {"urlPath": "/x", "queryParameters": {"q": {"matches": "a{2"}}}}"#).hasPrefix(
            #"mappings/bad.json at request.queryParameters.q.matches: the regular expression "a{2" does not compile"#))
    }

    @Test func malformedAndDuplicateKeys() throws {
        let duplicate = try message(#"{"request": {"urlPath": "/x"}, "response": {"status": 200, "status": 500}}"#)
        #expect(duplicate == #"mappings/bad.json at response: the key "status" appears twice in the same object (again at line 1, column 60); keep one of them"#)
        let malformed = try message("{\"request\": {\"urlPath\": \"/x\"},\n  \"response\": {\"status\": 200 \"body\": \"x\"}}")
        #expect(malformed.hasPrefix("mappings/bad.json line 2, column"))
    }

    @Test func unsupportedFieldsSayWhat() throws {
        #expect(try message(#"{"request": {"urlPath": "/x"}, "postServeActions": [{"name": "slack-notifier"}]}"#)
            .hasPrefix(#"mappings/bad.json at postServeActions[0]: "slack-notifier" is a WireMock extension, which does not run here"#))
        #expect(try message(#"{"request": {"urlPath": "/x"}, "requiredScenarioState": "Started"}"#)
            == #"mappings/bad.json at requiredScenarioState: "requiredScenarioState" needs a "scenarioName""#)
        #expect(try message(#"{"request": {"urlPath": "/x", "customMatcher": {"name": "mine"}}}"#)
            .hasPrefix(#"mappings/bad.json at request.customMatcher: "customMatcher" is not supported"#))
        let misspelt = try message(#"{"request": {"urlPath": "/x", "multipartPatterns": [{"bodyPaterns": []}]}}"#)
        #expect(misspelt.hasPrefix("mappings/bad.json at request.multipartPatterns[0]") && misspelt.contains("\"bodyPatterns\""))
        #expect(try message(#"{"request": {"urlPath": "/x", "headers": {"A": {"equalToJson": {}}}}}"#)
            == #"mappings/bad.json at request.headers.A: "equalToJson" applies to bodyPatterns only"#)
        #expect(try message(#"{"request": {"urlPath": "/x"}, "response": {"transformers": ["my-transformer"]}}"#)
            .hasPrefix(#"mappings/bad.json at response.transformers[0]: the transformer "my-transformer" is not supported"#))
        #expect(try message(#"{"request": {"urlPath": "/x", "customMatcher": {"name": "mine"}}}"#)
            .hasPrefix(#"mappings/bad.json at request.customMatcher: "customMatcher" is not supported: WireMock extensions"#))
        #expect(try message(#"{"request": {"urlPath": "/x"}, "response": {"fault": "SLOW"}}"#)
            .hasPrefix(#"mappings/bad.json at response.fault: "SLOW" is not a fault; use one of CONNECTION_RESET_BY_PEER"#))
    }

    @Test func templatesAndPathParameters() throws {
        #expect(try message(#"{"request": {"urlPath": "/x"}, "response": {"body": "{{frobnicate 1 '+' 2}}", "transformers": ["response-template"]}}"#)
            .hasPrefix(#"mappings/bad.json at response.body, line 1, column 3: "frobnicate" is not a helper this library knows (in {{frobnicate 1 '+' 2}}); use one of: if, unless, each"#))
        #expect(try message(#"{"request": {"urlPath": "/x", "pathParameters": {"id": {"equalTo": "1"}}}}"#)
            == #"mappings/bad.json at request.pathParameters: "pathParameters" needs a "urlPathTemplate""#)
        #expect(try message(#"{"request": {"urlPathTemplate": "/users/{id}", "pathParameters": {"name": {"equalTo": "1"}}}}"#)
            == #"mappings/bad.json at request.pathParameters.name: "name" is not a variable of the urlPathTemplate "/users/{id}"; its variables are: id"#)
    }

    @Test func oneBadFileRegistersNothing() throws {
        let root = try Self.folder([
            "mappings/a.json": #"{"request": {"urlPath": "/a"}, "response": {"body": "a"}}"#,
            "mappings/b.json": #"{"mappings": [{"request": {"urlPath": "/b"}}, {"name": "broken", "request": {"urlPath": 1}}]}"#,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let mock = HTTPMock()
        #expect { try mock.loadWireMockMappings(from: root) } throws: { error in
            (error as? HTTPMockError)?.message == #"mappings/b.json mappings[1], mapping "broken" at request.urlPath: expected a string, not a number (1)"#
        }
        #expect(mock.stubUsage.isEmpty)
        #expect { try mock.loadWireMockMappings(from: root.appendingPathComponent("nothing")) } throws: { error in
            (error as? HTTPMockError)?.message.hasPrefix("WireMock mappings: nothing at") == true
        }
    }
}
