import Foundation
import Testing

/// `httpmock audit`, run as a developer or a CI step runs it.
@Suite("httpmock audit finds secrets in fixtures, exits non-zero, and redacts them in place when asked",
       .disabled(if: runsUnderAddressSanitizer, "launches processes"))
struct AuditCommandTests {
    // Made up, and assembled at run time so that this file holds no token.
    static let token = "gh" + "o_" + String(repeating: "Qw3", count: 12)

    static var leakyMapping: String {
        """
        {"request": {"method": "GET", "urlPath": "/me", "headers": {"Authorization": {"equalTo": "Bearer \(token)"}}},
         "response": {"status": 200, "jsonBody": {"name": "Ada", "refresh_token": "rt-0a1b2c3d4e"}}}
        """
    }

    @Test("a secret: one line per finding with file, line, kind and place; exit status 1")
    func findsSecrets() async throws {
        let folder = try temporaryFolder(["wiremock/mappings/me.json": Self.leakyMapping, "notes.txt": "nothing here\n"])
        let run = try await ChildProcess.runToEnd("httpmock", arguments: ["audit", folder.path])
        #expect(run.status == 1)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.contains { $0.hasSuffix("wiremock/mappings/me.json:1: authorization header not redacted at request.headers.Authorization (Authorization) (Bear…)") })
        #expect(lines.contains { $0.hasSuffix("wiremock/mappings/me.json:2: secret in a JSON field at response.jsonBody.refresh_token (rt-0…)") })
        #expect(!lines.joined().contains(Self.token))
        #expect(run.errors.contains("2 file(s), 2 secret(s) found"))
    }

    @Test("--redact blanks them out in place; the folder then audits clean and exits 0")
    func redactsInPlace() async throws {
        let folder = try temporaryFolder(["wiremock/mappings/me.json": Self.leakyMapping])
        let redacting = try await ChildProcess.runToEnd("httpmock", arguments: ["audit", "--redact", folder.path])
        #expect(redacting.status == 0, "\(redacting.errors)")
        #expect(redacting.errors.contains("redacted 2 of 2 secret(s) in place"))
        let text = try String(contentsOf: folder.appendingPathComponent("wiremock/mappings/me.json"), encoding: .utf8)
        #expect(text.contains(#""equalTo": "REDACTED""#))
        #expect(text.contains(#""refresh_token": "REDACTED""#))
        #expect(text.contains(#""name": "Ada""#))
        let again = try await ChildProcess.runToEnd("httpmock", arguments: ["audit", folder.path])
        #expect(again.status == 0)
        #expect(again.output.isEmpty)
    }

    @Test("clean fixtures and the project's own WireMock example: no finding, exit status 0")
    func cleanFixtures() async throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/wiremock")
        let run = try await ChildProcess.runToEnd("httpmock", arguments: ["audit", example.path])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.isEmpty)
    }

    @Test("no path, or one that does not exist: a usage error, or exit status 1 naming it")
    func badArguments() async throws {
        let none = try await ChildProcess.runToEnd("httpmock", arguments: ["audit"])
        #expect(none.status == 64)
        #expect(none.errors.contains("Name at least one file or folder to audit"))
        let missing = try await ChildProcess.runToEnd("httpmock", arguments: ["audit", "/nonexistent/fixtures"])
        #expect(missing.status == 1)
        #expect(missing.errors.contains("/nonexistent/fixtures: no such file or folder"))
    }
}

@Suite("httpmock --version", .disabled(if: runsUnderAddressSanitizer, "launches processes"))
struct VersionCommandTests {
    @Test("prints the newest version of the changelog")
    func versionMatchesTheChangelog() async throws {
        let changelog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("CHANGELOG.md")
        let text = try String(contentsOf: changelog, encoding: .utf8)
        let newest = try #require(text.split(separator: "\n").first { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") })
        let version = newest.dropFirst("## [".count).prefix { $0 != "]" }
        let run = try await ChildProcess.runToEnd("httpmock", arguments: ["--version"])
        #expect(run.status == 0)
        #expect(run.output == String(version) + "\n")
    }
}
