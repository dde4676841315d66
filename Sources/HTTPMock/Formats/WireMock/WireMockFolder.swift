import Foundation

/// A WireMock root folder: mapping files (`*.json`, in subfolders too) under `mappings/`, body files under
/// `__files/`.
enum WireMockFolder {
    /// Where a WireMock folder's mapping files are: each by its path relative to the root (`mappings/users.json`),
    /// as messages name it; the full path is made from the root when the file is read, so a folder of 10,000 files
    /// holds 10,000 short names while it loads, not 10,000 URLs.
    struct Layout: Sendable {
        /// The root: the folder that holds `mappings/` (and `__files/`).
        let root: URL
        /// The mapping files, relative to ``root``, in the order they are read.
        let names: [String]
        /// The `__files` folder, when there is one.
        let bodies: URL?
        /// The file itself, when `location` named one mapping file (read as it is, through a link too).
        let single: URL?
        private let rootPath: String

        init(root: URL, names: [String], bodies: URL?, single: URL? = nil) {
            self.root = root
            self.names = names
            self.bodies = bodies
            self.single = single
            let path = root.path
            rootPath = path.hasSuffix("/") ? path : path + "/"
        }

        /// The full (standardized) path of file `name`.
        func path(of name: String) -> String {
            single?.path ?? rootPath + name
        }
    }

    /// The mapping files `location` names and the `__files` folder their bodies are read from: a root folder
    /// (holding `mappings/`), a mappings folder (with `__files` beside it), or one mapping file (with `__files`
    /// beside it, or beside its folder).
    static func layout(of location: URL) throws(HTTPMockError) -> Layout {
        let location = location.standardizedFileURL
        switch LocalFile.kind(at: location.path) {
        case .missing:
            throw HTTPMockError(.missingFile, "WireMock mappings: nothing at \(location.path)")
        case .directory:
            let nested = location.appendingPathComponent("mappings")
            let hasMessageMappings = LocalFile.kind(at: location.appendingPathComponent(HTTPMock.messageMappingsFolder).path) == .directory
            let hasMappingsFolder = LocalFile.kind(at: nested.path) == .directory
            if !hasMappingsFolder, hasMessageMappings {
                // A root with message stub mappings only (a recorded WebSocket conversation).
                return Layout(root: location, names: [], bodies: existing(location.appendingPathComponent("__files")))
            }
            let folder = hasMappingsFolder ? nested : location
            // Names are relative to the root, the mappings folder's parent (`mappings/users.json`).
            let prefix = folder.lastPathComponent + "/"
            let names = mappingFiles(in: folder).map { prefix + $0 }
            // A root with an empty `mappings/` is how a server driven over the admin API starts, as in WireMock;
            // a folder with neither is more likely the wrong one.
            if names.isEmpty, !hasMappingsFolder {
                throw HTTPMockError(.missingFile, "WireMock mappings: no \"*.json\" mapping file in \(folder.path); put the mapping files in a \"mappings\" folder")
            }
            let root = folder.deletingLastPathComponent()
            return Layout(root: root, names: names, bodies: existing(root.appendingPathComponent("__files")))
        case .regular:
            let folder = location.deletingLastPathComponent()
            let bodies = existing(folder.appendingPathComponent("__files"))
                ?? existing(folder.deletingLastPathComponent().appendingPathComponent("__files"))
            let root = bodies?.deletingLastPathComponent() ?? folder
            return Layout(root: root, names: [MappingFolder.relativePath(of: location, in: root)], bodies: bodies, single: location)
        case let kind:
            throw HTTPMockError(.missingFile, "WireMock mappings: \(location.path) is \(kind.irregularName ?? "not a file"), not a folder or a mapping file")
        }
    }

    private static func existing(_ folder: URL) -> URL? {
        LocalFile.kind(at: folder.path) == .directory ? folder : nil
    }

    /// `*.json` files under `folder` (a standardized URL), by their paths relative to it, sorted; hidden files and
    /// folders are skipped.
    static func mappingFiles(in folder: URL) -> [String] {
        LocalFile.walk(folder.path) { name in
            // `.json` as written is told without making a lower-cased copy of every name.
            name.utf8.count > 5 && name.utf8.suffix(5).elementsEqual(".json".utf8) || name.lowercased().hasSuffix(".json")
        }.sorted()
    }

    /// Reads the mapping files of a ``layout(of:)`` one at a time and hands each mapping that reads, with its file, to `each`
    /// (which translates it before the next file is read, so a folder's parsed JSON is never held all at once);
    /// adds a problem to `problems` for each file or mapping that does not read, in file order.
    /// `files`: which of the layout's files, by position (all by default).
    static func read(_ layout: Layout, files: Range<Int>? = nil, limits: FileSizeLimits, problems: inout [HTTPMockError],
                     each: (_ name: String, _ path: String, WireMockStubMapping, inout [HTTPMockError]) -> Void) {
        let root = layout.root
        // Made for the first file reached through a link, if any.
        var guardian: FolderPath?
        // Whether a folder, or one above it inside the root, is a symbolic link: asked once a folder.
        var linkedFolders: [String: Bool] = [:]
        let rootLength = root.path.count
        func isLinked(_ folder: String) -> Bool {
            guard folder.count > rootLength else { return false }
            if let known = linkedFolders[folder] { return known }
            let linked = LocalFile.isSymbolicLink(folder) || isLinked((folder as NSString).deletingLastPathComponent)
            linkedFolders[folder] = linked
            return linked
        }
        var open: (path: String, folder: LocalFile.OpenFolder)?
        for name in layout.names[files ?? layout.names.indices] {
            do {
                // A mapping file found in the folder is held to the rules of body files: no link out of the folder.
                // Only a file reached through a link needs its real path worked out and checked: the file is opened
                // without following one, and a folder is asked once whether it is one.
                let path = layout.path(of: name)
                let slash = path.lastIndex(of: "/")
                let folder = slash.map { String(path[..<$0]) } ?? path
                let limit = limits.definitions
                var data: Data?
                if let single = layout.single {
                    data = try DefinitionFile.read(single, name: name, limit: limit, knob: "definitions")
                } else if !isLinked(folder) {
                    // Files are read folder by folder (the names are sorted): each folder is opened once, and its
                    // files by their own names.
                    if open?.path != folder { open = LocalFile.OpenFolder(path: folder).map { (folder, $0) } }
                    if let open, let slash {
                        data = try DefinitionFile.read(unlessLink: String(path[path.index(after: slash)...]), in: open.folder, path: path,
                                                       name: name, limit: limit, knob: "definitions")
                    } else if LocalFile.isSymbolicLink(folder) {
                        // Made a link since it was asked: its files are checked as a linked folder's are, below.
                        linkedFolders[folder] = true
                    } else {
                        data = try DefinitionFile.read(unlessLink: path, name: name, limit: limit, knob: "definitions")
                    }
                }
                if data == nil {
                    let checking = guardian ?? FolderPath(root: root, limits: limits)
                    guardian = checking
                    data = try DefinitionFile.read(try checking.file(name, place: name), name: name, limit: limit, knob: "definitions")
                }
                guard let bytes = data else { continue }
                for mapping in WireMockStubMapping.read(bytes, source: name, checked: false, problems: &problems) {
                    each(name, path, mapping, &problems)
                }
            } catch {
                problems.append(error)
            }
        }
    }
}
