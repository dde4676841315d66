import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock
import Testing

/// The secrets audit, on fixtures seeded with each kind of secret and on clean ones. The secrets are made up and
/// assembled at run time, so this source file holds none that a scanner would flag.
@Suite struct SecretAuditTests {
    // Made-up values in the documented formats.
    static let jwt = "eyJ" + "hbGciOiJIUzI1NiJ9" + ".eyJ" + "zdWIiOiJhbGljZSJ9" + "." + "c2lnbmF0dXJlLXBhcnQ"
    static let github = "gh" + "p_" + String(repeating: "Ab3", count: 12)
    static let aws = "AK" + "IA" + "Z3Q7HTPMOCK1TEST"
    static let stripe = "sk" + "_live_" + String(repeating: "9fK", count: 8)
    static let slack = "xo" + "xb-" + "1234567890-abcdefghij"
    static let google = "AI" + "za" + String(repeating: "Qx7_", count: 8) + "abc"
    static let openAI = "sk" + "-proj-" + String(repeating: "T4kq", count: 10)
    static let anthropic = "sk" + "-ant-" + "api03-" + String(repeating: "Zz9", count: 10)
    static let pem = "-----BEGIN " + "RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n-----END RSA PRIVATE KEY-----\n"

    private func folder(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("httpmock-audit-\(UUID().uuidString)")
        for (path, text) in files {
            let file = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        return root
    }

    static func string(_ value: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .withoutEscapingSlashes]), as: UTF8.self)
    }

    /// A HAR with a secret in each place a recording can hold one.
    static var leakyHAR: String {
        let body = #"{"user":"alice","access_token":"at-5f2b9c1e7d","id_token":"\#(jwt)"}"#
        return """
        {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [
          {"startedDateTime": "2026-01-01T00:00:00Z", "time": 1,
           "request": {"method": "POST", "url": "https://api.example.test/login?api_key=k-77aa88bb&lang=fr", "httpVersion": "HTTP/1.1",
             "headers": [{"name": "Authorization", "value": "Bearer live-9d8c7b6a5f"}, {"name": "Cookie", "value": "sid=c00k1e-value"}],
             "queryString": [{"name": "api_key", "value": "k-77aa88bb"}, {"name": "lang", "value": "fr"}],
             "cookies": [], "headersSize": -1, "bodySize": 30,
             "postData": {"mimeType": "application/x-www-form-urlencoded", "text": "user=alice&password=hunter2hunter"}},
           "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
             "headers": [{"name": "Set-Cookie", "value": "session=s3ss10n-abc; Path=/; HttpOnly"}],
             "cookies": [], "content": {"size": 1, "mimeType": "application/json", "text": \(string(body))},
             "redirectURL": "", "headersSize": -1, "bodySize": 1},
           "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}},
          {"startedDateTime": "2026-01-01T00:00:01Z", "time": 1,
           "request": {"method": "GET", "url": "https://api.example.test/me", "httpVersion": "HTTP/1.1", "headers": [],
             "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
           "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "headers": [], "cookies": [],
             "content": {"size": 1, "mimeType": "text/plain", "encoding": "base64", "text": "\(Data("token \(github)".utf8).base64EncodedString())"},
             "redirectURL": "", "headersSize": -1, "bodySize": 1},
           "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}
        ]}}
        """
    }

    @Test func eachKindOfSecretIsFoundWithItsFileLineAndPlace() throws {
        let root = try folder([
            "cassettes/login.har": Self.leakyHAR,
            "wiremock/mappings/keys.json": """
            {"request": {"method": "GET", "url": "/keys", "headers": {"Authorization": {"equalTo": "Basic YWxpY2U6c2VjcmV0"}}},
             "response": {"status": 200, "body": "aws=\(Self.aws) stripe=\(Self.stripe)", "headers": {"X-Api-Key": "k-1234abcd"}}}
            """,
            "wiremock/__files/server.pem": Self.pem,
            "mocks/chat.mock.json": """
            {"mocks": [{"request": {"path": "/chat"}, "responses": [{"status": 200, "text": "\(Self.openAI) \(Self.anthropic)"}]}]}
            """,
            "bundle/bundle.json": """
            [{"url": "https://hooks.example.test/post", "method": "POST", "status": 200, "body": "\(Self.slack) \(Self.google)"}]
            """,
        ])
        let report = SecretAudit().scan([root])
        #expect(report.problems.isEmpty)
        #expect(report.filesScanned == 5)
        func found(_ kind: SecretKind, in file: String, at place: String) -> SecretFinding? {
            report.findings.first { $0.kind == kind && $0.file.path.hasSuffix(file) && $0.location.contains(place) }
        }
        let har = "cassettes/login.har"
        let authorization = try #require(found(.authorizationHeader, in: har, at: "log.entries[0].request.headers[0] (Authorization)"))
        #expect(authorization.line == 4)
        #expect(authorization.excerpt == "Bear…")
        #expect(!authorization.description.contains("live-9d8c7b6a5f"))
        #expect(found(.cookie, in: har, at: "log.entries[0].request.headers[1] (Cookie)") != nil)
        #expect(found(.cookie, in: har, at: "log.entries[0].response.headers[0] (Set-Cookie)")?.excerpt == "s3ss…")
        #expect(found(.secretParameter, in: har, at: "log.entries[0].request.url (api_key)") != nil)
        #expect(found(.secretParameter, in: har, at: "log.entries[0].request.queryString[0] (api_key)") != nil)
        #expect(found(.secretParameter, in: har, at: "log.entries[0].request.postData.text (password)") != nil)
        #expect(found(.secretField, in: har, at: "log.entries[0].response.content.text (body).access_token") != nil)
        #expect(found(.secretField, in: har, at: "log.entries[0].response.content.text (body).id_token") != nil)
        #expect(found(.providerKey("GitHub"), in: har, at: "log.entries[1].response.content.text (base64)") != nil)
        let keys = "wiremock/mappings/keys.json"
        #expect(found(.authorizationHeader, in: keys, at: "request.headers.Authorization") != nil)
        #expect(found(.apiKeyHeader, in: keys, at: "response.headers.X-Api-Key") != nil)
        #expect(found(.providerKey("AWS access key"), in: keys, at: "response.body") != nil)
        #expect(found(.providerKey("Stripe"), in: keys, at: "response.body") != nil)
        #expect(found(.privateKey, in: "server.pem", at: "line 1")?.line == 1)
        #expect(found(.providerKey("OpenAI"), in: "chat.mock.json", at: "mocks[0].responses[0].text") != nil)
        #expect(found(.providerKey("Anthropic"), in: "chat.mock.json", at: "mocks[0].responses[0].text") != nil)
        #expect(found(.providerKey("Slack"), in: "bundle.json", at: "[0].body") != nil)
        #expect(found(.providerKey("Google API"), in: "bundle.json", at: "[0].body") != nil)
        // The JWT inside the body is named once, as the field it is in, not again as a token.
        #expect(report.findings.filter { $0.excerpt == "eyJh…" }.count == 1)
    }

    @Test func aBearerTokenAndAJWTAnywhereInText() throws {
        let root = try folder(["notes.txt": "curl -H 'X: Bearer abcdef0123456789' https://x.test\nid \(Self.jwt)\n"])
        let report = SecretAudit().scan([root])
        #expect(report.findings.map(\.kind) == [.bearerToken, .jsonWebToken])
        #expect(report.findings.map(\.line) == [1, 2])
    }

    @Test func placeholdersTemplatesAndPatternsAreNoSecrets() throws {
        let root = try folder([
            "clean.har": """
            {"log": {"version": "1.2", "creator": {"name": "HTTPMock", "version": "0.3.0"}, "entries": [
              {"startedDateTime": "2026-01-01T00:00:00Z", "time": 1,
               "request": {"method": "GET", "url": "https://api.example.test/me?token=REDACTED&page=2", "httpVersion": "HTTP/1.1",
                 "headers": [{"name": "Authorization", "value": "REDACTED"}, {"name": "Cookie", "value": "REDACTED"}],
                 "queryString": [{"name": "token", "value": "REDACTED"}], "cookies": [], "headersSize": -1, "bodySize": 0},
               "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "headers": [], "cookies": [],
                 "content": {"size": 1, "mimeType": "application/json", "text": "{\\"password\\":\\"REDACTED\\",\\"token\\":\\"<FILTERED>\\"}"},
                 "redirectURL": "", "headersSize": -1, "bodySize": 1},
               "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}]}}
            """,
            "wiremock/mappings/patterns.json": """
            {"request": {"urlPath": "/me", "headers": {"Authorization": {"matches": "Bearer .*"}, "Cookie": {"absent": true}}},
             "response": {"status": 200, "body": "{{request.headers.Authorization}}", "headers": {"X-Api-Key": "***"},
               "transformers": ["response-template"]}}
            """,
            "wiremock/mappings/bearer-only.json": """
            {"request": {"urlPath": "/login", "headers": {"Authorization": {"equalTo": "Bearer REDACTED"}}},
             "response": {"status": 204}}
            """,
        ])
        let report = SecretAudit().scan([root])
        #expect(report.findings.isEmpty, "\(report)")
        #expect(report.filesScanned == 3)
    }

    @Test func theProjectsOwnExamplesAndCassettesAreClean() {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let report = SecretAudit().scan([
            root.appendingPathComponent("Examples"),
            root.appendingPathComponent("Tests/HTTPMockTestingTests/Cassettes/Cassettes"),
            root.appendingPathComponent("Tests/HTTPMockTests/Fixtures/HAR"),
            root.appendingPathComponent("Tests/HTTPMockTests/Fixtures/Mockingbird"),
        ])
        #expect(report.filesScanned > 10)
        #expect(report.findings.isEmpty, "\(report)")
        #expect(report.problems.isEmpty, "\(report.problems)")
    }

    @Test func redactingInPlaceChangesOnlyTheSecretsAndTheRecordingStillReplays() async throws {
        let root = try folder(["login.har": Self.leakyHAR])
        let file = root.appendingPathComponent("login.har")
        let audit = SecretAudit()
        let left = audit.redact(audit.scan([root]))
        // Only the token inside the base64 body is left, to record again.
        #expect(left.findings.map(\.kind) == [.providerKey("GitHub")])
        let text = try String(contentsOf: file, encoding: .utf8)
        for secret in ["live-9d8c7b6a5f", "c00k1e-value", "k-77aa88bb", "hunter2hunter", "s3ss10n-abc", "at-5f2b9c1e7d", Self.jwt] {
            #expect(!text.contains(secret), "\(secret)")
        }
        #expect(text.contains(#""value": "Bearer REDACTED""#) || text.contains(#""value": "REDACTED""#))
        #expect(text.contains("password=REDACTED"))
        #expect(text.contains("&lang=fr"))
        #expect(text.contains(#"\"user\":\"alice\""#))
        #expect(text.components(separatedBy: "startedDateTime").count == 3)
        // Still a HAR that replays, now matching any key.
        let mock = HTTPMock()
        try mock.loadHAR(at: file, options: HARReplayOptions(matchesBody: false))
        var request = URLRequest(url: URL(string: "https://api.example.test/login?api_key=another&lang=fr")!)
        request.httpMethod = "POST"
        let (data, _) = try await mock.urlSession.data(for: request)
        #expect(String(decoding: data, as: UTF8.self).contains(#""access_token":"REDACTED""#))
    }

    @Test func pathsThatCannotBeAuditedAreNamed() throws {
        let root = try folder(["a.json": "{}"])
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("link").path, withDestinationPath: "/etc")
        let report = SecretAudit().scan([root, root.appendingPathComponent("missing")])
        #expect(report.problems.contains { $0.hasSuffix("link: a symbolic link, not followed; audit what it leads to by its own path") })
        #expect(report.problems.contains { $0.hasSuffix("missing: no such file or folder") })
        #expect(report.filesScanned == 1)
    }
}
