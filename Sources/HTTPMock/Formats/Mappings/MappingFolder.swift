import Foundation

/// A folder of mapping files: every `*.mock.json` in it or its subfolders, read in path order, with body files
/// beside them.
enum MappingFolder {
    static let suffix = ".mock.json"

    /// The stubs of every mapping file in `location` (a folder, or one mapping file).
    static func definitions(at location: URL, limits: FileSizeLimits = .standard) throws(HTTPMockError) -> [Engine.Definition] {
        let location = location.standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: location.path, isDirectory: &isDirectory) else {
            throw HTTPMockError(.missingFile, "mappings: nothing at \(location.path)")
        }
        if !isDirectory.boolValue {
            let root = location.deletingLastPathComponent()
            return try definitions(ofFile: location, files: FolderPath(root: root, limits: limits))
        }
        let files = mappingFiles(in: location)
        if files.isEmpty {
            throw HTTPMockError(.missingFile, "mappings: no \"*\(suffix)\" file in \(location.path); name mapping files like \"users\(suffix)\"")
        }
        var definitions: [Engine.Definition] = []
        let bodies = FolderPath(root: location, limits: limits)
        for file in files {
            // A mapping file found in the folder is held to the rules of the files it names: no link out of the
            // folder, no folder or pipe in its place.
            let checked = try bodies.file(relativePath(of: file, in: location), place: relativePath(of: file, in: location))
            definitions += try self.definitions(ofFile: file, checked: checked, files: bodies)
        }
        return definitions
    }

    /// The stubs of each mapping file in `folder`, read one by one: a file that cannot be read does not stop the
    /// others (``definitions(at:limits:)`` stops at the first).
    static func eachFile(in folder: URL, limits: FileSizeLimits) -> [(URL, Result<[Engine.Definition], HTTPMockError>)] {
        let folder = folder.standardizedFileURL
        let bodies = FolderPath(root: folder, limits: limits)
        return mappingFiles(in: folder).map { file in
            do throws(HTTPMockError) {
                let place = relativePath(of: file, in: folder)
                let checked = try bodies.file(place, place: place)
                return (file, .success(try definitions(ofFile: file, checked: checked, files: bodies)))
            } catch {
                return (file, .failure(error))
            }
        }
    }

    private static func definitions(ofFile file: URL, checked: URL? = nil, files: FolderPath) throws(HTTPMockError) -> [Engine.Definition] {
        let name = relativePath(of: file, in: files.root)
        let mapping = try DefinitionFile.decode(MappingFile.self, from: checked ?? file, name: name, limit: files.limits.definitions)
        return try mapping.definitions(folder: file.deletingLastPathComponent(), files: files, name: name)
    }

    /// Mapping files under `folder`, sorted by relative path; hidden files and folders are skipped.
    static func mappingFiles(in folder: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil,
                                                              options: [.skipsHiddenFiles]) else { return [] }
        var files: [URL] = []
        for case let url as URL in enumerator where url.lastPathComponent.hasSuffix(suffix) {
            files.append(url.standardizedFileURL)
        }
        return files.sorted { relativePath(of: $0, in: folder) < relativePath(of: $1, in: folder) }
    }

    static func relativePath(of file: URL, in root: URL) -> String {
        let rootPath = root.standardizedFileURL.path
        let path = file.standardizedFileURL.path
        guard path.hasPrefix(rootPath) else { return file.lastPathComponent }
        return String(path.dropFirst(rootPath.count).drop { $0 == "/" })
    }
}
