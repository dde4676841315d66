import Foundation
import Testing

/// Where a failing test's HTML report goes: a Swift Testing attachment, and a file in the folder
/// `HTTPMOCK_REPORT_DIR` names (for CI artifacts), one per failing test.
enum ReportFolder {
    /// The environment variable naming the folder reports are written to. Unset or empty: none are written.
    static let environmentVariable = "HTTPMOCK_REPORT_DIR"

    /// Attaches the page to the running Swift Testing test, if there is one, and writes it to the folder the
    /// environment names, if it names one. Returns the file written.
    @discardableResult
    static func publish(_ html: String, testName: String,
                        environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        let name = fileName(for: testName)
        if Test.current != nil {
            Attachment.record(html, named: name)
        }
        guard let folder = environment[environmentVariable], !folder.isEmpty else { return nil }
        do {
            return try write(html, named: name, in: URL(fileURLWithPath: folder, isDirectory: true))
        } catch {
            FileHandle.standardError.write(Data("HTTPMockTesting: the report for \(testName) could not be written to \(environmentVariable)=\(folder): \(error)\n".utf8))
            return nil
        }
    }

    /// A file name made of the test's name: letters, digits, `-`, `_` and `.` kept, every other character
    /// (`/`, `\`, spaces, `:`) an `_`, no leading dot, at most 120 characters, ending `.html`.
    static func fileName(for testName: String) -> String {
        var name = ""
        for scalar in testName.unicodeScalars {
            let safe = scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar))
            if safe {
                name.unicodeScalars.append(scalar)
            } else if !name.hasSuffix("_") {
                name += "_"
            }
        }
        while name.hasPrefix(".") || name.hasPrefix("_") { name.removeFirst() }
        while name.hasSuffix(".") || name.hasSuffix("_") { name.removeLast() }
        name = String(name.prefix(120))
        return (name.isEmpty ? "test" : name) + ".html"
    }

    /// Writes the page into `folder` (made if missing) under `name`, or `name` with `-2`, `-3`… when a file of
    /// that name is there already (two cases of a parameterized test, two tests of the same name).
    static func write(_ html: String, named name: String, in folder: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let stem = String(name.dropLast(".html".count))
        let data = Data(html.utf8)
        for attempt in 1...1000 {
            let file = folder.appendingPathComponent(attempt == 1 ? name : "\(stem)-\(attempt).html", isDirectory: false)
            do {
                // Created only if absent, so tests running in parallel never overwrite each other's pages.
                try data.write(to: file, options: .withoutOverwriting)
                return file
            } catch CocoaError.fileWriteFileExists {
                continue
            }
        }
        throw CocoaError(.fileWriteFileExists, userInfo: [NSFilePathErrorKey: folder.appendingPathComponent(name).path])
    }
}
