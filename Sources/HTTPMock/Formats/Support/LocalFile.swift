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
        return kind(of: info)
    }

    /// What a `stat` says a file is.
    static func kind(of info: stat) -> Kind {
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
    /// What says a file changed: its device, inode, size and time of last change.
    struct Stamp: Sendable, Equatable {
        let device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int
    }

    /// The ``Stamp`` of the file at `path` (followed if a link), or `nil` when it cannot be read.
    static func stamp(at path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        // The time of last modification, as Foundation reads it (the field's name differs between C libraries).
        let modified = ((try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date)?
            .timeIntervalSince1970 ?? 0
        let (seconds, nanoseconds) = (Int(modified.rounded(.down)), Int((modified - modified.rounded(.down)) * 1e9))
        #else
        let (seconds, nanoseconds) = (Int(info.st_ctim.tv_sec), Int(info.st_ctim.tv_nsec))
        #endif
        return Stamp(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                     seconds: seconds, nanoseconds: nanoseconds)
    }

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

    /// What ``contents(unlessLink:limit:)`` found.
    enum Contents {
        case data(Data)
        case link
        case missing
        case irregular(Kind)
        case tooLarge(Int)
        case unreadable(String)
    }

    /// The bytes of the file at `path`, opened without following a symbolic link at its end: `.link` for a link,
    /// so that the caller can check where it leads first. A named pipe is opened without waiting for a writer and
    /// refused, like anything that is not a regular file; a file larger than `limit` is refused before it is read.
    /// One `open`, one `fstat` and the reads: a folder of 10,000 mapping files is read with nothing else asked.
    static func contents(unlessLink path: String, limit: Int) -> Contents {
        contents(opening: open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), limit: limit)
    }

    /// ``contents(unlessLink:limit:)`` of the file `name` in an open folder: opened by its name alone, so that the
    /// kernel does not walk the folder's whole path again for each of its files.
    static func contents(unlessLink name: String, in folder: OpenFolder, limit: Int) -> Contents {
        contents(opening: openat(folder.descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), limit: limit)
    }

    /// A folder held open while the files in it are read (``contents(unlessLink:in:limit:)``). Not opened when
    /// `path` is a symbolic link (nor when it is no folder): a folder replaced by a link after it was found is not
    /// followed out.
    final class OpenFolder {
        let descriptor: Int32

        init?(path: String) {
            descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
        }

        deinit { close(descriptor) }
    }

    private static func contents(opening fd: Int32, limit: Int) -> Contents {
        guard fd >= 0 else {
            let code = errno
            if code == ELOOP { return .link }
            if code == ENOENT || code == ENOTDIR { return .missing }
            return .unreadable(String(cString: strerror(code)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .unreadable(String(cString: strerror(errno))) }
        let kind = kind(of: info)
        guard case .regular(let size) = kind else { return .irregular(kind) }
        if size > limit { return .tooLarge(size) }
        // One byte more than the size, to see the end at once; a file that grows meanwhile is read to the limit.
        var data = Data(count: min(size, limit) + 1)
        var filled = 0
        while true {
            if filled == data.count {
                guard data.count <= limit else { return .tooLarge(filled) }
                data.count = min(data.count * 2, limit + 1)
            }
            let wanted = data.count - filled
            let count = data.withUnsafeMutableBytes { buffer in
                read(fd, buffer.baseAddress! + filled, wanted)
            }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                return .unreadable(String(cString: strerror(errno)))
            }
            filled += count
            // All the size `fstat` gave, and less than asked: the end, without a second call to be told so (a
            // file system that reads short before then is read on).
            if count < wanted, filled >= size { break }
        }
        data.count = filled
        return .data(data)
    }

    /// The files of the folder tree at `root` whose names `keep` keeps, as paths relative to it (`group/a.json`),
    /// in no particular order. Hidden files and folders are skipped, and so are folders reached through a symbolic
    /// link (a link to a file is listed: the caller checks where it leads). When the root holds many folders (a
    /// WireMock folder of 10,000 mappings in a hundred), they are walked on every core, each taking the next.
    /// `cores`: how many walk at most (this machine's, up to 8, unless a test asks).
    static func walk(_ root: String, cores: Int = min(ProcessInfo.processInfo.activeProcessorCount, 8),
                     keeping keep: @Sendable (String) -> Bool) -> [String] {
        let base = root.hasSuffix("/") ? root : root + "/"
        var (found, folders) = list(base: base, "", keeping: keep)
        guard folders.count >= 8, cores > 1 else {
            while let relative = folders.popLast() {
                let (files, more) = list(base: base, relative, keeping: keep)
                found += files
                folders += more
            }
            return found
        }
        let roots = folders
        let next = Locked(0)
        let results = Locked([[String]]())
        DispatchQueue.concurrentPerform(iterations: cores) { _ in
            var mine: [String] = []
            while let index = next.withLock({ taken -> Int? in
                guard taken < roots.count else { return nil }
                defer { taken += 1 }
                return taken
            }) {
                var pending = [roots[index]]
                while let relative = pending.popLast() {
                    let (files, more) = list(base: base, relative, keeping: keep)
                    mine += files
                    pending += more
                }
            }
            results.withLock { $0.append(mine) }
        }
        for files in results.current { found += files }
        return found
    }

    /// The files `keep` keeps and the folders in the folder `relative` (ending in `/`, or empty for the root) of
    /// `base`, as paths relative to `base`.
    private static func list(base: String, _ relative: String, keeping keep: (String) -> Bool) -> (files: [String], folders: [String]) {
        var files: [String] = []
        var folders: [String] = []
        guard let directory = opendir(base + relative) else { return (files, folders) }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) { String(cString: $0) }
            }
            if name.hasPrefix(".") { continue }
            let child = relative + name
            // d_type: 4 a folder, 10 a symbolic link, 0 unknown (some file systems do not say); the same on
            // Linux and Darwin.
            var type = entry.pointee.d_type
            if type == 0 {
                var info = stat()
                if lstat(base + child, &info) == 0 {
                    let format = info.st_mode & mode_t(S_IFMT)
                    type = format == mode_t(S_IFDIR) ? 4 : format == mode_t(S_IFLNK) ? 10 : 8
                }
            }
            if type == 4 {
                folders.append(child + "/")
            } else if keep(name) {
                files.append(child)
            }
        }
        return (files, folders)
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
