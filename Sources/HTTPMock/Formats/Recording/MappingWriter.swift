import Foundation
import _HTTPMockJSON

/// Writes recorded traffic as a mapping file (`recorded.mock.json`), one mock per distinct request with its
/// responses in the order they came.
enum MappingWriter {
    static let fileName = "recorded.mock.json"

    static func write(_ entries: [JournalEntry], to folder: URL, redaction: Redaction, appending: Bool) throws(HTTPMockError) {
        let file = folder.appendingPathComponent(fileName)
        try refuseLinkOut(file, folder: folder)
        var mocks: [JSONValue] = []
        if appending, FileManager.default.fileExists(atPath: file.path) {
            let data = try DefinitionFile.read(file, name: fileName, limit: FileSizeLimits.standard.definitions, knob: "definitions")
            guard case .object(let object)? = JSONValue(data: data) ?? JSONValue.permissive(data), case .array(let existing)? = object["mocks"] else {
                throw HTTPMockError(.invalidDefinition, "\(file.path): cannot add to it: it is not a mapping file with \"mocks\"")
            }
            mocks = existing
        }
        mocks += self.mocks(for: entries, redaction: redaction)
        try FileOutput.write(JSONValue.object(["mocks": .array(mocks)]).prettyData, to: file)
    }

    /// Throws when `file` is a symbolic link that leads outside `folder` (or nowhere): a recording never reads
    /// or writes a file outside the folder it was given.
    static func refuseLinkOut(_ file: URL, folder: URL) throws(HTTPMockError) {
        guard LocalFile.isSymbolicLink(file.path) else { return }
        let realFolder = LocalFile.realPath(folder.path) ?? folder.standardizedFileURL.path
        guard let real = LocalFile.realPath(file.path), LocalFile.realPath(real, isInside: realFolder) else {
            throw HTTPMockError(.invalidDefinition, "\(file.path) is a symbolic link that leads outside the recording folder \(folder.path) (to \(LocalFile.realPath(file.path) ?? "nothing")); remove the link, a recording is written only inside its folder")
        }
    }

    static func mocks(for entries: [JournalEntry], redaction: Redaction) -> [JSONValue] {
        var order: [String] = []
        var groups: [String: (request: [String: JSONValue], responses: [JSONValue])] = [:]
        for entry in entries {
            guard let outcome = entry.outcome else { continue }
            let request = self.request(entry.request, redaction: redaction)
            let key = String(decoding: JSONValue.object(request).data, as: UTF8.self)
            if groups[key] == nil { order.append(key); groups[key] = (request, []) }
            groups[key]!.responses.append(response(outcome, stream: entry.stream, redaction: redaction))
        }
        return order.map { key in
            let group = groups[key]!
            return .object(["request": .object(group.request), "responses": .array(group.responses)])
        }
    }

    private static func request(_ captured: CapturedRequest, redaction: Redaction) -> [String: JSONValue] {
        var request: [String: JSONValue] = [
            "method": .string(captured.method),
            "host": .string(captured.port.map { "\(captured.host):\($0)" } ?? captured.host),
            "path": .string(captured.path),
        ]
        var query: [String: [String?]] = [:]
        for item in captured.queryItems { query[item.name, default: []].append(item.value) }
        request["query"] = .object(query.mapValues { values -> JSONValue in
            if values == [nil] { return .object(["flag": .bool(true)]) }
            return .array(values.map { .string($0 ?? "") })
        }.merging(query.keys.filter { redaction.queryParameters.contains($0.lowercased()) }.map { ($0, JSONValue.object(["any": .bool(true)])) }) { _, any in any })
        if let body = captured.body, !body.isEmpty {
            let type = captured.headers["Content-Type"]
            let redacted = redaction.body(body, contentType: type)
            if let json = JSONValue(data: redacted), case .object = json {
                request["body"] = .object(["json": json, "wildcard": .string(redaction.placeholder)])
            } else if let text = String(data: redacted, encoding: .utf8) {
                request["body"] = .object(["equals": .string(text)])
            }
        }
        return request
    }

    private static func response(_ outcome: JournalEntry.Outcome, stream: StreamRecord?, redaction: Redaction) -> JSONValue {
        if let stream, stream.isWhole {
            // A streamed body: its parts, each after the time between it and the one before.
            let status = outcome.statusCode ?? stream.status
            guard case .response = outcome else { return self.response(outcome, stream: nil, redaction: redaction) }
            var response: [String: JSONValue] = ["status": .int(status)]
            let headers = redaction.recordedHeaders(stream.headers)
            if !headers.isEmpty { response["headers"] = .object(headers) }
            let type = stream.headers.first { $0.key.caseInsensitiveCompare("Content-Type") == .orderedSame }?.value
            var previous = 0.0
            response["parts"] = .array(stream.parts.map { part in
                let redacted = redaction.streamedPart(part.data, contentType: type)
                let after = max(0, ((part.offset - previous) * 1_000_000).rounded() / 1_000_000)
                previous = part.offset
                if let text = String(data: redacted, encoding: .utf8) {
                    return .object(["after": .double(after), "text": .string(text)])
                }
                return .object(["after": .double(after), "base64": .string(redacted.base64EncodedString())])
            })
            return .object(response)
        }
        switch outcome {
        case .failure(let error):
            return .object(["failure": .string(URLErrorName.describe(error))])
        case .response(let status, let headerValues, let body):
            var response: [String: JSONValue] = ["status": .int(status)]
            let headers = redaction.recordedHeaders(headerValues)
            if !headers.isEmpty { response["headers"] = .object(headers) }
            let type = headerValues.first { $0.key.caseInsensitiveCompare("Content-Type") == .orderedSame }?.value
            let redacted = redaction.body(body, contentType: type)
            if redacted.isEmpty {
                // no body
            } else if (type ?? "").contains("json"), let json = JSONValue(data: redacted) {
                response["json"] = json
            } else if let text = String(data: redacted, encoding: .utf8) {
                response["text"] = .string(text)
            } else {
                response["base64"] = .string(redacted.base64EncodedString())
            }
            return .object(response)
        }
    }
}
