#if CommandLineTool
import ArgumentParser
import Foundation
import HTTPMock
import HTTPMockOpenAPI

/// What a path given to `httpmock serve` holds.
enum SourceFormat: String, CaseIterable, ExpressibleByArgument {
    /// HTTPMock's own mapping files: a folder of `*.mock.json` (and their body files), or one such file.
    case mappings
    /// A Mockingbird bundle: a folder with a `bundle.json`.
    case mockingbird
    /// A HAR recording: a `.har` file (or a JSON file whose top level has `log`).
    case har
    /// A WireMock folder: `mappings/` (and `__files/`).
    case wiremock
    /// An OpenAPI document (3.0 or 3.1, YAML or JSON): every operation answered from it, as Prism answers.
    case openapi

    /// The format a path's contents say, or an error naming the path and what was looked for.
    static func detect(_ url: URL) throws(SourceError) -> SourceFormat {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw SourceError("\(url.path): no such file or folder")
        }
        let name = url.lastPathComponent.lowercased()
        if !isFolder.boolValue {
            if name.hasSuffix(".mock.json") { return .mappings }
            if name.hasSuffix(".har") { return .har }
            if name.hasSuffix(".json"), let data = FileManager.default.contents(atPath: url.path),
               let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
                if object["log"] != nil { return .har }
                if object["openapi"] != nil || object["swagger"] != nil { return .openapi }
            }
            if [".yaml", ".yml"].contains(where: name.hasSuffix), isOpenAPIYAML(url) { return .openapi }
            throw SourceError("\(url.path): not a mapping file (*.mock.json), a HAR file (*.har) nor an OpenAPI document (a YAML or JSON file with \"openapi\" at its top); name the format with --format")
        }
        let manager = FileManager.default
        if manager.fileExists(atPath: url.appendingPathComponent("bundle.json").path) { return .mockingbird }
        if isWireMockFolder(url) { return .wiremock }
        if let enumerator = manager.enumerator(atPath: url.path),
           enumerator.contains(where: { ($0 as? String)?.hasSuffix(".mock.json") == true }) {
            return .mappings
        }
        throw SourceError("\(url.path): found no bundle.json (Mockingbird), no mappings/ with __files/ or message-mappings/ (WireMock) and no *.mock.json (HTTPMock mapping files); name the format with --format")
    }

    /// A YAML file with `openapi:` (or `swagger:`) at its top level, among its first lines.
    private static func isOpenAPIYAML(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let head = String(decoding: handle.readData(ofLength: 64 * 1024), as: UTF8.self)
        return head.split(whereSeparator: \.isNewline).contains { line in
            line.hasPrefix("openapi:") || line.hasPrefix("swagger:") || line.hasPrefix("\"openapi\":") || line.hasPrefix("'openapi':")
        }
    }

    /// A folder with a `message-mappings/` folder, or a `mappings/` folder with `__files/` beside it or WireMock's
    /// plain `*.json` mappings in it.
    private static func isWireMockFolder(_ url: URL) -> Bool {
        let manager = FileManager.default
        let mappings = url.appendingPathComponent("mappings")
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: url.appendingPathComponent(HTTPMock.messageMappingsFolder).path, isDirectory: &isFolder),
           isFolder.boolValue { return true }
        guard manager.fileExists(atPath: mappings.path, isDirectory: &isFolder), isFolder.boolValue else { return false }
        if manager.fileExists(atPath: url.appendingPathComponent("__files").path) { return true }
        let names = (try? manager.contentsOfDirectory(atPath: mappings.path)) ?? []
        return names.contains { $0.hasSuffix(".json") && !$0.hasSuffix(".mock.json") }
    }
}

/// A path that cannot be served, said in one line naming it.
struct SourceError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The paths `httpmock serve` was given, read into one set of stubs that replaces the previous set in one step.
struct MockSources {
    let paths: [URL]
    /// `nil`: detected per path.
    let format: SourceFormat?
    /// Skip a file that cannot be read (naming it on standard error) instead of failing.
    let skipInvalid: Bool
    /// HAR files answer with the time each response (and each part of a stream) took when recorded.
    let replaysTiming: Bool
    /// The stubs each served WireMock mapping file gave, so that a change to one file replaces its stubs alone.
    private let tracked = TrackedFiles()

    init(paths: [URL], format: SourceFormat?, skipInvalid: Bool, replaysTiming: Bool = false) {
        self.paths = paths
        self.format = format
        self.skipInvalid = skipInvalid
        self.replaysTiming = replaysTiming
    }

    /// The root of the first WireMock folder among the paths (a folder holding `mappings/`, or a `mappings` folder
    /// itself), which the admin API reads the body files of its mappings from and saves them into.
    var wireMockFolder: URL? {
        for path in paths {
            guard (try? format ?? SourceFormat.detect(path)) == .wiremock else { continue }
            var isFolder: ObjCBool = false
            let manager = FileManager.default
            if manager.fileExists(atPath: path.appendingPathComponent("mappings").path, isDirectory: &isFolder), isFolder.boolValue {
                return path
            }
            if manager.fileExists(atPath: path.appendingPathComponent(HTTPMock.messageMappingsFolder).path, isDirectory: &isFolder),
               isFolder.boolValue {
                return path
            }
            if path.standardizedFileURL.lastPathComponent == "mappings", manager.fileExists(atPath: path.path, isDirectory: &isFolder),
               isFolder.boolValue {
                return path.standardizedFileURL.deletingLastPathComponent()
            }
        }
        return nil
    }

    /// The slot the served set occupies in the mock: each load replaces the one before.
    static let slot = "httpmock serve"

    /// What a load did.
    struct Outcome {
        var stubCount = 0
        /// Message stubs (a WireMock folder's `message-mappings/`).
        var messageStubCount = 0
        /// One line per skipped file or mapping, naming it and why.
        var skipped: [String] = []
        /// What is served but not as it should be (an OpenAPI example that breaks its own schema), one line each.
        var warnings: [String] = []
    }

    /// Reads every path, then registers them all, replacing the set served before. Throws (and changes nothing)
    /// when a path cannot be read and `skipInvalid` is off.
    @discardableResult
    func load(into mock: HTTPMock) throws -> Outcome {
        var outcome = Outcome()
        var prepared: [PreparedMocks] = []
        for path in paths {
            do {
                prepared += try read(path, mock: mock, outcome: &outcome)
            } catch {
                guard skipInvalid else { throw error }
                outcome.skipped.append("\(path.path): \(Self.describe(error))")
            }
        }
        tracked.replaceAll(try mock.registerTrackingFiles(prepared, slot: Self.slot))
        outcome.stubCount = prepared.reduce(0) { $0 + $1.stubCount }
        outcome.messageStubCount = prepared.reduce(0) { $0 + $1.messageStubCount }
        // The definitions as read are let go on another thread (the engine holds what it needs): taking apart
        // 10,000 of them took 2 ms before the server could start.
        let spent = prepared
        prepared = []
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(spent) {} }
        return outcome
    }

    /// After `changed` paths changed: when they are all mapping files of served WireMock folders (changed, added or
    /// deleted), reads those files alone and replaces their stubs, leaving the rest served as it is; otherwise
    /// everything is read again (``load(into:)``). Throws (and changes nothing) as ``load(into:)`` does.
    @discardableResult
    func reload(_ changed: Set<String>, into mock: HTTPMock) throws -> Outcome {
        let manager = FileManager.default
        var files: [(path: String, root: URL)] = []
        for path in changed.sorted() {
            var isFolder: ObjCBool = false
            // A folder's own stamp changes when a file in it comes or goes; the file is in `changed` itself.
            if manager.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue { continue }
            guard path.lowercased().hasSuffix(".json"), let root = wireMockRoot(of: path) else { return try load(into: mock) }
            files.append((path, root))
        }
        var outcome = Outcome()
        for (path, root) in files {
            let url = URL(fileURLWithPath: path)
            var prepared = PreparedMocks.empty(source: path)
            if manager.fileExists(atPath: path) {
                do {
                    // Held to its folder's rules, as when the folder is read whole: no symbolic link out of it.
                    prepared = try mock.prepareWireMockMappings(from: url, ranking: .mostRecentlyAdded, skippingInvalid: skipInvalid,
                                                                trackingFiles: true, inFolder: root)
                    outcome.skipped += prepared.skipped.map { "\(path): \($0.message)" }
                } catch {
                    guard skipInvalid else { throw error }
                    outcome.skipped.append("\(path): \(Self.describe(error))")
                }
            }
            let ids = try mock.replaceFile(tracked.stubs(of: path), with: prepared, slot: Self.slot)
            tracked.set(path, ids)
            outcome.stubCount += ids.count
        }
        return outcome
    }

    /// The root of the served WireMock folder under whose `mappings` folder `path` is (the folder that holds
    /// `mappings`), if it is under one.
    private func wireMockRoot(of path: String) -> URL? {
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        for root in paths {
            guard (try? format ?? SourceFormat.detect(root)) == .wiremock else { continue }
            let folder = root.standardizedFileURL
            let mappings = folder.lastPathComponent == "mappings" ? folder : folder.appendingPathComponent("mappings")
            if standardized.hasPrefix(mappings.path + "/") { return mappings.deletingLastPathComponent() }
        }
        return nil
    }

    /// Reads every path as ``load(into:)`` does, skipping nothing and registering nothing: how many stubs they hold
    /// and every problem found, one line each (`httpmock check`).
    func check(with mock: HTTPMock) -> Outcome {
        var outcome = Outcome()
        let checking = MockSources(paths: paths, format: format, skipInvalid: true, replaysTiming: replaysTiming)
        for path in paths {
            do {
                outcome.stubCount += try checking.read(path, mock: mock, outcome: &outcome).reduce(0) { $0 + $1.stubCount }
            } catch {
                outcome.skipped.append("\(path.path): \(Self.describe(error))")
            }
        }
        return outcome
    }

    /// An error's message without the `HTTPMock: ` its description starts with.
    private static func describe(_ error: any Error) -> String {
        (error as? HTTPMockError)?.message ?? "\(error)"
    }

    private func read(_ path: URL, mock: HTTPMock, outcome: inout Outcome) throws -> [PreparedMocks] {
        switch try format ?? SourceFormat.detect(path) {
        case .mappings:
            var isFolder: ObjCBool = false
            guard skipInvalid, FileManager.default.fileExists(atPath: path.path, isDirectory: &isFolder), isFolder.boolValue else {
                return [try mock.prepareMappings(from: path)]
            }
            var prepared: [PreparedMocks] = []
            for (file, result) in mock.prepareMappingFiles(in: path) {
                switch result {
                case .success(let mocks): prepared.append(mocks)
                case .failure(let error): outcome.skipped.append("\(file.path): \(error.message)")
                }
            }
            return prepared
        case .mockingbird:
            return [try mock.prepareMockingbirdBundle(at: path)]
        case .openapi:
            // Served at the root on any host, as Prism serves a document: its servers' hosts and base paths are not
            // part of the mock's URLs.
            let document = try OpenAPIDocument(contentsOf: path)
            outcome.warnings += document.warnings
            return [try mock.prepareOpenAPIDocument(document, options: OpenAPIMockOptions(serverURL: URL(string: "/")))]
        case .har:
            return [try mock.prepareHAR(at: path, options: HARReplayOptions(replaysTiming: replaysTiming))]
        case .wiremock:
            // Skipping is per mapping: one bad mapping in a file leaves the others of the file served.
            // Served as WireMock serves it: among equal priorities, the most recently added mapping answers.
            // Staged as it is read: a server's first load takes the stubs whole.
            let prepared = try mock.prepareWireMockMappings(from: path, ranking: .mostRecentlyAdded, skippingInvalid: skipInvalid,
                                                            trackingFiles: true, staging: true)
            outcome.skipped += prepared.skipped.map { "\(path.path): \($0.message)" }
            return [prepared]
        }
    }
}
/// The stubs of each served WireMock mapping file, by the file's standardized path.
final class TrackedFiles: Sendable {
    /// As registered, until a file changes and the table is first needed.
    private enum Files {
        case registered(FileStubs)
        case table([String: Set<StubID>])
    }

    private let files = Locked(Files.table([:]))

    func replaceAll(_ registered: FileStubs) { files.withLock { $0 = .registered(registered) } }

    func stubs(of path: String) -> Set<StubID> {
        let key = URL(fileURLWithPath: path).standardizedFileURL.path
        return withTable { $0[key] ?? [] }
    }

    func set(_ path: String, _ ids: Set<StubID>) {
        let key = URL(fileURLWithPath: path).standardizedFileURL.path
        withTable { $0[key] = ids.isEmpty ? nil : ids }
    }

    private func withTable<Result>(_ body: (inout [String: Set<StubID>]) -> Result) -> Result {
        files.withLock { files in
            var table: [String: Set<StubID>]
            switch files {
            case .registered(let registered): table = registered.byFile()
            case .table(let known): table = known
            }
            files = .table([:])
            defer { files = .table(table) }
            return body(&table)
        }
    }
}
#endif
