#if CommandLineTool
import ArgumentParser

/// `httpmock`: HTTPMock's mocks from the command line.
@main
struct HTTPMockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "httpmock",
        abstract: "Serves HTTP mocks: HTTPMock mapping files, Mockingbird bundles, HAR recordings and WireMock folders.",
        discussion: """
        The first line on standard output is the server's base URL; everything else goes to standard error.
        Requests to /__admin/ are WireMock's admin API (stub mappings, scenarios, the journal, reset, settings, \
        shutdown).
        """,
        subcommands: [Serve.self, Audit.self],
        defaultSubcommand: nil
    )
}
#endif
