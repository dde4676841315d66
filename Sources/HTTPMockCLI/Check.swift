#if CommandLineTool
import ArgumentParser
import Foundation
import HTTPMock
import HTTPMockOpenAPI

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

    @Option(help: "An OpenAPI document the stubs are checked against: each response that breaks its operation's schema, status or media type is printed, naming the stub and the field.")
    var openapi: String?

    func validate() throws {
        if paths.isEmpty { throw ValidationError("Name at least one folder or file to check, such as src/test/resources/wiremock.") }
    }

    func run() throws {
        let sources = MockSources(paths: paths.map { URL(fileURLWithPath: $0) }, format: format, skipInvalid: true)
        let mock = HTTPMock()
        mock.allowedProxyHosts = Set(allowProxyTo)
        let outcome = sources.check(with: mock)
        for problem in outcome.skipped { print(problem) }
        for warning in outcome.warnings { print("warning: \(warning)") }
        var summary = "httpmock check: \(outcome.stubCount) stub(s) would be served, \(outcome.skipped.count) problem(s)"
        if !outcome.warnings.isEmpty { summary += ", \(outcome.warnings.count) warning(s)" }
        var violations: [ContractViolation] = []
        if let openapi {
            let document: OpenAPIDocument
            do {
                document = try OpenAPIDocument(contentsOf: URL(fileURLWithPath: openapi))
            } catch {
                FileHandle.standardError.write(Data("httpmock check: \(error.message)\n".utf8))
                throw ExitCode(1)
            }
            // The stubs as serve would register them (what cannot be read is among the problems above).
            let served = HTTPMock()
            served.allowedProxyHosts = mock.allowedProxyHosts
            _ = try? sources.load(into: served)
            violations = served.checkStubs(against: document)
            for violation in violations { print(violation.description) }
            summary += ", \(violations.count) contract violation(s) against \(openapi)"
        }
        FileHandle.standardError.write(Data((summary + "\n").utf8))
        if !outcome.skipped.isEmpty || !violations.isEmpty { throw ExitCode(1) }
    }
}
#endif
