import Foundation
import Testing

/// `httpmock check`, run as a CI step runs it.
@Suite("httpmock check lists every problem of a folder, one line each, and exits non-zero",
       .disabled(if: runsUnderAddressSanitizer, "launches processes"))
struct CheckCommandTests {
    /// Four mappings in one file: one whose body file leaves `__files`, one with a misspelt key; and a file that
    /// is not JSON.
    static let folderFiles = [
        "wiremock/mappings/four.json": """
            {"mappings": [
              {"request": {"url": "/a"}, "response": {"body": "a"}},
              {"name": "escapes", "request": {"url": "/b"}, "response": {"bodyFileName": "../../notes.txt"}},
              {"request": {"url": "/c", "methd": "GET"}, "response": {"body": "c"}},
              {"request": {"url": "/d"}, "response": {"body": "d"}}
            ]}
            """,
        "wiremock/mappings/broken.json": #"{"request": {"url": "/e""#,
        "wiremock/__files/a.txt": "a",
        "notes.txt": "outside",
    ]

    @Test("every problem, one line each naming file, mapping and key; exit status 1")
    func listsEveryProblem() async throws {
        let folder = try temporaryFolder(Self.folderFiles)
        let run = try await ChildProcess.runToEnd("httpmock", arguments: ["check", folder.appendingPathComponent("wiremock").path])
        #expect(run.status == 1)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.contains { $0.contains("mappings/broken.json line 1") && $0.contains("the JSON is malformed") })
        #expect(lines.contains { $0.contains(#"mappings/four.json mappings[1], mapping "escapes" at response.bodyFileName"#) })
        #expect(lines.contains { $0.contains(#"mappings/four.json mappings[2] at request: unknown key "methd""#) })
        #expect(run.errors.contains("httpmock check: 2 stub(s) would be served, 3 problem(s)"))
    }

    @Test("a clean folder: exit status 0 and how many stubs it serves")
    func cleanFolder() async throws {
        let folder = try temporaryFolder(["wiremock/mappings/a.json": #"{"request": {"url": "/a"}, "response": {"body": "a"}}"#])
        let run = try await ChildProcess.runToEnd("httpmock", arguments: ["check", folder.appendingPathComponent("wiremock").path])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.isEmpty)
        #expect(run.errors.contains("httpmock check: 1 stub(s) would be served, 0 problem(s)"))
    }
}
