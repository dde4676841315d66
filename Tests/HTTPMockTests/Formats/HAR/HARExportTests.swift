import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

@Suite struct HARExportTests {
    /// A mock that answered a JSON GET with a secret header, a binary POST, and a failure.
    private func exercisedMock() async throws -> HTTPMock {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/me", host: "api.example.com", responses: [
            .dictionary(["name": "Ann", "token": "s3cr3t"], headers: ["Set-Cookie": "sid=abc; Path=/"]),
        ])
        mock.addResponses(forPath: "/upload", host: "api.example.com", responses: [
            MockResponse(status: .created, body: Data([0xFF, 0x00, 0xD8]), contentType: "image/jpeg"),
        ])
        mock.addResponses(forPath: "/down", host: "api.example.com", responses: [.failure(URLError(.notConnectedToInternet))])
        var request = URLRequest(url: URL(string: "https://api.example.com/me?access_token=t0k&page=1")!)
        request.setValue("Bearer s3cr3t", forHTTPHeaderField: "Authorization")
        request.setValue("sid=abc", forHTTPHeaderField: "Cookie")
        _ = try await mock.urlSession.data(for: request)
        _ = try await mock.urlSession.fetch("https://api.example.com/upload", method: "POST", body: Data([1, 2, 250]))
        _ = try? await mock.urlSession.data(from: URL(string: "https://api.example.com/down")!)
        return mock
    }

    @Test func exportedHARHasEveryRequiredField() async throws {
        let mock = try await exercisedMock()
        let json = try #require(try JSONSerialization.jsonObject(with: mock.exportHAR().jsonData()) as? [String: Any])
        let log = try #require(json["log"] as? [String: Any])
        #expect(log["version"] as? String == "1.2")
        #expect((log["creator"] as? [String: Any])?["name"] as? String == "HTTPMock")
        let entries = try #require(log["entries"] as? [[String: Any]])
        #expect(entries.count == 3)
        for entry in entries {
            for key in ["startedDateTime", "time", "request", "response", "cache", "timings"] { #expect(entry[key] != nil, "entry.\(key)") }
            let request = try #require(entry["request"] as? [String: Any])
            for key in ["method", "url", "httpVersion", "headers", "queryString", "cookies", "headersSize", "bodySize"] {
                #expect(request[key] != nil, "request.\(key)")
            }
            let response = try #require(entry["response"] as? [String: Any])
            for key in ["status", "statusText", "httpVersion", "headers", "cookies", "content", "redirectURL", "headersSize", "bodySize"] {
                #expect(response[key] != nil, "response.\(key)")
            }
            let content = try #require(response["content"] as? [String: Any])
            #expect(content["size"] != nil && content["mimeType"] != nil)
            let timings = try #require(entry["timings"] as? [String: Any])
            #expect(timings["send"] != nil && timings["wait"] != nil && timings["receive"] != nil)
            let started = try #require(entry["startedDateTime"] as? String)
            #expect(started.hasSuffix("Z") && started.contains("."))
        }
    }

    @Test func secretsAreRedactedByDefault() async throws {
        let mock = try await exercisedMock()
        let har = mock.exportHAR()
        let text = String(decoding: har.jsonData(), as: UTF8.self)
        #expect(!text.contains("s3cr3t"))
        #expect(!text.contains("t0k"))
        #expect(!text.contains("sid=abc"))
        let me = har.log.entries[0]
        #expect(me.request.url == "https://api.example.com/me?access_token=REDACTED&page=1")
        #expect(me.request.queryString.contains(HAR.Pair(name: "page", value: "1")))
        #expect(me.request.cookies == [HAR.Pair(name: "sid", value: "REDACTED")])
        #expect(me.response.content.text?.contains("\"token\":\"REDACTED\"") == true)
        #expect(me.response.statusText == "OK")
        // Nothing redacted when asked for none.
        #expect(String(decoding: mock.exportHAR(redaction: .none).jsonData(), as: UTF8.self).contains("s3cr3t"))
    }

    @Test func binaryBodiesAreBase64AndFailuresHaveStatusZero() async throws {
        let mock = try await exercisedMock()
        let har = mock.exportHAR()
        let upload = har.log.entries[1]
        #expect(upload.request.postData?.encoding == "base64")
        #expect(upload.request.postData?.data == Data([1, 2, 250]))
        #expect(upload.response.content.encoding == "base64")
        #expect(upload.response.content.data == Data([0xFF, 0x00, 0xD8]))
        #expect(upload.response.content.mimeType == "image/jpeg")
        #expect(upload.response.status == 201)
        let down = har.log.entries[2]
        #expect(down.response.status == 0)
        #expect(down.response.error == "notConnectedToInternet")
    }

    @Test func anExportReplaysTheSameAnswers() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/n", host: "count.test", responses: [.plaintext("1"), .plaintext("2"), .plaintext("3")])
        for _ in 0..<3 { _ = try await mock.urlSession.fetch("https://count.test/n") }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("httpmock-\(UUID().uuidString)/n.har")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try mock.writeHAR(to: file)
        let replay = HTTPMock()
        try replay.loadHAR(at: file, options: HARReplayOptions(repeatsLast: false))
        var answers: [String] = []
        for _ in 0..<3 { answers.append(try await replay.urlSession.fetch("https://count.test/n").text) }
        #expect(answers == ["1", "2", "3"])
        #expect(try await replay.urlSession.fetch("https://count.test/n").status == 404)
    }
}
