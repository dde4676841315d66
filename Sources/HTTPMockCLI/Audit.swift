#if CommandLineTool
import ArgumentParser
import Foundation
import HTTPMock

/// `httpmock audit <paths…>`: finds secrets in fixtures before they are committed.
struct Audit: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Finds secrets in HAR files, WireMock folders, mapping files and Mockingbird bundles.",
        discussion: """
        Prints one line per secret found, as a compiler prints a diagnostic: the file, the line, what it is and \
        where in the file, with the secret masked. Exits 1 when it finds one (or a path cannot be read), 0 when \
        the fixtures are clean, so it can stop a commit or a CI run.

        Found: Authorization, cookie and API-key headers not redacted; bearer tokens; JSON Web Tokens; keys of \
        AWS, GitHub, Slack, Stripe, Google, OpenAI, Anthropic and SendGrid by their documented formats; private \
        keys; passwords, tokens and keys in query strings, form bodies and JSON fields. REDACTED (what HTTPMock's \
        recordings write), <FILTERED>, *** and templates are not secrets.

        With --redact, each secret is replaced by REDACTED in its file, and nothing else in the file changes; what \
        cannot be replaced safely (inside a base64 body, too short to find alone) is listed to fix by hand.
        """
    )

    @Argument(help: "Files and folders to audit (folders are read whole; hidden files are skipped).")
    var paths: [String] = []

    @Flag(help: "Replace each secret found by the placeholder, in place.")
    var redact = false

    @Option(help: "What stands in for a redacted secret, and what --redact writes.")
    var placeholder = Redaction.default.placeholder

    func validate() throws {
        if paths.isEmpty { throw ValidationError("Name at least one file or folder to audit, such as Tests/AppTests/Cassettes.") }
        if placeholder.isEmpty { throw ValidationError("--placeholder cannot be empty: a blanked-out secret must still show it was there.") }
    }

    func run() throws {
        let audit = SecretAudit(placeholder: placeholder)
        let found = audit.scan(paths.map { URL(fileURLWithPath: $0) })
        for finding in found.findings { print(finding) }
        for problem in found.problems { FileHandle.standardError.write(Data("httpmock audit: \(problem)\n".utf8)) }
        var left = found
        if redact, !found.findings.isEmpty {
            left = audit.redact(found)
            let fixed = found.findings.count - left.findings.count
            FileHandle.standardError.write(Data("httpmock audit: redacted \(fixed) of \(found.findings.count) secret(s) in place\n".utf8))
            for finding in left.findings {
                FileHandle.standardError.write(Data("httpmock audit: still there, fix by hand or record again: \(finding)\n".utf8))
            }
        }
        let summary = "httpmock audit: \(found.filesScanned) file(s), \(found.findings.count) secret(s) found"
        FileHandle.standardError.write(Data((summary + "\n").utf8))
        if !left.findings.isEmpty || !found.problems.isEmpty { throw ExitCode(1) }
    }
}
#endif
