// Linux only: `Process` does not exist on iOS, and Apple platforms need the SDK and lay modules out differently.
// The Linux run checks what the compiler says, which is the same on every platform.
#if os(Linux)
import Foundation
import Testing

/// The folder of the built modules, next to this target's resources (`.build/debug/Modules`); `nil` where the
/// check cannot run.
private let builtModules: URL? = {
    let folder = Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent("Modules")
    let module = folder.appendingPathComponent("HTTPMock.swiftmodule")
    return FileManager.default.fileExists(atPath: module.path) ? folder : nil
}()

/// A value of the wrong type in a response list gets a message naming the factory to use, not the compiler's
/// "failed to produce diagnostic". Type-checks snippets against the HTTPMock module just built, with `swiftc`.
///
/// Not under the sanitizers (`.ci/run` sets `HTTPMOCK_SANITIZED`): what it checks is the compiler's text, and
/// Foundation's `Process.run` itself trips AddressSanitizer (`findMaximumOpenFromProcSelfFD`).
@Suite(.enabled(if: builtModules != nil, "needs swiftc and the built HTTPMock module"),
       .disabled(if: ProcessInfo.processInfo.environment["HTTPMOCK_SANITIZED"] != nil, "a check of compiler messages"))
struct BuilderDiagnosticsTests {
    /// The errors `swiftc -typecheck` reports for `source`.
    static func errors(_ source: String) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("builder-check-\(UUID().uuidString).swift")
        try Data(("import Foundation\nimport HTTPMock\n" + source).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-typecheck", "-I", builtModules!.path, file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func aStringNamesPlaintext() throws {
        let errors = try Self.errors(#"HTTPMock().addResponses(forPath: "/x") { "hello" }"#)
        #expect(errors.contains("a String is not a response: write MockResponse.plaintext"))
        #expect(!errors.contains("failed to produce diagnostic"))
    }

    @Test func dataNamesTheInitialiser() throws {
        let errors = try Self.errors(#"HTTPMock().registerResponses { Host("a.test") { Path("/z") { Data() } } }"#)
        #expect(errors.contains("Data is not a response: write MockResponse(body: data"))
    }

    @Test func aModelValueNamesEncodable() throws {
        let errors = try Self.errors("""
        struct User: Codable { let id: Int }
        HTTPMock().addResponses(forPath: "/y") { User(id: 1) }
        """)
        #expect(errors.contains("write MockResponse.encodable(value)"))
    }

    @Test func responsesStillTypeCheck() throws {
        let errors = try Self.errors("""
        let mock = HTTPMock()
        mock.addResponses(forPath: "/ok") {
            .plaintext("hello")
            MockResponse.empty(status: .notFound)
            if Bool.random() { MockResponse.plaintext("maybe") }
        }
        """)
        #expect(errors.isEmpty, "\(errors)")
    }
}
#endif
