import Foundation
import _HTTPMockJSON

/// Turns the other formats HTTPMock reads into WireMock folders (`httpmock convert`): HAR files through the same
/// writer as recordings, Mockingbird bundles entry by entry, HTTPMock's own mapping files mock by mock. The folder answers the requests of the source the way
/// the source does, and each conversion adds to it (a mapping file per stub, named by a new UUID).
package enum WireMockConversion {
    /// What one conversion wrote.
    package struct Outcome: Sendable, Equatable {
        package var mappings = 0
        package var files = 0
        /// What the folder says differently from its source, one line each, naming the mock.
        package var notes: [String] = []

        package init(mappings: Int = 0, files: Int = 0, notes: [String] = []) {
            self.mappings = mappings
            self.files = files
            self.notes = notes
        }
    }

    /// A HAR's entries as WireMock mappings: requests that repeat as a scenario, answered in the recorded order, the
    /// last one again afterwards (as HAR replay does); secrets redacted.
    package static func convertHAR(at url: URL, into root: URL, redaction: Redaction = .default) throws(HTTPMockError) -> Outcome {
        let har = try DefinitionFile.decode(HAR.self, from: url, name: url.lastPathComponent, limit: FileSizeLimits.standard.definitions)
        var entries: [JournalEntry] = []
        for (index, entry) in har.log.entries.enumerated() {
            guard let requestURL = URL(string: entry.request.url), requestURL.host != nil else {
                throw HTTPMockError(.invalidDefinition, "\(url.lastPathComponent) at log.entries[\(index)].request.url: \"\(entry.request.url)\" is not an absolute URL with a host")
            }
            var headers = HeaderFields()
            for pair in entry.request.headers where !pair.name.hasPrefix(":") { headers.add(pair.name, pair.value) }
            let request = CapturedRequest(method: entry.request.method.uppercased(), url: requestURL, headers: headers, body: entry.request.body)
            let outcome: JournalEntry.Outcome
            if entry.response.status == 0 {
                outcome = .failure(URLError(URLErrorName.code(named: entry.response.error ?? "") ?? .networkConnectionLost))
            } else {
                var responseHeaders: [String: String] = [:]
                for pair in entry.response.headers where !pair.name.hasPrefix(":") { responseHeaders[pair.name] = pair.value }
                let content = entry.response.content
                let body = content.text.map { text in
                    content.encoding == "base64" ? (Data(base64Encoded: text, options: .ignoreUnknownCharacters) ?? Data()) : Data(text.utf8)
                } ?? Data()
                if !content.mimeType.isEmpty, !responseHeaders.keys.contains(where: { $0.caseInsensitiveCompare("Content-Type") == .orderedSame }) {
                    responseHeaders["Content-Type"] = content.mimeType
                }
                outcome = .response(status: entry.response.status, headers: responseHeaders, body: body)
            }
            entries.append(JournalEntry(id: index, request: request, receivedAt: Date(), resolution: .passedThrough, outcome: outcome))
        }
        let before = count(in: root)
        try WireMockRecordingWriter.write(entries, to: root, redaction: redaction, appending: true)
        let after = count(in: root)
        return Outcome(mappings: after.mappings - before.mappings, files: after.files - before.files)
    }

    /// A Mockingbird bundle's entries as WireMock mappings: each answers for ever, the first of the bundle winning
    /// where several match (a higher `priority`); response files are copied into `__files`.
    package static func convertMockingbird(at folder: URL, into root: URL) throws(HTTPMockError) -> Outcome {
        let data = try DefinitionFile.read(folder.appendingPathComponent("bundle.json"), name: "bundle.json",
                                           limit: FileSizeLimits.standard.definitions, knob: "definitions")
        let bundle = try DefinitionFile.decode(MockingbirdBundle.self, from: data, name: "bundle.json")
        let sources = FolderPath(root: folder)
        let mappingsFolder = root.appendingPathComponent("mappings", isDirectory: true)
        let filesFolder = root.appendingPathComponent("__files", isDirectory: true)
        for folder in [mappingsFolder, filesFolder] { try MappingWriter.refuseLinkOut(folder, folder: root) }
        var outcome = Outcome()
        var seen = Set<String>()
        for (index, entry) in bundle.entries.enumerated() {
            let place = "bundle.json at [\(index)]"
            let route = try MockingbirdBundle.Route(entry.request.url, place: place + ".request.url")
            let method = (entry.request.method ?? "GET").uppercased()
            if let problem = MethodName.problem(method) {
                throw HTTPMockError(.invalidDefinition, "\(place).request.method: \(problem)")
            }
            var parameters = route.query
            for (key, value) in entry.request.parameters ?? [:] { parameters[key] = value.queryValue }
            let identity = "\(method) \(route.host.source)\(route.path.normalized)?\(QueryParameters(parameters))"
            guard seen.insert(identity).inserted else { continue }
            var request: [String: JSONValue] = ["method": .string(method), "urlPath": .string(route.path.normalized)]
            if !parameters.isEmpty {
                var patterns: [String: JSONValue] = [:]
                for (name, value) in parameters {
                    switch value {
                    case .values(let values) where values.count == 1: patterns[name] = .object(["equalTo": .string(values[0])])
                    case .values(let values): patterns[name] = .object(["hasExactly": .array(values.map { .object(["equalTo": .string($0)]) })])
                    default: patterns[name] = .object(["matches": .string(".*")])
                    }
                }
                request["queryParameters"] = .object(patterns)
            }
            let code = entry.response.code
            guard (100...599).contains(code) else {
                throw HTTPMockError(.invalidDefinition, "\(place).response.code: \(code) is not an HTTP status code (100-599)")
            }
            var response: [String: JSONValue] = ["status": .int(code)]
            var headers = (entry.response.headers ?? [:]).mapValues { JSONValue.string($0) }
            let hasType = headers.keys.contains { $0.caseInsensitiveCompare("Content-Type") == .orderedSame }
            if !hasType, let type = entry.response.mimeType ?? (entry.response.file == nil ? nil : "application/octet-stream") {
                headers["Content-Type"] = .string(type)
            }
            if !headers.isEmpty { response["headers"] = .object(headers) }
            let id = UUID.random().lowercasedText
            if let file = entry.response.file {
                let source = try sources.file(file, place: place + ".response.file")
                let name = id + "-" + source.lastPathComponent
                let body: Data
                do { body = try Data(contentsOf: source) } catch {
                    throw HTTPMockError(.missingFile, "\(place).response.file: could not read \(source.path): \(error.localizedDescription)")
                }
                try FileOutput.write(body, to: filesFolder.appendingPathComponent(name))
                response["bodyFileName"] = .string(name)
                outcome.files += 1
            }
            let mapping: [String: JSONValue] = [
                "id": .string(id), "name": .string("\(folder.lastPathComponent) [\(index)]"),
                // The first entry of the bundle answers where several match, as in Mockingbird.
                "priority": .int(index + 1),
                "request": .object(request), "response": .object(response),
            ]
            try FileOutput.write(JSONValue.object(mapping).prettyData, to: mappingsFolder.appendingPathComponent(id + ".json"))
            outcome.mappings += 1
        }
        return outcome
    }

    private static func count(in root: URL) -> (mappings: Int, files: Int) {
        let list = { (name: String) in (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(name).path))?.count ?? 0 }
        return (list("mappings"), list("__files"))
    }
}
