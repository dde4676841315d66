import Foundation
import HTTPMock
import HTTPMockServer
import Testing

/// `httpmock serve`, the binary this package builds, run as a child process on folders each test writes.
@Suite("httpmock serve in a child process", .disabled(if: runsUnderAddressSanitizer, "launches processes"))
struct ServeCommandTests {
    static let greeting = #"{ "host": "api.example.com", "mocks": [ { "request": { "path": "/greeting" }, "response": { "text": "hello" } } ] }"#
    static let origin = ["--origin", "https://api.example.com"]

    /// Whether GET `url` answers `text` within a minute (a watched folder's reload arrives when it arrives).
    private func answer(_ url: URL, becomes text: String) async throws -> Bool {
        for _ in 0..<600 {
            if try await call("GET", url).text == text { return true }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        return false
    }

    private func answer(_ url: URL, becomesStatus status: Int) async throws -> Bool {
        for _ in 0..<600 {
            if try await call("GET", url).status == status { return true }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        return false
    }

    /// Starts `httpmock serve` and reads the base URL it prints first.
    private func serve(_ arguments: [String]) async throws -> (ChildProcess, URL) {
        let child = try ChildProcess("httpmock", arguments: ["serve"] + arguments)
        let line = try await child.nextLine()
        let url = try #require(URL(string: line), "the first line is the base URL: \(line)")
        return (child, url)
    }

    @Test("serves a mapping folder: the base URL comes first on standard output; SIGTERM stops it cleanly")
    func servesAFolder() async throws {
        let folder = try temporaryFolder(["greeting.mock.json": Self.greeting])
        let (child, url) = try await serve([folder.path] + Self.origin)
        #expect(url.absoluteString.hasPrefix("http://127.0.0.1:"))
        let reply = try await call("GET", url.adding("/greeting"))
        #expect(reply.status == 200)
        #expect(reply.text == "hello")
        // The admin API is on by default.
        let journal = try #require(try await call("GET", url.adding("/__admin/requests")).json)
        #expect((journal["meta"] as? [String: Any])?["total"] as? Int == 1)
        #expect(await child.terminate() == 0)
        #expect(child.standardError.contains("serving 1 stub(s)"))
        #expect(child.standardError.contains("stopped"))
    }

    @Test("SIGTERM lets a request being answered finish before httpmock stops")
    func sigtermFinishesInFlightRequests() async throws {
        let folder = try temporaryFolder([
            // Long enough that the journal is read within it however loaded the machine.
            "mappings/slow.json": #"{"request": {"method": "GET", "url": "/slow"}, "response": {"status": 200, "body": "done", "fixedDelayMilliseconds": 20000}}"#,
        ])
        // A grace longer than the delay, and a delay long enough that the journal is read within it however loaded
        // the machine.
        let (child, url) = try await serve([folder.path, "--grace-period", "60"])
        let port = try #require(url.port)
        let answered = Guarded(false)
        let slow = Task {
            let reply = await RawSocket.exchange(port: port, sending: Array("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)).reply
            answered.withLock { $0 = true }
            return reply
        }
        // The request is decided (journaled) and its response waits out its delay.
        var journaled = false
        for _ in 0..<600 where !journaled {
            let journal = try await call("GET", url.adding("/__admin/requests")).json
            journaled = (journal?["meta"] as? [String: Any])?["total"] as? Int == 1
            if !journaled { try await Task.sleep(nanoseconds: 20_000_000) }
        }
        #expect(journaled)
        #expect(!answered.current, "the response was out before SIGTERM: nothing was in flight")
        #expect(await child.terminate() == 0)
        let reply = await slow.value
        #expect(reply.hasPrefix("HTTP/1.1 200"))
        #expect(reply.hasSuffix("done"))
        #expect(child.standardError.contains("stopped"))
    }

    @Test("the console: each request no stub answered with its closest stub; with --verbose, every request")
    func console() async throws {
        let folder = try temporaryFolder(["greeting.mock.json": Self.greeting])
        let (child, url) = try await serve([folder.path])
        // No origin: the request is matched as example.com, and the console says how to fix it.
        #expect(try await call("GET", url.adding("/greeting")).status == 404)
        try await child.waitForError(containing: "httpmock: no stub answered GET http://example.com/greeting → 404")
        try await child.waitForError(containing: "closest: #0 api.example.com/greeting")
        try await child.waitForError(containing: "- host: expected api.example.com, got example.com")
        try await child.waitForError(containing: "httpmock serve --origin https://api.example.com")
        #expect(await child.terminate() == 0)
        #expect(!child.standardError.contains("→ 200"))

        let (verbose, verboseURL) = try await serve([folder.path, "--verbose"] + Self.origin)
        #expect(try await call("GET", verboseURL.adding("/greeting")).text == "hello")
        try await verbose.waitForError(containing: "httpmock: GET https://api.example.com/greeting → 200")
        #expect(await verbose.terminate() == 0)
    }

    @Test("--admin-auth: the admin API asks for the user and password; the stubs stay open")
    func adminAuth() async throws {
        let folder = try temporaryFolder(["greeting.mock.json": Self.greeting])
        let (child, url) = try await serve([folder.path, "--admin-auth", "admin:s3cret-pass"] + Self.origin)
        // Over a raw socket: URLSession on Linux waits for credentials of its own after a 401 with a challenge.
        let port = try #require(url.port)
        let refused = await RawSocket.exchange(port: port, sending: Array("GET /__admin/requests HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
        #expect(refused.reply.hasPrefix("HTTP/1.1 401"))
        let basic = "Basic " + Data("admin:s3cret-pass".utf8).base64EncodedString()
        #expect(try await call("GET", url.adding("/__admin/requests"), headers: ["Authorization": basic]).status == 200)
        #expect(try await call("GET", url.adding("/greeting")).text == "hello")
        #expect(await child.terminate() == 0)
    }

    @Test("tells a Mockingbird bundle and a HAR file from what they hold, or from --format")
    func detectsFormats() async throws {
        let folder = try temporaryFolder([
            "bundle/bundle.json": #"[ { "request": { "url": "://api.example.com/ip" }, "response": { "code": 200, "file": "ip.json" } } ]"#,
            "bundle/ip.json": #"{"origin": "127.0.0.1"}"#,
            "poll.har": #"{ "log": { "version": "1.2", "entries": [ { "request": { "method": "GET", "url": "https://api.example.com/jobs/7" }, "response": { "status": 202, "content": { "mimeType": "text/plain", "text": "queued" } } } ] } }"#,
            "traffic.json": #"{ "log": { "version": "1.2", "entries": [ { "request": { "method": "GET", "url": "https://api.example.com/me" }, "response": { "status": 200, "content": { "mimeType": "text/plain", "text": "Ann" } } } ] } }"#,
        ])
        let (child, url) = try await serve([folder.appendingPathComponent("bundle").path, folder.appendingPathComponent("poll.har").path] + Self.origin)
        #expect(try await call("GET", url.adding("/ip")).text == #"{"origin": "127.0.0.1"}"#)
        let job = try await call("GET", url.adding("/jobs/7"))
        #expect(job.status == 202)
        #expect(job.text == "queued")
        #expect(await child.terminate() == 0)

        let (named, namedURL) = try await serve(["--format", "har", folder.appendingPathComponent("traffic.json").path] + Self.origin)
        #expect(try await call("GET", namedURL.adding("/me")).text == "Ann")
        #expect(await named.terminate() == 0)
    }

    @Test("a file that cannot be read: no server, a non-zero exit, the file and key on standard error")
    func badFileDoesNotStart() async throws {
        let folder = try temporaryFolder([
            "greeting.mock.json": Self.greeting,
            "broken.mock.json": #"{ "mocks": [ { "request": { "method": "G E T", "path": "/a" }, "response": { "text": "a" } } ] }"#,
        ])
        let child = try ChildProcess("httpmock", arguments: ["serve", folder.path])
        #expect(await child.waitForExit() == 1)
        #expect(child.standardError.contains("broken.mock.json at mocks[0].request.method"))
        await #expect(throws: ChildProcessError.self) { _ = try await child.nextLine(timeout: 5) }
    }

    @Test("--skip-invalid names the file it skips and serves the others")
    func skipInvalid() async throws {
        let folder = try temporaryFolder([
            "greeting.mock.json": Self.greeting,
            "broken.mock.json": #"{ "mocks": [ { "request": { "path": "/a" }, "response": { "status": "ok" } } ] }"#,
        ])
        let (child, url) = try await serve([folder.path, "--skip-invalid"] + Self.origin)
        #expect(try await call("GET", url.adding("/greeting")).text == "hello")
        #expect(child.standardError.contains("skipped \(folder.appendingPathComponent("broken.mock.json").standardizedFileURL.path)"))
        #expect(await child.terminate() == 0)
    }

    @Test("--skip-invalid on a WireMock folder serves the good mappings of a file and names each one it skips")
    func skipInvalidMappings() async throws {
        let folder = try temporaryFolder(CheckCommandTests.folderFiles)
        let (child, url) = try await serve([folder.appendingPathComponent("wiremock").path, "--skip-invalid"])
        #expect(try await call("GET", url.adding("/a")).text == "a")
        #expect(try await call("GET", url.adding("/d")).text == "d")
        try await child.waitForError(containing: #"unknown key "methd""#)
        #expect(child.standardError.contains(#"skipped "#))
        #expect(child.standardError.contains(#"mapping "escapes" at response.bodyFileName"#))
        #expect(await child.terminate() == 0)
    }

    @Test("a WireMock folder answers as WireMock ranks it: among equal priorities the most recently added mapping, an admin-created one too")
    func wireMockRanking() async throws {
        let folder = try temporaryFolder([
            "wiremock/mappings/a.json": #"{"request": {"method": "GET", "urlPath": "/users/7"}, "response": {"body": "specific"}}"#,
            "wiremock/mappings/b.json": #"{"request": {"urlPathPattern": "/users/.*"}, "response": {"body": "broad, later"}}"#,
        ])
        let (child, url) = try await serve([folder.appendingPathComponent("wiremock").path])
        #expect(try await call("GET", url.adding("/users/7")).text == "broad, later")
        _ = try await call("POST", url.adding("/__admin/mappings"),
                           body: #"{"request": {"urlPattern": "/users/[0-9]+"}, "response": {"body": "from the admin API"}}"#)
        #expect(try await call("GET", url.adding("/users/7")).text == "from the admin API")
        #expect(await child.terminate() == 0)
    }

    @Test("--watch swaps in the changed set whole; a file that cannot be read keeps the previous set")
    func watchReloads() async throws {
        let folder = try temporaryFolder(["greeting.mock.json": Self.greeting])
        let (child, url) = try await serve([folder.path, "--watch"] + Self.origin)
        #expect(try await call("GET", url.adding("/greeting")).text == "hello")

        let file = folder.appendingPathComponent("greeting.mock.json")
        // Written whole (a rename), so the watcher never reads half a file.
        try Data(Self.greeting.replacingOccurrences(of: "hello", with: "hello again").utf8).write(to: file, options: .atomic)
        #expect(try await answer(url.adding("/greeting"), becomes: "hello again"))
        try await child.waitForError(containing: "reloaded 1 stub(s)")

        #expect(!child.standardError.contains("kept the previous mocks"))
        try Data(#"{ "mocks": [ { "request": { "path": "/greeting" } "#.utf8).write(to: file, options: .atomic)
        try await child.waitForError(containing: "kept the previous mocks")
        #expect(child.standardError.contains("greeting.mock.json"))
        #expect(try await call("GET", url.adding("/greeting")).text == "hello again")
        #expect(await child.terminate() == 0)
    }

    /// The WireMock folder HTTPMock's own tests read (`mappings/` and `__files/`).
    static let wireMockFixture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/HTTPMockTests/Fixtures/WireMock/api")

    @Test("serves a WireMock folder (mappings/ and __files/), told apart by what it holds")
    func servesAWireMockFolder() async throws {
        let (child, url) = try await serve([Self.wireMockFixture.path] + Self.origin)
        #expect(try await call("GET", url.adding("/single")).text == "one mapping in the file")
        let file = try await call("GET", url.adding("/users/7/file"))
        #expect(file.status == 200)
        #expect(file.headers["content-type"] == "application/json")
        #expect(file.text == (try String(contentsOf: Self.wireMockFixture.appendingPathComponent("__files/user.json"), encoding: .utf8)))
        #expect(try await call("GET", url.adding("/greeting?name=Ann")).text.hasPrefix("Hello Ann!"))
        // A mapping created over the admin API reads its body file from the same __files.
        let created = try await call("POST", url.adding("/__admin/mappings"),
                                     body: #"{"request": {"method": "GET", "url": "/me"}, "response": {"bodyFileName": "user.json"}}"#)
        #expect(created.status == 201)
        #expect(try await call("GET", url.adding("/me")).text == file.text)
        #expect(await child.terminate() == 0)
        #expect(child.standardError.contains("serving "))
    }

    @Test("--watch reloads a WireMock folder; mappings created over the API stay, and save writes them into mappings/")
    func watchesAndSavesAWireMockFolder() async throws {
        let root = try temporaryFolder().appendingPathComponent("wiremock")
        try FileManager.default.copyItem(at: Self.wireMockFixture, to: root)
        let (child, url) = try await serve([root.path, "--watch"] + Self.origin)
        #expect(try await call("GET", url.adding("/single")).text == "one mapping in the file")
        let created = try await call("POST", url.adding("/__admin/mappings"),
                                     body: #"{"request": {"method": "GET", "url": "/created"}, "response": {"body": "over the API"}}"#)
        let id = try #require(created.json?["id"] as? String)

        let single = root.appendingPathComponent("mappings/single.json")
        let changed = try String(contentsOf: single, encoding: .utf8).replacingOccurrences(of: "one mapping in the file", with: "changed on disk")
        try Data(changed.utf8).write(to: single, options: .atomic)
        // Until the reload that carries this change is served ("reloaded" may also be an earlier reload's line).
        #expect(try await answer(url.adding("/single"), becomes: "changed on disk"))
        #expect(try await call("GET", url.adding("/created")).text == "over the API")

        #expect(try await call("POST", url.adding("/__admin/mappings/save")).status == 200)
        let saved = root.appendingPathComponent("mappings/\(id).json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: saved)) as? [String: Any])
        #expect(json["id"] as? String == id)
        #expect((json["response"] as? [String: Any])?["body"] as? String == "over the API")
        #expect(await child.terminate() == 0)
    }

    @Test("--watch reads again only the WireMock mapping files that changed, came or went; other changes reload all")
    func watchReloadsOneFile() async throws {
        let mapping = { (path: String, body: String) in #"{"request": {"urlPath": "\#(path)"}, "response": {"body": "\#(body)"}}"# }
        let root = try temporaryFolder([
            "mappings/a.json": mapping("/a", "a1"),
            "mappings/b.json": #"{"mappings": ["# + mapping("/b", "b1") + "," + mapping("/b2", "b2") + "]}",
            "mappings/c.json": mapping("/c", "c1"),
            "__files/.keep": "",
        ])
        let (child, url) = try await serve([root.path, "--watch"] + Self.origin)
        #expect(try await call("GET", url.adding("/a")).text == "a1")
        // One file changed: its stubs alone are read again and replaced ("reloaded 1", not the folder's 4).
        try Data(mapping("/a", "a2").utf8).write(to: root.appendingPathComponent("mappings/a.json"), options: .atomic)
        #expect(try await answer(url.adding("/a"), becomes: "a2"))
        try await child.waitForError(containing: "reloaded 1 stub(s)")
        #expect(try await call("GET", url.adding("/b2")).text == "b2")
        // A file that goes takes its stubs with it; one that comes is served.
        try FileManager.default.removeItem(at: root.appendingPathComponent("mappings/b.json"))
        try Data(mapping("/d", "d1").utf8).write(to: root.appendingPathComponent("mappings/d.json"), options: .atomic)
        #expect(try await answer(url.adding("/d"), becomes: "d1"))
        #expect(try await answer(url.adding("/b"), becomesStatus: 404))
        #expect(try await call("GET", url.adding("/c")).text == "c1")
        // A body file changed: everything is read again.
        try Data("x".utf8).write(to: root.appendingPathComponent("__files/x.txt"))
        try await child.waitForError(containing: "reloaded 3 stub(s)")
        #expect(await child.terminate() == 0)
    }

    @Test("--watch refuses a WireMock mapping file that comes as a symbolic link out of the folder, as a load of the whole folder does")
    func watchRefusesALinkOut() async throws {
        let mapping = { (path: String, body: String) in #"{"request": {"urlPath": "\#(path)"}, "response": {"body": "\#(body)"}}"# }
        let root = try temporaryFolder(["mappings/a.json": mapping("/a", "a1"), "__files/inside.json": mapping("/inside", "inside")])
        let outside = try temporaryFolder(["secret.json": mapping("/secret", "outside the folder")])
        let (child, url) = try await serve([root.path, "--watch"] + Self.origin)
        #expect(try await call("GET", url.adding("/a")).text == "a1")
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("mappings/secret.json"),
                                                   withDestinationURL: outside.appendingPathComponent("secret.json"))
        // The reload that reads it says what it did: refused, or served.
        for _ in 0..<600 where !["kept the previous mocks", "reloaded"].contains(where: child.standardError.contains) {
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        #expect(child.standardError.contains("kept the previous mocks") && child.standardError.contains("leaves the folder"),
                "\(child.standardError)")
        #expect(try await call("GET", url.adding("/secret")).status == 404)
        // A link that stays inside the folder is read as before.
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("mappings/inside.json"),
                                                   withDestinationURL: root.appendingPathComponent("__files/inside.json"))
        #expect(try await answer(url.adding("/inside"), becomes: "inside"))
        #expect(try await call("GET", url.adding("/secret")).status == 404)
        #expect(await child.terminate() == 0)
    }

    @Test("--unmocked takes a status for what no stub answers")
    func unmockedStatus() async throws {
        let folder = try temporaryFolder(["greeting.mock.json": Self.greeting])
        let (child, url) = try await serve([folder.path, "--unmocked", "503"] + Self.origin)
        #expect(try await call("GET", url.adding("/elsewhere")).status == 503)
        #expect(await child.terminate() == 0)
    }

    @Test("--record-to with --proxy forwards what no stub answers and writes it, redacted, when stopped")
    func recordsThroughProxy() async throws {
        let upstream = HTTPMock()
        upstream.addResponses(forPath: "/profile") {
            MockResponse.dictionary(["name": "Ann", "access_token": "tok-123"], headers: ["Set-Cookie": "sid=1"])
        }
        let folder = try temporaryFolder()
        try await HTTPMockServer.withServer(serving: upstream) { upstreamServer in
            let (child, url) = try await serve(["--record-to", folder.path, "--proxy", upstreamServer.baseURL.absoluteString])
            let reply = try await call("GET", url.adding("/profile"), headers: ["Authorization": "Bearer real"])
            #expect(reply.status == 200)
            #expect(reply.json?["access_token"] as? String == "tok-123")
            #expect(await child.terminate() == 0)
            #expect(child.standardError.contains("recorded 1 request(s)"))
        }
        #expect(upstream.journal.first?.request.headers["Authorization"] == "Bearer real")
        // A WireMock folder, served back by loading it as WireMock does.
        let mappings = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("mappings").path)
        #expect(mappings.count == 1)
        let written = try String(contentsOf: folder.appendingPathComponent("mappings/" + mappings[0]), encoding: .utf8)
        #expect(!written.contains("tok-123"))
        #expect(!written.contains("sid=1"))
        let replay = HTTPMock()
        try replay.loadWireMockMappings(from: folder)
        try await HTTPMockServer.withServer(serving: replay) { server in
            let reply = try await call("GET", server.baseURL.adding("/profile"))
            #expect(reply.json?["name"] as? String == "Ann")
            #expect(reply.json?["access_token"] as? String == "REDACTED")
        }
    }

    @Test("an empty WireMock folder (mappings/ and __files/ with nothing in them) starts with no stub, as WireMock does, and serves what the admin API adds")
    func emptyWireMockFolder() async throws {
        let folder = try temporaryFolder(["mappings/.keep": "", "__files/.keep": ""])
        let (child, url) = try await serve([folder.path])
        try await child.waitForError(containing: "serving 0 stub(s)")
        let mapping = #"{"request": {"method": "GET", "url": "/added"}, "response": {"status": 200, "body": "added"}}"#
        #expect(try await call("POST", url.adding("/__admin/mappings"), body: mapping).status == 201)
        #expect(try await call("GET", url.adding("/added")).text == "added")
        #expect(await child.terminate() == 0)
        // A folder with neither mapping files nor a mappings folder is still refused: most likely the wrong path.
        let wrong = try temporaryFolder(["notes.txt": "x"])
        let run = try await ChildProcess.runToEnd("httpmock", arguments: ["serve", "--format", "wiremock", wrong.path])
        #expect(run.status != 0)
        #expect(run.errors.contains("no \"*.json\" mapping file"), "\(run.errors)")
    }

    @Test("no path at all starts with no stub, as WireMock's server does, and serves what the admin API adds")
    func noPath() async throws {
        let (child, url) = try await serve([])
        try await child.waitForError(containing: "serving 0 stub(s) from no path")
        #expect(try await call("GET", url.adding("/added")).status == 404)
        let mapping = #"{"request": {"method": "GET", "url": "/added"}, "response": {"status": 200, "body": "added"}}"#
        #expect(try await call("POST", url.adding("/__admin/mappings"), body: mapping).status == 201)
        #expect(try await call("GET", url.adding("/added")).text == "added")
        // No WireMock folder to save into: refused, saying so.
        let save = try await call("POST", url.adding("/__admin/mappings/save"))
        #expect(save.status == 403)
        #expect(await child.terminate() == 0)
    }

    @Test("POST /__admin/shutdown ends the process with status 0")
    func adminShutdown() async throws {
        let folder = try temporaryFolder(["greeting.mock.json": Self.greeting])
        let (child, url) = try await serve([folder.path])
        #expect(try await call("POST", url.adding("/__admin/shutdown")).status == 200)
        #expect(await child.waitForExit() == 0)
    }

    @Test("--request-body-timeout: a body that stalls gets 408 and the connection closes")
    func requestBodyTimeout() async throws {
        let folder = try temporaryFolder(["greeting.mock.json": Self.greeting])
        let (child, url) = try await serve([folder.path, "--request-body-timeout", "1"] + Self.origin)
        let head = "POST /greeting HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\nab"
        let (reply, closed) = await RawSocket.exchange(port: try #require(url.port), sending: Array(head.utf8))
        #expect(reply.hasPrefix("HTTP/1.1 408"), "\(reply)")
        #expect(closed)
        #expect(await child.terminate() == 0)
    }

    @Test("usage errors exit 64 and say what is missing")
    func usageErrors() async throws {
        let cases: [([String], String)] = [
            (["serve", "--no-admin-api"], "at least one path"),
            (["serve", "--record-to", "/tmp/x"], "--proxy"),
            (["serve", "x", "--unmocked", "passthrough"], "needs --proxy"),
            (["serve", "x", "--unmocked", "sometimes"], "--unmocked"),
            (["serve", "x", "--port", "-1"], "--port -1 is not a port (0 to 65535)"),
            (["serve", "x", "--bind", "0.0.0.0"], "add --admin-auth user:password, or --no-admin-api"),
            (["serve", "x", "--admin-auth", "nocolon"], "--admin-auth takes user:password"),
            (["serve", "x", "--admin-api-basic-auth", "nocolon"], "--admin-auth takes user:password"),
            (["serve", "x", "--request-body-timeout", "0"], "--request-body-timeout 0.0 is not a number of seconds"),
            (["serve", "x", "--request-body-total-timeout", "nan"], "--request-body-total-timeout nan is not a number of seconds"),
            (["serve", "x", "--grace-period", "nan"], "--grace-period nan is not a number of seconds from 0 to 86400"),
        ]
        for (arguments, text) in cases {
            let run = try await ChildProcess.runToEnd("httpmock", arguments: arguments)
            #expect(run.status == 64, "\(arguments)")
            #expect(run.errors.contains(text), "\(arguments): \(run.errors)")
        }
    }
}
