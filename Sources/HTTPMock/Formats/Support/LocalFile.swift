import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What is at a path on disk, looked at without opening it (opening a named pipe would wait for a writer for ever),
/// and where symbolic links lead.
enum LocalFile {
    enum Kind: Equatable {
        case missing
        case regular(size: Int)
        case directory
        case fifo
        case socket
        case device
        case other

        /// `a folder`, `a FIFO (named pipe)`… for messages; `nil` for a regular file.
        var irregularName: String? {
            switch self {
            case .missing: "nothing"
            case .regular: nil
            case .directory: "a folder"
            case .fifo: "a FIFO (named pipe)"
            case .socket: "a socket"
            case .device: "a device"
            case .other: "not a regular file"
            }
        }
    }

    /// What `path` is, following symbolic links.
    static func kind(at path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & mode_t(S_IFMT) {
        case mode_t(S_IFREG): return .regular(size: Int(info.st_size))
        case mode_t(S_IFDIR): return .directory
        case mode_t(S_IFIFO): return .fifo
        case mode_t(S_IFSOCK): return .socket
        case mode_t(S_IFCHR), mode_t(S_IFBLK): return .device
        default: return .other
        }
    }

    /// Whether `path` itself is a symbolic link (not followed).
    static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        return info.st_mode & mode_t(S_IFMT) == mode_t(S_IFLNK)
    }

    /// `path` with every symbolic link, `.` and `..` resolved; `nil` when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether the real (link-free) path `path` is `folder` or inside it; `folder` is a real path too.
    static func realPath(_ path: String, isInside folder: String) -> Bool {
        let folder = folder.hasSuffix("/") ? folder : folder + "/"
        return path.hasPrefix(folder)
    }

    /// `12.5 MiB`, `300 bytes`.
    static func describeSize(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) bytes" }
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 { value /= 1024; unit += 1 }
        let text = value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
        return "\(text) \(units[unit])"
    }
}

/// The largest files a load reads into memory. The public knob is ``HTTPMock/fileSizeLimits``.
/// The largest files a mock reads whole when it loads definitions (``HTTPMock/fileSizeLimits``). A larger file is
/// refused, before it is read, with an error naming it, its size and the limit.
///
/// ```swift
/// mock.fileSizeLimits.definitions = 256 << 20     // a 200 MB HAR file
/// ```
public struct FileSizeLimits: Sendable, Hashable {
    /// A definition file: a Mockingbird `bundle.json`, a `*.mock.json` mapping file, a HAR file. Default 64 MiB.
    public var definitions: Int
    /// A mapping's body file with `"template": true`, read whole to fill its placeholders. Default 16 MiB.
    public var templatedBodies: Int

    /// Limits of these sizes, in bytes.
    public init(definitions: Int = 64 << 20, templatedBodies: Int = 16 << 20) {
        self.definitions = definitions
        self.templatedBodies = templatedBodies
    }

    static let standard = FileSizeLimits()
}
