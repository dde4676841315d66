import Foundation
import HTTPMock
import HTTPMockServer
import Testing

/// `httpmock convert`, then `httpmock serve` on what it wrote: the same answers as the source served as it is.
@Suite("httpmock convert writes mapping files, HAR files and Mockingbird bundles as a WireMock folder that answers the same",
       .disabled(if: runsUnderAddressSanitizer, "launches processes"))
struct ConvertCommandTests {
    static let har = """
        {"log": {"version": "1.2", "creator": {"name": "a browser", "version": "1"}, "entries": [
          {"startedDateTime": "2026-01-01T00:00:00Z", "time": 1,
           "request": {"method": "GET", "url": "https://api.example.com/jobs/7", "httpVersion": "HTTP/1.1", "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
           "response": {"status": 202, "statusText": "Accepted", "httpVersion": "HTTP/1.1", "headers": [], "cookies": [],
             "content": {"size": 6, "mimeType": "text/plain", "text": "queued"}, "redirectURL": "", "headersSize": -1, "bodySize": 6},
           "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}},
          {"startedDateTime": "2026-01-01T00:00:01Z", "time": 1,
           "request": {"method": "GET", "url": "https://api.example.com/jobs/7", "httpVersion": "HTTP/1.1", "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
           "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "headers": [], "cookies": [],
             "content": {"size": 4, "mimeType": "text/plain", "text": "done"}, "redirectURL": "", "headersSize": -1, "bodySize": 4},
           "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}
        ]}}
        """

    @Test("a HAR, a Mockingbird bundle and mapping files into one folder; httpmock serve answers as the sources do")
    func convertsAndServes() async throws {
        let sources = try temporaryFolder([
            "poll.har": Self.har,
            "bundle/bundle.json": #"[{"request": {"url": "://api.example.com/ip"}, "response": {"code": 200, "file": "ip.json", "mime_type": "application/json"}}]"#,
            "bundle/ip.json": #"{"origin": "127.0.0.1"}"#,
            "mocks/users.mock.json": #"""
                {"mocks": [
                  {"request": {"method": "GET", "path": "/users/{id}"}, "response": {"json": {"id": "{{path.id}}"}, "template": true}},
                  {"request": {"path": "/users/**"}, "response": {"status": 404, "text": "no such user"}},
                  {"request": {"path": "/health"}, "responses": [{"failure": "timedOut"}, {"text": "ok"}]}
                ]}
                """#,
        ])
        let output = sources.appendingPathComponent("wiremock")
        let run = try await ChildProcess.runToEnd("httpmock", arguments: [
            "convert", sources.appendingPathComponent("poll.har").path, sources.appendingPathComponent("bundle").path,
            sources.appendingPathComponent("mocks").path, "--to", output.path,
        ])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors.contains("wrote 7 mapping(s) and 1 body file(s)"))
        // What WireMock cannot say is printed, naming the mock.
        #expect(run.errors.contains("note: users.mock.json at mocks[2]: its failure \"timedOut\" has no WireMock equivalent"))
        let served = HTTPMock()
        try served.loadWireMockMappings(from: output)
        try await HTTPMockServer.withServer(serving: served) { server in
            let first = try await call("GET", server.baseURL.adding("/jobs/7"))
            #expect(first.status == 202)
            #expect(first.text == "queued")
            #expect(try await call("GET", server.baseURL.adding("/jobs/7")).text == "done")
            #expect(try await call("GET", server.baseURL.adding("/jobs/7")).text == "done")
            let ip = try await call("GET", server.baseURL.adding("/ip"))
            #expect(ip.text == #"{"origin": "127.0.0.1"}"#)
            #expect(ip.headers["content-type"] == "application/json")
            // The mapping file's mocks in HTTPMock's order (the most specific first), its template and its answers in turn.
            #expect(try await call("GET", server.baseURL.adding("/users/7")).text == #"{"id":"7"}"#)
            #expect(try await call("GET", server.baseURL.adding("/users/7/posts")).status == 404)
            await #expect(throws: (any Error).self) { try await call("GET", server.baseURL.adding("/health")) }
            #expect(try await call("GET", server.baseURL.adding("/health")).text == "ok")
        }
    }

    @Test("a source that cannot be read writes nothing, and every problem is printed")
    func badSourcesWriteNothing() async throws {
        let sources = try temporaryFolder([
            "good.har": Self.har,
            "broken/bundle.json": #"[{"request": {"url": "no-scheme"}, "response": {"code": 200}}]"#,
            "mocks/a.mock.json": #"{"mocks": [{"request": {"path": "/a"}}]}"#,
        ])
        let output = sources.appendingPathComponent("out")
        let run = try await ChildProcess.runToEnd("httpmock", arguments: [
            "convert", sources.appendingPathComponent("good.har").path, sources.appendingPathComponent("broken").path,
            sources.appendingPathComponent("mocks").path, "--to", output.path,
        ])
        #expect(run.status == 1)
        #expect(run.errors.contains("a.mock.json"))
        #expect(run.errors.contains("a mock needs \"response\""))
        #expect(!FileManager.default.fileExists(atPath: output.path))
        let second = try await ChildProcess.runToEnd("httpmock", arguments: [
            "convert", sources.appendingPathComponent("good.har").path, sources.appendingPathComponent("broken").path, "--to", output.path,
        ])
        #expect(second.status == 1)
        #expect(second.errors.contains("bundle.json at [0].request.url"))
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
