import Foundation

/// Resolves the file names a definition gives (a response file, a body file) inside the folder the definition
/// lives in, and refuses any that would leave it. One per load: it remembers the files it already checked, so a
/// bundle whose 10,000 entries share a file checks it once.
final class FolderPath {
    let root: URL
    private let rootComponents: [String]
    private var checked: [String: URL] = [:]

    init(root: URL) {
        self.root = root.standardizedFileURL
        rootComponents = Self.components(of: self.root.path, floor: 0) ?? []
    }

    /// The file `relative` names, read from `base` (the root, or a folder inside it), checked to exist and be
    /// readable.
    ///
    /// - Throws: when `relative` is empty, climbs out of the root with `..`, or is an absolute path outside it;
    ///   when the file is missing, a folder, or unreadable. `place` says where the name was written
    ///   (`bundle.json at [2].response.file`).
    func file(_ relative: String, relativeTo base: URL? = nil, place: String) throws(HTTPMockError) -> URL {
        let base = base?.standardizedFileURL.path ?? root.path
        let cacheKey = base + "\u{1F}" + relative
        if let known = checked[cacheKey] { return known }
        let url = try resolve(relative, relativeTo: base, place: place)
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
        checked[cacheKey] = url
        return url
    }

    /// `relative` joined to `base` with `.` and `..` applied, refused if it ends outside the root.
    private func resolve(_ relative: String, relativeTo base: String, place: String) throws(HTTPMockError) -> URL {
        if relative.isEmpty { throw HTTPMockError(.invalidDefinition, "\(place): the file name is empty") }
        let isAbsolute = relative.hasPrefix("/") || relative.hasPrefix("~")
        let components = isAbsolute
            ? Self.components(of: relative, floor: 0)
            : Self.components(of: base + "/" + relative, floor: rootComponents.count)
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
