import Foundation

/// Resolves the file names a definition gives (a response file, a body file) inside the folder the definition
/// lives in, and refuses any that would leave it.
enum FolderPath {
    /// The file `relative` names inside `root`, checked to exist and be readable.
    ///
    /// - Throws: when `relative` is empty, climbs out of `root` with `..`, or is an absolute path outside `root`;
    ///   when the file is missing, a folder, or unreadable. `place` says where the name was written
    ///   (`bundle.json at [2].response.file`).
    static func file(_ relative: String, in root: URL, place: String) throws(HTTPMockError) -> URL {
        try file(relative, in: root, relativeTo: root, place: place)
    }

    /// The file `relative` names, read from `base` (a folder inside `root`), which must stay inside `root`.
    static func file(_ relative: String, in root: URL, relativeTo base: URL, place: String) throws(HTTPMockError) -> URL {
        let url = try resolve(relative, in: root, relativeTo: base, place: place)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw HTTPMockError(.missingFile, "\(place): the file \"\(relative)\" does not exist (looked for \(url.path)); add it or fix the name")
        }
        if isDirectory.boolValue {
            throw HTTPMockError(.missingFile, "\(place): \"\(relative)\" is a folder, not a file")
        }
        if !FileManager.default.isReadableFile(atPath: url.path) {
            throw HTTPMockError(.missingFile, "\(place): the file \"\(relative)\" cannot be read (check its permissions)")
        }
        return url
    }

    /// `relative` joined to `root` with `.` and `..` applied, refused if it ends outside `root`.
    static func resolve(_ relative: String, in root: URL, relativeTo base: URL, place: String) throws(HTTPMockError) -> URL {
        let rootComponents = components(of: root.standardizedFileURL.path, floor: 0) ?? []
        let baseComponents = components(of: base.standardizedFileURL.path, floor: 0) ?? []
        if relative.isEmpty { throw HTTPMockError(.invalidDefinition, "\(place): the file name is empty") }
        let isAbsolute = relative.hasPrefix("/") || relative.hasPrefix("~")
        let components = isAbsolute
            ? components(of: relative, floor: 0)
            : components(of: "/" + baseComponents.joined(separator: "/") + "/" + relative, floor: rootComponents.count)
        guard let components,
              components.count > rootComponents.count, Array(components.prefix(rootComponents.count)) == rootComponents else {
            throw HTTPMockError(.invalidDefinition, "\(place): \"\(relative)\" leaves the folder \(root.path); give a path inside it, relative to it, without \"..\" above it")
        }
        return URL(fileURLWithPath: "/" + components.joined(separator: "/"))
    }

    /// The components of an absolute path with `.` and `..` applied; `nil` when `..` climbs above `floor` components.
    private static func components(of path: String, floor: Int) -> [String]? {
        var result: [String] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                if result.count <= floor { return nil }
                result.removeLast()
            case "~": return nil
            default: result.append(String(part))
            }
        }
        return result
    }
}
