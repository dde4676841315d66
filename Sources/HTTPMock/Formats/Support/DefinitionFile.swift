import Foundation
import _HTTPMockJSON

/// Reads and decodes the JSON files of a mock definition (a bundle, a mapping, a HAR), turning every problem into
/// an ``HTTPMockError`` that names the file and where in it the problem is.
enum DefinitionFile {
    /// Decodes `T` from the file at `url`; `name` is how messages call the file. A file larger than `limit`
    /// bytes is refused before it is read.
    static func decode<T: Decodable>(_ type: T.Type, from url: URL, name: String,
                                     limit: Int = FileSizeLimits.standard.definitions) throws(HTTPMockError) -> T {
        let data = try read(url, name: name, limit: limit, knob: "definitions")
        return try decode(type, from: data, name: name)
    }

    /// The bytes of the file at `url`, or an error naming it. The file's type and size are checked before it is
    /// opened: a folder, a named pipe (which would block the read for ever) or a device is refused, and so is a
    /// file larger than `limit` bytes (`knob` names the field of ``HTTPMock/fileSizeLimits`` that raises it).
    static func read(_ url: URL, name: String, limit: Int, knob: String) throws(HTTPMockError) -> Data {
        switch LocalFile.kind(at: url.path) {
        case .missing:
            throw HTTPMockError(.missingFile, "\(name): no file at \(url.path)")
        case .regular(let size):
            if size > limit { throw tooLarge(name: name, path: url.path, size: size, limit: limit, knob: knob) }
        case let kind:
            throw HTTPMockError(.missingFile, "\(name): \(url.path) is \(kind.irregularName ?? "not a file"), not a regular file; put a file there")
        }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw HTTPMockError(.missingFile, "\(name): \(url.path) cannot be read (\(error.localizedDescription)); check its permissions")
        }
    }

    /// The bytes of the file at `path`, as ``read(_:name:limit:knob:)`` reads them but without following a symbolic
    /// link at its end: `nil` for a link, whose destination the caller checks before reading it.
    static func read(unlessLink path: String, name: String, limit: Int, knob: String) throws(HTTPMockError) -> Data? {
        try read(LocalFile.contents(unlessLink: path, limit: limit), path: path, name: name, limit: limit, knob: knob)
    }

    /// ``read(unlessLink:name:limit:knob:)`` of the file `leaf` in `folder`, held open (`path` names it in messages).
    static func read(unlessLink leaf: String, in folder: LocalFile.OpenFolder, path: String, name: String, limit: Int,
                     knob: String) throws(HTTPMockError) -> Data? {
        try read(LocalFile.contents(unlessLink: leaf, in: folder, limit: limit), path: path, name: name, limit: limit, knob: knob)
    }

    private static func read(_ contents: LocalFile.Contents, path: String, name: String, limit: Int,
                             knob: String) throws(HTTPMockError) -> Data? {
        switch contents {
        case .data(let data): return data
        case .link: return nil
        case .missing: throw HTTPMockError(.missingFile, "\(name): no file at \(path)")
        case .tooLarge(let size): throw tooLarge(name: name, path: path, size: size, limit: limit, knob: knob)
        case .irregular(let kind):
            throw HTTPMockError(.missingFile, "\(name): \(path) is \(kind.irregularName ?? "not a file"), not a regular file; put a file there")
        case .unreadable(let reason):
            throw HTTPMockError(.missingFile, "\(name): \(path) cannot be read (\(reason)); check its permissions")
        }
    }

    private static func tooLarge(name: String, path: String, size: Int, limit: Int, knob: String) -> HTTPMockError {
        HTTPMockError(.invalidDefinition, "\(name): \(path) is \(LocalFile.describeSize(size)) (\(size) bytes), more than the limit of \(LocalFile.describeSize(limit)) for \(knob == "definitions" ? "definition files" : "templated body files"); split the file, or raise the limit on the mock that loads it: mock.fileSizeLimits.\(knob) = \(size)")
    }

    /// Decodes `T` from `data`. `lenient`: JSON with comments, single quotes and trailing commas is read too (JSON5,
    /// as WireMock's parser allows them); only strict JSON is checked for keys written twice.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data, name: String, lenient: Bool = false) throws(HTTPMockError) -> T {
        // Strict JSON read as a JSONValue takes the fast path; anything else (or a file it refuses) the slow one,
        // which also says what is wrong.
        if type == JSONValue.self, let value = JSONValue.parse(data) as? T { return value }
        do {
            let value: T
            do {
                value = try JSONDecoder().decode(type, from: data)
            } catch let error as DecodingError {
                // Only UTF-8 text goes to the JSON5 reader: Foundation's stops the process on some bytes that are not.
                guard lenient, case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
                      String(data: data, encoding: .utf8) != nil, !hasLeadingPointNumber(data) else { throw error }
                let decoder = JSONDecoder()
                decoder.allowsJSON5 = true
                guard let relaxed = try? decoder.decode(type, from: data) else { throw error }
                return relaxed
            }
            if let duplicate = DuplicateKeys.find(in: data) {
                let (line, column) = JSONSyntax.position(ofByte: duplicate.offset, in: data)
                throw HTTPMockError(.invalidDefinition, "\(name) at \(duplicate.path): the key \"\(duplicate.key)\" appears twice in the same object (again at line \(line), column \(column)); keep one of them")
            }
            return value
        } catch let error as HTTPMockError {
            throw error
        } catch let error as DecodingError {
            throw describe(error, in: data, name: name)
        } catch {
            throw HTTPMockError(.invalidDefinition, "\(name): \(error)")
        }
    }

    /// A message for a decoding error: the line and column for a syntax error, the key path for a wrong shape.
    static func describe(_ error: DecodingError, in data: Data, name: String) -> HTTPMockError {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            if JSONSyntax.isValid(data) {
                // Valid JSON the decoder still refused without saying where: a value of the wrong kind that no
                // check of ours named (numbers are checked where the formats take them).
                return HTTPMockError(.invalidDefinition, "\(name): the JSON is well-formed, but a value has a kind the format does not take there (such as a number with a fraction, or too large, where a whole number is expected); check the numbers in it")
            }
            let (location, detail) = JSONSyntax.locate(in: data)
            return HTTPMockError(.invalidDefinition, "\(name) \(location): the JSON is malformed (\(detail)); fix the syntax there")
        case .dataCorrupted(let context):
            return HTTPMockError(.invalidDefinition, "\(name) at \(KeyPath.describe(context.codingPath)): \(context.debugDescription)")
        case .keyNotFound(let key, let context):
            return HTTPMockError(.invalidDefinition, "\(name) at \(KeyPath.describe(context.codingPath)): the required key \"\(key.stringValue)\" is missing; add it")
        case .typeMismatch(let type, let context):
            return HTTPMockError(.invalidDefinition, "\(name) at \(KeyPath.describe(context.codingPath)): expected \(KeyPath.jsonName(of: type)) (\(context.debugDescription))")
        case .valueNotFound(let type, let context):
            return HTTPMockError(.invalidDefinition, "\(name) at \(KeyPath.describe(context.codingPath)): expected \(KeyPath.jsonName(of: type)) but found null")
        @unknown default:
            return HTTPMockError(.invalidDefinition, "\(name): \(error)")
        }
    }
}

/// Key paths of decoding errors, written as in JavaScript: `[2].response.code`.
enum KeyPath {
    static func describe(_ path: [any CodingKey]) -> String {
        if path.isEmpty { return "the top level" }
        var text = ""
        for key in path {
            if let index = key.intValue, !(key is NamedKey) { text += "[\(index)]" } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }

    static func jsonName(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default:
            "\(type)".hasPrefix("Array") ? "an array" : "\(type)".hasPrefix("Dictionary") ? "an object" : "a value of type \(type)"
        }
    }
}

/// A coding key for any string, for containers whose keys are not known in advance.
struct NamedKey: CodingKey, Hashable {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}

extension Decoder {
    /// Throws when the object being decoded has a key outside `known`, naming it and listing the known ones:
    /// a misspelt key in a mapping file is an error, never silently ignored.
    func rejectUnknownKeys(_ known: [String]) throws {
        let container = try container(keyedBy: NamedKey.self)
        for key in container.allKeys where !known.contains(key.stringValue) {
            let suggestion = known.first { $0.lowercased() == key.stringValue.lowercased() }.map { " (did you mean \"\($0)\"?)" } ?? ""
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "unknown key \"\(key.stringValue)\"\(suggestion); the keys here are: \(known.joined(separator: ", "))"
            )
        }
    }
}

/// Whether `data` holds a number written from its point (`.5`, JSON5's): Foundation's JSON5 reader stops the process
/// on some of them (`.98999…0153`), so such a file gets the strict reader's error instead.
private func hasLeadingPointNumber(_ data: Data) -> Bool {
    var previous: UInt8 = 0
    var index = data.startIndex
    while index < data.endIndex {
        let byte = data[index]
        let next = data.index(after: index) < data.endIndex ? data[data.index(after: index)] : 0
        if byte == UInt8(ascii: "."), (48...57).contains(next), !(48...57).contains(previous) { return true }
        previous = byte
        index = data.index(after: index)
    }
    return false
}
