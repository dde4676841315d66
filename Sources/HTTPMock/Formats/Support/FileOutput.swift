import Foundation

/// Writes files for exports and recordings.
enum FileOutput {
    /// Writes `data` to `url` atomically, creating the folders on the way.
    static func write(_ data: Data, to url: URL) throws(HTTPMockError) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        } catch {
            throw HTTPMockError(.missingFile, "could not write \(url.path): \(error.localizedDescription)")
        }
    }
}
