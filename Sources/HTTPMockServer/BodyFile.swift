#if Server
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A response's body file, opened when it is served and checked through the open descriptor: what was checked
/// when the stub was loaded may have changed since.
///
/// The path a stub holds is the file's real path, links resolved, checked to stay inside its folder (loaders) or
/// resolved at registration (``MockResponse/file(url:status:lifetime:delivery:headers:contentType:)``). A file
/// swapped for a symbolic link since, or a folder on its way swapped for one, would lead elsewhere: the file is
/// opened without following a link at its end (`O_NOFOLLOW`), and the descriptor's own path must be that real
/// path. A file deleted since, or replaced by something that is not a regular file, is refused too. Its size is
/// the descriptor's, read once, so the head promises what the file holds when it is sent.
struct BodyFile: @unchecked Sendable {  // reason: the handle moves from the thread pool that opens it to one event loop, and is used there only
    let handle: FileHandle
    let size: Int
    /// The file's path, for messages.
    let path: String

    /// Why a body file cannot be served, said for the 500 that answers instead.
    struct Refusal: Error {
        let message: String
    }

    /// Opens `url` for reading, as described above. Blocks: call it on a thread pool.
    static func open(_ url: URL) throws(Refusal) -> BodyFile {
        let path = url.path
        let fd = Self.openWithoutFollowing(path)
        guard fd >= 0 else {
            let reason: String
            switch errno {
            case ENOENT, ENOTDIR: reason = "it was deleted or moved since the stub was loaded"
            case ELOOP: reason = "it is now a symbolic link, which is not followed (copy the file there instead)"
            case EACCES, EPERM: reason = "it cannot be read any more (check its permissions)"
            default: reason = "it cannot be opened (\(String(cString: strerror(errno))))"
            }
            throw Refusal(message: "the body file \(path) cannot be served: \(reason)")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG) else {
            close(fd)
            throw Refusal(message: "the body file \(path) cannot be served: it is no longer a regular file")
        }
        if let opened = Self.path(of: fd), opened != path {
            close(fd)
            throw Refusal(message: "the body file \(path) cannot be served: a folder on its way was replaced by a symbolic link, and it leads to \(opened) (links are not followed when a file is served)")
        }
        return BodyFile(handle: FileHandle(fileDescriptor: fd, closeOnDealloc: true), size: Int(info.st_size), path: path)
    }

    /// `open(2)` for reading, not following a link at the end of `path`, and not waiting on a named pipe.
    private static func openWithoutFollowing(_ path: String) -> Int32 {
        let fd = openFile(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return fd }
        // Reads of a regular file never wait anyway; the flag was only for the open.
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return fd
    }

    /// The path the descriptor `fd` was opened at, links resolved, as the kernel knows it; `nil` where it cannot
    /// say.
    private static func path(of fd: Int32) -> String? {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #elseif canImport(Darwin)
        var buffer = [CChar](repeating: 0, count: Int(MAXPATHLEN))
        guard fcntl(fd, F_GETPATH, &buffer) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
        return nil
        #endif
    }
}

/// `open(2)`, under a name that does not clash with ``BodyFile/open(_:)``.
private func openFile(_ path: String, _ flags: Int32) -> Int32 {
    open(path, flags)
}
#endif
