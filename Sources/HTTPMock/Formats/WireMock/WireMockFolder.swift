import Foundation

/// A WireMock root folder: mapping files (`*.json`, in subfolders too) under `mappings/`, body files under
/// `__files/`.
enum WireMockFolder {
    /// The mapping files `location` names and the `__files` folder their bodies are read from: a root folder
    /// (holding `mappings/`), a mappings folder (with `__files` beside it), or one mapping file (with `__files`
    /// beside it, or beside its folder). Each file comes with its path relative to the root
    /// (`mappings/users.json`), as messages name it.
    static func layout(of location: URL) throws(HTTPMockError) -> (root: URL, files: [(name: String, url: URL)], bodies: URL?) {
        let location = location.standardizedFileURL
        switch LocalFile.kind(at: location.path) {
        case .missing:
            throw HTTPMockError(.missingFile, "WireMock mappings: nothing at \(location.path)")
        case .directory:
            let nested = location.appendingPathComponent("mappings")
            let folder = LocalFile.kind(at: nested.path) == .directory ? nested : location
            // Names are relative to the root, the mappings folder's parent (`mappings/users.json`).
            let prefix = folder.lastPathComponent + "/"
            let files = mappingFiles(in: folder).map { (prefix + $0.name, $0.url) }
            if files.isEmpty {
                throw HTTPMockError(.missingFile, "WireMock mappings: no \"*.json\" mapping file in \(folder.path); put the mapping files in a \"mappings\" folder")
            }
            return (folder.deletingLastPathComponent(), files, existing(folder.deletingLastPathComponent().appendingPathComponent("__files")))
        case .regular:
            let folder = location.deletingLastPathComponent()
            let bodies = existing(folder.appendingPathComponent("__files"))
                ?? existing(folder.deletingLastPathComponent().appendingPathComponent("__files"))
            let root = bodies?.deletingLastPathComponent() ?? folder
            return (root, [(MappingFolder.relativePath(of: location, in: root), location)], bodies)
        case let kind:
            throw HTTPMockError(.missingFile, "WireMock mappings: \(location.path) is \(kind.irregularName ?? "not a file"), not a folder or a mapping file")
        }
    }

    private static func existing(_ folder: URL) -> URL? {
        LocalFile.kind(at: folder.path) == .directory ? folder : nil
    }

    /// `*.json` files under `folder` (a standardized URL), sorted by their path relative to it, which comes with
    /// each; hidden files and folders are skipped.
    static func mappingFiles(in folder: URL) -> [(name: String, url: URL)] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil,
                                                              options: [.skipsHiddenFiles]) else { return [] }
        let base = folder.path.hasSuffix("/") ? folder.path : folder.path + "/"
        // Each file's relative path is worked out once, not at every comparison of the sort.
        var files: [(name: String, url: URL)] = []
        for case let url as URL in enumerator where url.pathExtension.lowercased() == "json" {
            let path = url.path
            files.append((path.hasPrefix(base) ? String(path.dropFirst(base.count)) : url.lastPathComponent, url))
        }
        files.sort { $0.name < $1.name }
        return files
    }

    /// Reads the mapping files of a ``layout(of:)`` one at a time and hands each mapping that reads, with its file, to `each`
    /// (which translates it before the next file is read, so a folder's parsed JSON is never held all at once);
    /// adds a problem to `problems` for each file or mapping that does not read, in file order.
    static func read(_ layout: (root: URL, files: [(name: String, url: URL)], bodies: URL?), location: URL,
                     limits: FileSizeLimits, problems: inout [HTTPMockError],
                     each: (URL, WireMockStubMapping, inout [HTTPMockError]) -> Void) {
        let (root, files, _) = layout
        let guardian = FolderPath(root: root, limits: limits)
        let single = files.count == 1 && files[0].url == location.standardizedFileURL
        // Whether a folder, or one above it inside the root, is a symbolic link: asked once a folder.
        var linkedFolders: [String: Bool] = [:]
        func isLinked(_ folder: String) -> Bool {
            guard folder.count > root.path.count else { return false }
            if let known = linkedFolders[folder] { return known }
            let linked = LocalFile.isSymbolicLink(folder) || isLinked((folder as NSString).deletingLastPathComponent)
            linkedFolders[folder] = linked
            return linked
        }
        func passesThroughALink(_ file: URL) -> Bool {
            LocalFile.isSymbolicLink(file.path) || isLinked((file.path as NSString).deletingLastPathComponent)
        }
        for (name, file) in files {
            do {
                // A mapping file found in the folder is held to the rules of body files: no link out of the folder.
                // Only a file reached through a link needs its real path worked out and checked.
                let checked = single || !passesThroughALink(file) ? file : try guardian.file(name, place: name)
                let data = try DefinitionFile.read(checked, name: name, limit: limits.definitions, knob: "definitions")
                for mapping in WireMockStubMapping.read(data, source: name, checked: false, problems: &problems) {
                    each(file, mapping, &problems)
                }
            } catch {
                problems.append(error)
            }
        }
    }
}
