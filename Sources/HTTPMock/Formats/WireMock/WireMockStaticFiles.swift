import Foundation

/// The files of a WireMock folder's `__files` served at their own path to a `GET` no mapping answers, as WireMock's
/// standalone server serves them (tried with WireMock 2.35.1): `__files/docs/a.txt` at `/docs/a.txt` (and at
/// `/__files/docs/a.txt`), the query ignored; a folder by its `index.json`, else its `index.html`, with or without a trailing `/`, and refused (403)
/// without either; the `Content-Type` from the name's extension, `application/json` for one it does not know.
/// Nothing outside `__files` is ever read: a path that climbs above it, or a link that leads out of it, is no file.
/// Visible to the package's modules only (HTTPMockServer).
package enum WireMockStaticFiles {
    /// What a path names in `__files`.
    package enum Lookup: Equatable, Sendable {
        /// A regular file to send, whole.
        case file(URL, size: Int, contentType: String)
        /// A folder with neither `index.json` nor `index.html` (WireMock answers 403).
        case folderWithoutIndex
        /// Nothing: the request gets the usual 404.
        case none
    }

    /// What `url`'s path names inside `filesFolder`.
    /// - Parameters:
    ///   - url: the request's URL; its path is percent-decoded, and `.` and `..` applied.
    ///   - filesFolder: the `__files` folder of the WireMock folder served.
    package static func lookup(_ url: URL, in filesFolder: URL) -> Lookup {
        var written = RelativeURL(url).path
        // WireMock's server also serves them under their folder's own name: `/__files/docs/a.txt`.
        if written == "/__files" || written.hasPrefix("/__files/") { written = String(written.dropFirst("/__files".count)) }
        guard let decoded = written.removingPercentEncoding, !decoded.contains("\0"),
              let realRoot = LocalFile.realPath(filesFolder.standardizedFileURL.path) else { return .none }
        var segments: [Substring] = []
        for segment in decoded.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..":
                if segments.isEmpty { return .none }
                segments.removeLast()
            default: segments.append(segment)
            }
        }
        let path = ([realRoot] + segments.map(String.init)).joined(separator: "/")
        guard let real = LocalFile.realPath(path), real == realRoot || LocalFile.realPath(real, isInside: realRoot) else { return .none }
        switch LocalFile.kind(at: real) {
        case .regular(let size):
            // A file named with a trailing `/` is not found, as in WireMock.
            if written.hasSuffix("/") { return .none }
            return .file(URL(fileURLWithPath: real), size: size, contentType: contentType(of: real))
        case .directory:
            for index in ["index.json", "index.html"] {
                let candidate = real + "/" + index
                if let inner = LocalFile.realPath(candidate), LocalFile.realPath(inner, isInside: realRoot),
                   case .regular(let size) = LocalFile.kind(at: inner) {
                    return .file(URL(fileURLWithPath: inner), size: size, contentType: contentType(of: inner))
                }
            }
            return .folderWithoutIndex
        default:
            return .none
        }
    }

    /// The media type WireMock's server gives a file with this name (no charset).
    static func contentType(of path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "application/json" }
        switch name[name.index(after: dot)...].lowercased() {
        case "txt": return "text/plain"
        case "html", "htm": return "text/html"
        case "js": return "application/javascript"
        case "class": return "application/java-vm"
        case "bin", "exe", "so", "dll": return "application/octet-stream"
        case "json", "css", "csv", "xml", "pdf", "zip", "gz", "png", "jpg", "jpeg", "gif", "svg", "ico", "wasm", "mp4", "mp3":
            return ContentType.infer(fromExtension: String(name[name.index(after: dot)...]))
                .split(separator: ";").first.map(String.init) ?? "application/json"
        default: return "application/json"
        }
    }
}
