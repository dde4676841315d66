import Foundation

/// Resolves the file names a definition gives (a response file, a body file) inside the folder the definition
/// lives in, and refuses any that would leave it. One per load: it remembers the files it already checked, so a
/// bundle whose 10,000 entries share a file checks it once.
final class FolderPath {
    let root: URL
    /// The largest templated body file this load reads (see ``HTTPMock/fileSizeLimits``).
    let limits: FileSizeLimits
    private let rootComponents: [String]
    /// The root with its symbolic links resolved: a file whose real path is outside it is refused. Worked out when
    /// a first file is asked for (a folder part whose mappings name no body file never asks).
    private lazy var realRoot: String = LocalFile.realPath(root.path) ?? root.path
    private var checked: [String: URL] = [:]

    init(root: URL, limits: FileSizeLimits = .standard) {
        self.root = root.standardizedFileURL
        self.limits = limits
        rootComponents = Self.components(of: self.root.path, floor: 0) ?? []
    }

    /// The file `relative` names, read from `base` (the root, or a folder inside it), checked to exist, to be a
    /// regular file and to be readable. The URL returned is the file's real path (links resolved), so what is
    /// served is what was checked.
    ///
    /// - Throws: when `relative` is empty, climbs out of the root with `..`, is an absolute path outside it, or
    ///   leads outside it through a symbolic link (the file, or a folder on its way); when the file is missing, a
    ///   folder, a named pipe or a device, or unreadable. `place` says where the name was written
    ///   (`bundle.json at [2].response.file`).
    func file(_ relative: String, relativeTo base: URL? = nil, place: String) throws(HTTPMockError) -> URL {
        let base = base?.standardizedFileURL.path ?? root.path
        let cacheKey = base + "\u{1F}" + relative
        if let known = checked[cacheKey] { return known }
        let url = try resolve(relative, relativeTo: base, place: place)
        guard let real = LocalFile.realPath(url.path) else {
            let link = LocalFile.isSymbolicLink(url.path) ? " (it is a symbolic link to nothing)" : ""
            throw HTTPMockError(.missingFile, "\(place): the file \"\(relative)\" does not exist\(link) (looked for \(url.path)); add it or fix the name")
        }
        guard LocalFile.realPath(real, isInside: realRoot) else {
            throw HTTPMockError(.invalidDefinition, "\(place): \"\(relative)\" leaves the folder \(root.path) through a symbolic link (it is really \(real)); copy the file into the folder instead of linking to it")
        }
        switch LocalFile.kind(at: real) {
        case .regular: break
        case .directory: throw HTTPMockError(.missingFile, "\(place): \"\(relative)\" is a folder, not a file")
        case let kind:
            throw HTTPMockError(.missingFile, "\(place): \"\(relative)\" is \(kind.irregularName ?? "not a file"), not a regular file; put a file there")
        }
        if !FileManager.default.isReadableFile(atPath: real) {
            throw HTTPMockError(.missingFile, "\(place): the file \"\(relative)\" cannot be read (check its permissions)")
        }
        let found = URL(fileURLWithPath: real)
        checked[cacheKey] = found
        return found
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
