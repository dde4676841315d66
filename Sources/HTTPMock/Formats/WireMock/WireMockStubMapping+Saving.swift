import Foundation
import _HTTPMockJSON

extension WireMockStubMapping {
    /// Writes each mapping to `<root>/mappings/<id>.json`, as WireMock saves the mappings it was given over its admin
    /// API, so that loading `root` again serves them. Writing a mapping again replaces its file. A mapping with the id
    /// of the mapping of a file of its own (one edited over the admin API) is written into that file, so the folder
    /// never holds one id twice; one of a file of several mappings is refused, as WireMock refuses it (nothing is
    /// written then).
    ///
    /// Nothing is written outside `root/mappings`: when `mappings` is a symbolic link that leads out of `root`, this
    /// throws before writing. The file names are the mappings' UUIDs, so no name can lead elsewhere, and each file is
    /// written whole (a new file moved into place) rather than through a link that may stand in its place.
    ///
    /// - Returns: the files written, in the order of `mappings`.
    @discardableResult
    package static func save(_ mappings: [WireMockStubMapping], inRoot root: URL) throws(HTTPMockError) -> [URL] {
        let root = root.standardizedFileURL
        guard LocalFile.kind(at: root.path) == .directory, let realRoot = LocalFile.realPath(root.path) else {
            throw HTTPMockError(.missingFile, "WireMock mappings: cannot save into \(root.path): it is not a folder; create it, or name the WireMock root folder")
        }
        let folder = root.appendingPathComponent("mappings")
        switch LocalFile.kind(at: folder.path) {
        case .missing:
            if LocalFile.isSymbolicLink(folder.path) {
                throw HTTPMockError(.missingFile, "WireMock mappings: \(folder.path) is a symbolic link to nothing; remove it, mappings are saved only inside \(root.path)")
            }
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            } catch {
                throw HTTPMockError(.missingFile, "WireMock mappings: could not create \(folder.path): \(error.localizedDescription)")
            }
        case .directory:
            break
        case let kind:
            throw HTTPMockError(.missingFile, "WireMock mappings: \(folder.path) is \(kind.irregularName ?? "a file"), not a folder; move it away to save mappings there")
        }
        guard let realFolder = LocalFile.realPath(folder.path), LocalFile.realPath(realFolder, isInside: realRoot) else {
            throw HTTPMockError(.missingFile, "WireMock mappings: \(folder.path) leads outside \(root.path) (to \(LocalFile.realPath(folder.path) ?? "nothing")); mappings are saved only inside the WireMock folder, so replace the link with a folder")
        }
        // A mapping that replaced one of the folder's files' mappings (edited over the admin API) goes back into that
        // file, in its place, so that the folder holds it once; the others go to `mappings/<id>.json`.
        let listed = listed(inFolder: root)
        var fileOf: [UUID: String] = [:]
        for (mapping, file) in listed where fileOf[mapping.id] == nil { fileOf[mapping.id] = file }
        let replacing = Dictionary(mappings.filter { fileOf[$0.id] != nil }.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        // As in WireMock, a file that holds several mappings is read-only: written again, it would hold the others as
        // HTTPMock writes JSON, not as they were written. Refused before anything is written.
        let shared = Dictionary(grouping: listed, by: \.file).filter { $0.value.count > 1 }
        if let (id, name) = replacing.keys.compactMap({ id in fileOf[id].map { (id, $0) } }).sorted(by: { $0.1 < $1.1 }).first(where: { shared[$0.1] != nil }) {
            throw HTTPMockError(.invalidDefinition, "WireMock mappings: nothing saved: mapping \(id.lowercasedText), changed over the admin API, is one of the \(shared[name]!.count) mappings of \(name), and a file of several mappings is read-only, as in WireMock; edit that file, or move the mapping into a file of its own and load the folder again")
        }
        var written: [URL] = []
        var rewritten = Set<String>()
        for mapping in mappings {
            if let name = fileOf[mapping.id] {
                let file = root.appendingPathComponent(name)
                guard rewritten.insert(name).inserted else { continue }
                guard let realParent = LocalFile.realPath(file.deletingLastPathComponent().path),
                      realParent == realFolder || LocalFile.realPath(realParent, isInside: realFolder) else {
                    throw HTTPMockError(.missingFile, "WireMock mappings: \(name) leads outside \(folder.path); mappings are saved only inside it")
                }
                let held = listed.filter { $0.file == name }.map { replacing[$0.mapping.id] ?? $0.mapping }
                let json: JSONValue = held.count == 1 ? .object(held[0].object) : .object(["mappings": .array(held.map { .object($0.object) })])
                try FileOutput.write(json.prettyData, to: file)
                written.append(file)
                continue
            }
            let file = folder.appendingPathComponent(mapping.id.lowercasedText + ".json")
            try FileOutput.write(JSONValue.object(mapping.object).prettyData, to: file)
            written.append(file)
        }
        return written
    }
}
