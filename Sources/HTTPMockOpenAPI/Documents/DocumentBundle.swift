#if OpenAPI
import Foundation
import HTTPMock
import _HTTPMockJSON

/// A document and the sibling files its `$ref`s name, read into one value in which every `$ref` points inside it:
/// each other file is placed under `x-httpmock-files` (`#/x-httpmock-files/1/components/schemas/Pet`), so that
/// one JSON Schema validator resolves every reference, and each file is read once however often it is named (a
/// cycle of files ends there).
struct DocumentBundle: Sendable {
    static let filesKey = "x-httpmock-files"
    /// How many files one document may name, itself included (DigitalOcean's public description names about 2,900).
    static let fileLimit = 10_000

    /// The main file's value, with the other files under ``filesKey``.
    let root: JSONValue
    /// Each file's path relative to the main file's folder, the main file first.
    let files: [String]

    /// Where `pointer` (into ``root``) is, in the words of the file that holds it: `common.yaml at /components/…`.
    func place(_ pointer: String) -> String {
        let prefix = "/" + Self.filesKey + "/"
        if pointer.hasPrefix(prefix) {
            let rest = pointer.dropFirst(prefix.count)
            let index = Int(rest.prefix { $0 != "/" }) ?? 0
            let inner = rest.drop { $0 != "/" }
            return "\(files.indices.contains(index) ? files[index] : files[0]) at \(inner.isEmpty ? "the top level" : String(inner))"
        }
        return "\(files[0]) at \(pointer.isEmpty ? "the top level" : pointer)"
    }

    /// `root` with each `properties` (or `patternProperties`) that is only a `$ref` replaced by what it names: a map of
    /// schemas kept in another file, as documents split by hand write it (DigitalOcean's does), which a JSON Schema
    /// validator would otherwise read as a property named `$ref`. References that lead to other such references are
    /// followed a few times at most.
    static func inliningReferencedMaps(_ root: JSONValue) -> JSONValue {
        func inline(_ value: JSONValue, depth: Int) -> JSONValue {
            guard depth < 600 else { return value }
            switch value {
            case .array(let elements):
                return .array(elements.map { inline($0, depth: depth + 1) })
            case .object(var members):
                for (key, member) in members {
                    var replaced = member
                    if key == "properties" || key == "patternProperties" {
                        for _ in 0..<8 {
                            guard case .object(let map) = replaced, map.count == 1, case .string(let reference)? = map["$ref"],
                                  let pointer = JSONPointer.fromReference(reference), let target = JSONPointer.value(at: pointer, in: root),
                                  case .object = target else { break }
                            replaced = target
                        }
                    }
                    members[key] = inline(replaced, depth: depth + 1)
                }
                return .object(members)
            default:
                return value
            }
        }
        return inline(root, depth: 0)
    }

    /// Reads the file at `url` and every file its references name; `problems` gets one line for each reference
    /// that cannot be followed and each file that cannot be read.
    static func read(_ url: URL, problems: inout [String]) -> DocumentBundle? {
        var reader = Reader(main: url.standardizedFileURL)
        return reader.read(problems: &problems)
    }

    private struct Reader {
        let folder: URL
        let mainName: String
        var paths: [String] = []
        var index: [String: Int] = [:]
        var values: [JSONValue] = []

        init(main: URL) {
            folder = main.deletingLastPathComponent()
            mainName = main.lastPathComponent
        }

        mutating func read(problems: inout [String]) -> DocumentBundle? {
            _ = fileIndex(mainName)
            var next = 0
            var failedMain = false
            while next < paths.count {
                let relative = paths[next]
                let url = folder.appendingPathComponent(relative)
                let data: Data
                do {
                    data = try Data(contentsOf: url)
                } catch {
                    let exists = FileManager.default.fileExists(atPath: url.path)
                    problems.append("\(relative): \(exists ? "it cannot be read" : "there is no such file") (\(url.path))")
                    if next == 0 { failedMain = true }
                    values.append(.null)
                    next += 1
                    continue
                }
                switch DocumentText.read(data) {
                case .failure(let reason):
                    problems.append("\(relative): \(reason)")
                    if next == 0 { failedMain = true }
                    values.append(.null)
                case .success(let value):
                    values.append(rewrite(value, file: next, at: "", depth: 0, problems: &problems))
                }
                next += 1
            }
            guard !failedMain else { return nil }
            var root = values[0]
            if values.count > 1, case .object(var members) = root {
                members[DocumentBundle.filesKey] = .array(values)
                root = .object(members)
            }
            return DocumentBundle(root: DocumentBundle.inliningReferencedMaps(root), files: paths)
        }

        /// The index of the file at `relative` (a path from the main file's folder), queued to be read if new.
        mutating func fileIndex(_ relative: String) -> Int? {
            if let known = index[relative] { return known }
            guard paths.count < DocumentBundle.fileLimit else { return nil }
            index[relative] = paths.count
            paths.append(relative)
            return paths.count - 1
        }

        /// `value` from file `file` with its references pointing into the bundle.
        mutating func rewrite(_ value: JSONValue, file: Int, at pointer: String, depth: Int, problems: inout [String]) -> JSONValue {
            guard depth < 600 else { return value }
            switch value {
            case .array(let elements):
                return .array(elements.enumerated().map {
                    rewrite($1, file: file, at: JSONPointer.child(pointer, String($0)), depth: depth + 1, problems: &problems)
                })
            case .object(var members):
                for (key, member) in members where key != "$ref" {
                    members[key] = rewrite(member, file: file, at: JSONPointer.child(pointer, key), depth: depth + 1, problems: &problems)
                }
                if case .string(let reference) = members["$ref"] {
                    if let rewritten = self.reference(reference, file: file, at: JSONPointer.child(pointer, "$ref"), problems: &problems) {
                        members["$ref"] = .string(rewritten)
                    }
                }
                return .object(members)
            default:
                return value
            }
        }

        /// A reference made to point into the bundle; `nil` (and a problem) when it cannot be.
        mutating func reference(_ reference: String, file: Int, at pointer: String, problems: inout [String]) -> String? {
            let here = "\(paths[file]) at \(pointer)"
            let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let address = String(parts[0])
            let fragment = parts.count > 1 ? String(parts[1]) : ""
            if !fragment.isEmpty, !fragment.hasPrefix("/") {
                problems.append("\(here): \"$ref\": \"\(reference)\" has a fragment that is not a JSON pointer; write \"#/components/…\"")
                return nil
            }
            if address.isEmpty {
                return file == 0 ? reference : "#/\(DocumentBundle.filesKey)/\(file)\(fragment)"
            }
            if address.contains("://") || address.hasPrefix("//") {
                problems.append("\(here): \"$ref\": \"\(reference)\" names a document on the network, which is never fetched; save it beside the document and refer to it by its file name")
                return nil
            }
            let base = URL(fileURLWithPath: paths[file], relativeTo: folder).deletingLastPathComponent()
            let target = URL(fileURLWithPath: address.removingPercentEncoding ?? address, relativeTo: base).standardizedFileURL
            let root = folder.standardizedFileURL.path
            let prefix = root.hasSuffix("/") ? root : root + "/"
            guard target.path.hasPrefix(prefix) else {
                problems.append("\(here): \"$ref\": \"\(reference)\" leads out of the document's folder (\(root)); files a document names must be inside its folder")
                return nil
            }
            let relative = String(target.path.dropFirst(prefix.count))
            guard let index = fileIndex(relative) else {
                problems.append("\(here): \"$ref\": \"\(reference)\" would be file \(DocumentBundle.fileLimit + 1) of the document, more than it may name")
                return nil
            }
            return index == 0 ? "#\(fragment)" : "#/\(DocumentBundle.filesKey)/\(index)\(fragment)"
        }
    }
}
#endif
