#if CommandLineTool
import ArgumentParser
import Foundation
import HTTPMock
import HTTPMockOpenAPI
import HTTPMockServer

/// `httpmock serve <paths…>`: serves mock files over HTTP until SIGINT or SIGTERM.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serves mock files over HTTP until Ctrl-C (SIGINT) or SIGTERM.",
        discussion: """
        Each path is an HTTPMock mapping folder or file (*.mock.json), a Mockingbird bundle (a folder with \
        bundle.json), a HAR file (*.har) or a WireMock folder (mappings/ and __files/), told apart by what it holds \
        (or named with --format). The first line on \
        standard output is the base URL, such as http://127.0.0.1:8080; messages go to standard error.

        A file that cannot be read stops httpmock before it serves, with the file and key on standard error \
        (or, with --skip-invalid, is named and skipped).

        Stub mappings created over the admin API (POST /__admin/mappings) are served beside the files; \
        POST /__admin/mappings/save writes them into the mappings/ folder of the WireMock folder served. With no \
        path, httpmock starts with no stub, to be driven over the admin API, as WireMock's server starts.

        With --record-to and --proxy, requests no stub answers go to the proxy, and what it answered is written, \
        secrets redacted, as a WireMock folder (mappings/ and __files/) when httpmock stops.

        On Ctrl-C (SIGINT) or SIGTERM, httpmock stops accepting connections and lets the requests being answered \
        finish, for up to 5 seconds (--grace-period); a second signal stops it at once.

        Each request no stub answered is printed on standard error with the stub that came closest and how it \
        differs; with --verbose, every request is, with its status.
        """
    )

    @Argument(help: "Mapping folders or files, Mockingbird bundles, HAR files, WireMock folders.")
    var paths: [String] = []

    @Option(help: "What every path holds, instead of telling it from its contents.")
    var format: SourceFormat?

    @Option(parsing: .unconditional, help: "The port to listen on; 0 picks a free one.")
    var port = 0

    @Option(help: "The address to listen on. Only 127.0.0.1 (the default) and other loopback addresses keep the mocks on this machine; any other address serves the network, with a warning.")
    var bind = "127.0.0.1"

    @Option(help: "The scheme and host requests are matched as, such as https://api.example.com (default: http:// and example.com).")
    var origin: String?

    @Flag(help: "Reload the paths when a file in them changes: the new set replaces the old one whole, and a file that cannot be read keeps the old set.")
    var watch = false

    @Option(help: UnmockedChoice.help)
    var unmocked: UnmockedChoice?

    @Flag(help: "Skip a file that cannot be read, naming it on standard error, instead of not starting.")
    var skipInvalid = false

    @Flag(help: "Answer from HAR files with the time each response took when recorded, and each part of a recorded stream after its recorded delay (HAR files answer at once without it; a WireMock folder's recorded streams always keep their timing, as WireMock's chunkedDribbleDelay does).")
    var replayTiming = false

    @Option(help: "Forward the requests no stub answers to this base URL, such as https://api.example.com.")
    var proxy: String?

    @Option(help: "A host beyond this machine that WireMock mappings may proxy to with proxyBaseUrl (repeatable); without it they may proxy to loopback only.")
    var allowProxyTo: [String] = []

    @Option(help: "An OpenAPI document every request and response is checked against: each one that breaks it is printed (with --proxy, real traffic is checked, as Prism's validation proxy does).")
    var openapi: String?

    @Option(help: "Write what --proxy answered as a WireMock folder (mappings/, __files/) here when httpmock stops; what the folder holds already is served.")
    var recordTo: String?

    @Flag(inversion: .prefixedNo, help: "Answer WireMock's admin API under /__admin/, with the traffic page at /__admin/webapp.")
    var adminAPI = true

    @Flag(help: "Print every request and its status on standard error, not only the requests no stub answered.")
    var verbose = false

    @Option(name: [.customLong("admin-auth"), .customLong("admin-api-basic-auth")],
            help: "user:password the admin API requires (HTTP Basic authentication; WireMock's name for it works too). Required with --bind beyond loopback.")
    var adminAuth: String?

    @Option(help: "A host name the admin API answers besides this machine's address, such as 10.0.2.2 from an Android emulator (repeatable).")
    var adminHost: [String] = []

    @Option(help: "Seconds a request body may pause between its bytes before the server answers 408 and closes the connection.")
    var requestBodyTimeout: Double = 30

    @Option(help: "Seconds a whole request body may take, however steadily it arrives, before 408.")
    var requestBodyTotalTimeout: Double = 300

    @Option(help: "Seconds the requests being answered have to finish after SIGINT or SIGTERM (a second signal stops at once).")
    var gracePeriod: Double = 5

    func validate() throws {
        // No path at all starts empty, to be driven over the admin API, as WireMock's server starts.
        if paths.isEmpty, recordTo == nil, proxy == nil, !adminAPI {
            throw ValidationError("Name at least one path to serve, --proxy to forward everything, or keep the admin API on (without --no-admin-api) to add stub mappings over it.")
        }
        if recordTo != nil, proxy == nil {
            throw ValidationError("--record-to records what --proxy answers: add --proxy <base URL>.")
        }
        if let proxy {
            guard let url = URL(string: proxy), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
                  url.host != nil else {
                throw ValidationError("--proxy \(proxy) is not an http:// or https:// base URL.")
            }
            if let unmocked, unmocked.name != "passthrough" {
                throw ValidationError("--proxy forwards the requests no stub answers, which --unmocked \(unmocked.name) answers itself: use one or the other.")
            }
        } else if unmocked?.name == "passthrough" {
            throw ValidationError("--unmocked passthrough needs --proxy <base URL> to forward to.")
        }
        guard (0...65_535).contains(port) else { throw ValidationError("--port \(port) is not a port (0 to 65535).") }
        for (name, seconds) in [("--request-body-timeout", requestBodyTimeout), ("--request-body-total-timeout", requestBodyTotalTimeout)]
        where !(seconds.isFinite && seconds > 0 && seconds <= 86_400) {
            throw ValidationError("\(name) \(seconds) is not a number of seconds from more than 0 to 86400.")
        }
        guard gracePeriod.isFinite, (0...86_400).contains(gracePeriod) else {
            throw ValidationError("--grace-period \(gracePeriod) is not a number of seconds from 0 to 86400.")
        }
        if let adminAuth, HTTPMockServer.AdminCredentials(adminAuth) == nil {
            throw ValidationError("--admin-auth takes user:password, both not empty.")
        }
        if adminAPI, adminAuth == nil, !Self.isLoopback(bind) {
            throw ValidationError("--bind \(bind) serves other machines, and the admin API changes stubs, reads the journal and stops the server: add --admin-auth user:password, or --no-admin-api.")
        }
    }

    func run() async throws {
        let mock = HTTPMock()
        mock.journalCapacity = 10_000
        mock.allowedProxyHosts = Set(allowProxyTo)
        // A WebSocket on any path opens a message channel, as in WireMock (message stubs, /__admin/channels/send).
        mock.acceptsAnyWebSocket = true
        let sources = MockSources(paths: paths.map { URL(fileURLWithPath: $0) }, format: format, skipInvalid: skipInvalid,
                                  replaysTiming: replayTiming)
        let watcher = Watcher(paths: sources.paths)
        var contract: OpenAPIDocument?
        if let openapi {
            do {
                contract = try OpenAPIDocument(contentsOf: URL(fileURLWithPath: openapi))
            } catch {
                Console.error("httpmock: cannot check traffic against \(openapi): \(error.message)")
                throw ExitCode.failure
            }
        }
        // Taken before the first read: a change made after it is caught, however early.
        let baseline = watch ? watcher.snapshot() : [:]
        do {
            let outcome = try sources.load(into: mock)
            for line in outcome.skipped { Console.error("httpmock: skipped \(line)") }
            for line in outcome.warnings.prefix(10) { Console.error("httpmock: warning: \(line)") }
            if outcome.warnings.count > 10 {
                Console.error("httpmock: warning: and \(outcome.warnings.count - 10) more (httpmock check lists every one)")
            }
            Console.error("httpmock: serving \(outcome.stubCount) stub(s) from \(paths.isEmpty ? "no path" : paths.joined(separator: ", "))")
            if outcome.messageStubCount > 0 { Console.error("httpmock: and \(outcome.messageStubCount) message stub(s) for WebSockets") }
        } catch {
            Console.error("httpmock: cannot serve: \(error)")
            if !skipInvalid { Console.error("httpmock: fix them (httpmock check lists every one), or serve the rest with --skip-invalid") }
            throw ExitCode.failure
        }
        var recording: Recording?
        if let recordTo {
            do {
                recording = try mock.startRecording(to: URL(fileURLWithPath: recordTo), format: .wireMock, mode: .newRequests)
            } catch {
                Console.error("httpmock: cannot record to \(recordTo): \(error)")
                throw ExitCode.failure
            }
        } else if proxy != nil {
            mock.unmockedPolicy = .passthrough
        } else if let unmocked {
            mock.unmockedPolicy = unmocked.policy
        }
        var configuration = HTTPMockServer.Configuration(origin: origin, proxy: proxy.flatMap(URL.init(string:)), adminAPI: adminAPI,
                                                         wireMockFolder: sources.wireMockFolder)
        configuration.wireMockRanking = .mostRecentlyAdded
        configuration.adminCredentials = adminAuth.flatMap(HTTPMockServer.AdminCredentials.init)
        configuration.adminHosts = Set(adminHost)
        configuration.requestBodyTimeout = requestBodyTimeout
        configuration.requestBodyTotalTimeout = requestBodyTotalTimeout
        let server: HTTPMockServer
        do {
            server = try await HTTPMockServer.start(serving: mock, port: port, address: bind, configuration: configuration)
        } catch {
            Console.error("httpmock: cannot listen on \(bind):\(port): \(error)")
            throw ExitCode.failure
        }
        Console.output(server.baseURL.absoluteString)
        if adminAPI { Console.error("httpmock: the traffic page is at \(server.baseURL.absoluteString)/__admin/webapp") }
        if !Self.isLoopback(bind) {
            Console.error("httpmock: warning: listening on \(bind), not a loopback address: other machines can reach these mocks")
        }
        let console = TrafficConsole(verbose: verbose)
        let contractDocument = contract
        let observation = mock.observeJournal { event, entry in
            console.show(event, entry)
            if let contractDocument { console.showViolations(event, entry, against: contractDocument) }
        }

        // The first signal lets the requests being answered finish (for up to --grace-period); a second stops at once.
        let grace = gracePeriod
        let signals = StopSignals { first in
            Task { if first { await server.stop(gracePeriod: grace) } else { await server.stop() } }
        }
        let watching = watch ? Task {
            await watcher.run(every: 0.5, from: baseline) { changed in
                do {
                    let outcome = try sources.reload(changed, into: mock)
                    for line in outcome.skipped { Console.error("httpmock: skipped \(line)") }
                    Console.error("httpmock: reloaded \(outcome.stubCount) stub(s)")
                } catch {
                    Console.error("httpmock: kept the previous mocks: \(error)")
                }
            }
        } : nil

        await server.waitUntilStopped()
        observation.remove()
        watching?.cancel()
        signals.cancel()
        if let recording {
            do {
                try recording.finish()
                Console.error("httpmock: recorded \(recording.recordedEntries.count) request(s) to \(recording.url.path)")
            } catch {
                Console.error("httpmock: the recording could not be written: \(error)")
                throw ExitCode.failure
            }
        }
        Console.error("httpmock: stopped")
    }

    /// `127.x.x.x`, `::1` and `localhost`: reachable from this machine only.
    static func isLoopback(_ address: String) -> Bool { Loopback.contains(address) }
}

/// Standard output holds the base URL alone; everything else goes to standard error. Both are written at once
/// (not buffered), so a process reading them sees each line as it is printed.
enum Console {
    static func output(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
#endif
