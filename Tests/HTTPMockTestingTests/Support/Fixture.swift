import Foundation
import HTTPMockTesting

/// Launches the `JournalWriterFixture` executable the package builds next to the tests.
enum Fixture {
    static func executable() throws -> URL {
        var candidates: [URL] = []
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(folder.appendingPathComponent("JournalWriterFixture"))
            folder = folder.deletingLastPathComponent()
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("JournalWriterFixture"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw FixtureError(message: "JournalWriterFixture not found; looked in \(candidates.map(\.path))")
        }
        return found
    }

    /// Starts the fixture writing `count` entries labelled `label` into `folder`.
    static func start(label: String, count: Int, folder: URL) throws -> Process {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = [label, String(count)]
        var environment = ProcessInfo.processInfo.environment
        environment[JournalFolder.environmentVariable] = folder.path
        process.environment = environment
        try process.run()
        return process
    }

    static func finish(_ process: Process) throws {
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FixtureError(message: "JournalWriterFixture exited with status \(process.terminationStatus)")
        }
    }

    /// A new empty folder under the temporary directory.
    static func makeFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("httpmock-journal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
