import Foundation
import Testing

/// Plays a test's HTTP traffic from a cassette: records it from the real network once, replays it offline for ever.
///
/// ```swift
/// @Test(.cassette("login"))
/// func logsIn() async throws {
///     let user = try await LoginClient(session: .shared).logIn(name: "alice", password: "secret")
///     #expect(user.name == "Alice")
/// }
/// ```
///
/// The first run, where the network is reachable, sends the test's requests to the real server and writes
/// `Cassettes/login.har` beside the test's source file when the test ends, with secrets redacted. Every run after
/// that replays it: the same request gets the recorded answer (a request that repeats gets its recorded answers in
/// order), and nothing reaches the network. A request the cassette cannot answer fails the test with its near-miss
/// report. ``CassetteMode`` says when a cassette records; on continuous integration (`CI` set) nothing does.
///
/// The test has a mock of its own, as with ``HTTPMockTrait``: ``HTTPMock/HTTPMock/current`` inside the test, and
/// `URLSession.shared` routed to it for the test's tasks, so cassette tests run in parallel and never mix. Register
/// more stubs in `configure`; they answer before the cassette does.
///
/// On a suite, each test gets the cassette named after it (`fetchUser()` plays `Cassettes/fetchUser.har`); a name
/// given on the suite becomes their subfolder (`.cassette("Users")` on the suite: `Cassettes/Users/fetchUser.har`).
public struct CassetteTrait: TestTrait, SuiteTrait, TestScoping {
    /// The cassette; on a suite, its name is the subfolder of its tests' cassettes (empty: none).
    public var cassette: Cassette
    let configure: @Sendable (HTTPMock) async throws -> Void
    /// Copies of one trait share it: it tells a suite's trait, inherited by its tests, from a test's own.
    private let membership = SuiteMembership()

    /// A trait that plays `cassette`, with more stubs registered by `configure` before the test runs.
    public init(_ cassette: Cassette, configure: @escaping @Sendable (HTTPMock) async throws -> Void = { _ in }) {
        self.cassette = cassette
        self.configure = configure
    }

    /// On a suite, applies to every test in it (each with a cassette of its own).
    public var isRecursive: Bool { true }

    /// Notes that this trait is applied to a suite, so its tests get cassettes named after them.
    public func prepare(for test: Test) async throws {
        guard test.isSuite else { return }
        membership.noteSuite()
    }

    /// Runs the test with a new mock that plays the cassette.
    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard !test.isSuite else {
            try await function()
            return
        }
        var cassette = cassette
        if membership.isOnSuite {
            let own = Cassette.fileName(ofTest: test.name)
            cassette.name = cassette.name.isEmpty ? own : cassette.name + "/" + own
        }
        let location = test.sourceLocation
        let bareName = test.name.firstIndex(of: "(").map { String(test.name[..<$0]) } ?? test.name
        try await CassetteScope.run(cassette, sourceFile: location.filePath, testName: bareName,
                                    environment: ProcessInfo.processInfo.environment,
                                    report: { Issue.record(Comment(rawValue: $0), sourceLocation: location) },
                                    configure: configure) { _ in
            try await function()
        }
    }
}

extension Trait where Self == CassetteTrait {
    /// Plays the cassette `name` (`Cassettes/<name>.har` beside the test's source file). See ``CassetteTrait``.
    ///
    /// ```swift
    /// @Test(.cassette("checkout", mode: .newEpisodes, reportsUnusedEntries: true))
    /// ```
    ///
    /// - Parameters:
    ///   - name: The cassette's name; on a suite, the subfolder of its tests' cassettes. Default: the test's name.
    ///   - mode: When it records. Default ``CassetteMode/automatic``: ``CassetteMode/none`` on CI, else
    ///     ``CassetteMode/once``. ``CassetteMode/environmentVariable`` overrides it for a whole run.
    ///   - folder: The folder of cassettes, relative to the test's source file, or absolute. Default `Cassettes`.
    ///   - format: ``CassetteFormat/har`` (default) or ``CassetteFormat/wireMock``.
    ///   - redaction: What is blanked out before writing. Default `Redaction.default`.
    ///   - matchesBody: Whether a request must carry the recorded body. Default `true`.
    ///   - reportsUnusedEntries: Report recorded answers no request asked for. Default `false`.
    ///   - configure: Registers more stubs before the test runs; they answer before the cassette.
    public static func cassette(
        _ name: String? = nil,
        mode: CassetteMode = .automatic,
        folder: String = "Cassettes",
        format: CassetteFormat = .har,
        redaction: Redaction = .default,
        matchesBody: Bool = true,
        reportsUnusedEntries: Bool = false,
        _ configure: @escaping @Sendable (HTTPMock) async throws -> Void = { _ in }
    ) -> CassetteTrait {
        CassetteTrait(Cassette(name ?? "", folder: folder, mode: mode, format: format, redaction: redaction,
                               matchesBody: matchesBody, reportsUnusedEntries: reportsUnusedEntries),
                      configure: configure)
    }
}
