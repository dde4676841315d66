#if CommandLineTool
import ArgumentParser
import Foundation
import HTTPMock

/// `httpmock check <paths…>`: reads stub files as `serve` would, serves nothing, and lists every problem.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Checks WireMock folders, mapping files, Mockingbird bundles and HAR files without serving them.",
        discussion: """
        Reads each path as `httpmock serve` does and prints one line per problem, naming the file, the mapping and \
        the key, every problem of every path (not only the first). Exits 1 when there is one, 0 when every stub \
        would be served, so it can stop a commit or a CI run before a test meets the refusal.
        """
    )

    @Argument(help: "Folders and files to check, told apart by what they hold (see httpmock serve --help).")
    var paths: [String] = []

    @Option(help: "Read every path as this format instead of detecting it: \(SourceFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: SourceFormat?

    @Option(help: "A host beyond this machine that WireMock mappings may proxy to with proxyBaseUrl (repeatable); without it they may proxy to loopback only.")
    var allowProxyTo: [String] = []

    func validate() throws {
        if paths.isEmpty { throw ValidationError("Name at least one folder or file to check, such as src/test/resources/wiremock.") }
    }

    func run() throws {
        let sources = MockSources(paths: paths.map { URL(fileURLWithPath: $0) }, format: format, skipInvalid: true)
        let mock = HTTPMock()
        mock.allowedProxyHosts = Set(allowProxyTo)
        let outcome = sources.check(with: mock)
        for problem in outcome.skipped { print(problem) }
        let summary = "httpmock check: \(outcome.stubCount) stub(s) would be served, \(outcome.skipped.count) problem(s)"
        FileHandle.standardError.write(Data((summary + "\n").utf8))
        if !outcome.skipped.isEmpty { throw ExitCode(1) }
    }
}
#endif
