import Foundation
import HTTPMock

/// Where a cassette is and how it is played: what ``Testing/Trait/cassette(_:mode:folder:format:redaction:matchesBody:reportsUnusedEntries:_:)``
/// and ``withCassette(_:mode:folder:format:redaction:matchesBody:reportsUnusedEntries:isolation:function:fileID:filePath:line:column:_:)``
/// are given.
public struct Cassette: Sendable {
    /// The cassette's name: its file is `<folder>/<name>.har` (or the folder `<folder>/<name>/` for
    /// ``CassetteFormat/wireMock``). It may name a subfolder (`"checkout/pay"`), never one outside `folder`.
    public var name: String
    /// The folder of cassettes: a path relative to the folder of the test's source file, or an absolute path.
    /// Default `Cassettes`.
    public var folder: String
    /// The mode; ``CassetteMode/automatic`` (the default) leaves it to the environment. The environment variable
    /// ``CassetteMode/environmentVariable`` overrides it for a whole run.
    public var mode: CassetteMode
    /// HAR (the default) or a WireMock folder.
    public var format: CassetteFormat
    /// What is blanked out before anything is written. Default `Redaction.default`.
    public var redaction: Redaction
    /// Whether a request must carry the recorded body to get the recorded answer (JSON compared as JSON, a
    /// redacted field matching any value). Default `true`.
    public var matchesBody: Bool
    /// Report the recorded answers no request asked for when the test ends, so stale entries are found.
    /// Default `false`.
    public var reportsUnusedEntries: Bool

    /// A cassette description; the file is found when a test uses it.
    public init(_ name: String, folder: String = "Cassettes", mode: CassetteMode = .automatic, format: CassetteFormat = .har,
                redaction: Redaction = .default, matchesBody: Bool = true, reportsUnusedEntries: Bool = false) {
        self.name = name
        self.folder = folder
        self.mode = mode
        self.format = format
        self.redaction = redaction
        self.matchesBody = matchesBody
        self.reportsUnusedEntries = reportsUnusedEntries
    }

    /// The cassette's file (HAR) or folder (WireMock), for a test whose source file is `sourceFile`.
    func location(besideSourceFile sourceFile: String) throws(CassetteError) -> URL {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        if name.isEmpty || name.hasPrefix("/") || parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) {
            throw CassetteError("the cassette name \"\(name)\" must be a relative name inside its folder (letters, digits, \"/\" between subfolders; no \"..\", no empty part); rename it")
        }
        let base: URL = folder.hasPrefix("/")
            ? URL(fileURLWithPath: folder, isDirectory: true)
            : URL(fileURLWithPath: sourceFile).deletingLastPathComponent().appendingPathComponent(folder, isDirectory: true)
        switch format {
        case .har:
            return name.lowercased().hasSuffix(".har") ? base.appendingPathComponent(name) : base.appendingPathComponent(name + ".har")
        case .wireMock:
            return base.appendingPathComponent(name, isDirectory: true)
        }
    }

    /// A file name made of a test's name: `fetchUser()` becomes `fetchUser`, other characters `-`.
    static func fileName(ofTest name: String) -> String {
        let bare = name.firstIndex(of: "(").map { String(name[..<$0]) } ?? name
        let cleaned = String(bare.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." ? $0 : "-" })
        return cleaned.isEmpty ? "test" : cleaned
    }
}
