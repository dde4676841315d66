#if CommandLineTool
import ArgumentParser
import HTTPMock

/// `httpmock`: HTTPMock's mocks from the command line.
@main
struct HTTPMockCommand: AsyncParsableCommand {
    /// The package's version: the newest one in CHANGELOG.md (a test keeps them equal).
    static let version = PackageVersion.current

    static let configuration = CommandConfiguration(
        commandName: "httpmock",
        abstract: "Serves HTTP mocks: HTTPMock mapping files, Mockingbird bundles, HAR recordings and WireMock folders.",
        discussion: """
        The first line on standard output is the server's base URL; everything else goes to standard error.
        Requests to /__admin/ are WireMock's admin API (stub mappings, scenarios, the journal, reset, settings, \
        shutdown).
        """,
        version: HTTPMockCommand.version,
        subcommands: [Serve.self, Check.self, Audit.self, Convert.self],
        defaultSubcommand: nil
    )

    /// ArgumentParser's entry, after the allocator is set up: before any thread has a heap of its own.
    static func main() async {
        ProcessMemory.growInLargerSteps()
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
#endif
