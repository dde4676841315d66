import Foundation

/// A WireMock root folder: mapping files (`*.json`, in subfolders too) under `mappings/`, body files under
/// `__files/`.
enum WireMockFolder {
    /// The mapping files `location` names and the `__files` folder their bodies are read from: a root folder
    /// (holding `mappings/`), a mappings folder (with `__files` beside it), or one mapping file (with `__files`
    /// beside it, or beside its folder).
    static func layout(of location: URL) throws(HTTPMockError) -> (root: URL, files: [URL], bodies: URL?) {
        let location = location.standardizedFileURL
        switch LocalFile.kind(at: location.path) {
        case .missing:
            throw HTTPMockError(.missingFile, "WireMock mappings: nothing at \(location.path)")
        case .directory:
            let nested = location.appendingPathComponent("mappings")
            let folder = LocalFile.kind(at: nested.path) == .directory ? nested : location
            let files = mappingFiles(in: folder)
            if files.isEmpty {
                throw HTTPMockError(.missingFile, "WireMock mappings: no \"*.json\" mapping file in \(folder.path); put the mapping files in a \"mappings\" folder")
            }
            return (folder.deletingLastPathComponent(), files, existing(folder.deletingLastPathComponent().appendingPathComponent("__files")))
        case .regular:
            let folder = location.deletingLastPathComponent()
            let bodies = existing(folder.appendingPathComponent("__files"))
                ?? existing(folder.deletingLastPathComponent().appendingPathComponent("__files"))
            return ((bodies?.deletingLastPathComponent() ?? folder), [location], bodies)
        case let kind:
            throw HTTPMockError(.missingFile, "WireMock mappings: \(location.path) is \(kind.irregularName ?? "not a file"), not a folder or a mapping file")
        }
    }

    private static func existing(_ folder: URL) -> URL? {
        LocalFile.kind(at: folder.path) == .directory ? folder : nil
    }

    /// `*.json` files under `folder`, sorted by relative path; hidden files and folders are skipped.
    static func mappingFiles(in folder: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil,
                                                              options: [.skipsHiddenFiles]) else { return [] }
        var files: [URL] = []
        for case let url as URL in enumerator where url.pathExtension.lowercased() == "json" {
            files.append(url.standardizedFileURL)
        }
        return files.sorted { MappingFolder.relativePath(of: $0, in: folder) < MappingFolder.relativePath(of: $1, in: folder) }
    }

    /// Every mapping of the files at `location`, in file order.
    static func mappings(at location: URL, limits: FileSizeLimits) throws(HTTPMockError) -> (mappings: [WireMockStubMapping], bodies: URL?) {
        let (root, files, bodies) = try layout(of: location)
        let guardian = FolderPath(root: root, limits: limits)
        var mappings: [WireMockStubMapping] = []
        for file in files {
            let name = MappingFolder.relativePath(of: file, in: root)
            // A mapping file found in the folder is held to the rules of body files: no link out of the folder.
            let checked = files.count == 1 && file == location.standardizedFileURL ? file : try guardian.file(name, place: name)
            let data = try DefinitionFile.read(checked, name: name, limit: limits.definitions, knob: "definitions")
            mappings += try WireMockStubMapping.mappings(in: data, source: name)
        }
        return (mappings, bodies)
    }
}
