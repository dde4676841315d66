import Foundation

/// Writes recorded traffic as a WireMock folder: one stub mapping per response in `mappings/`, binary bodies in
/// `__files/`, secrets redacted. Requests that repeat become a scenario, as WireMock's `repeatsAsScenarios` records
/// them: the first answer in state `Started`, each next one in the state the one before moved to.
enum WireMockRecordingWriter {
    static func write(_ entries: [JournalEntry], to root: URL, redaction: Redaction, appending: Bool) throws(HTTPMockError) {
        let mappings = root.appendingPathComponent("mappings", isDirectory: true)
        let files = root.appendingPathComponent("__files", isDirectory: true)
        for folder in [mappings, files] { try MappingWriter.refuseLinkOut(folder, folder: root) }
        if !appending {
            // Written again from scratch: the stub mappings and body files of the previous recording go.
            for (folder, suffix) in [(mappings, ".json"), (files, "")] {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
                for name in names where name.hasSuffix(suffix) && !name.hasPrefix(".") {
                    try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
                }
            }
        }
        var order: [String] = []
        var groups: [String: [(request: [String: JSONValue], entry: JournalEntry)]] = [:]
        for entry in entries where entry.outcome != nil {
            let request = self.request(entry.request, redaction: redaction)
            let key = String(decoding: JSONValue.object(request).data, as: UTF8.self)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append((request, entry))
        }
        for key in order {
            let group = groups[key]!
            let scenario = group.count > 1 ? "\(group[0].entry.request.method) \(group[0].entry.request.path) #\(UUID().uuidString.prefix(8).lowercased())" : nil
            for (position, recorded) in group.enumerated() {
                let id = UUID().uuidString.lowercased()
                var mapping: [String: JSONValue] = [
                    "id": .string(id),
                    "name": .string("\(recorded.entry.request.method) \(recorded.entry.request.path)"),
                    "request": .object(recorded.request),
                    "response": .object(try response(recorded.entry, id: id, files: files, root: root, redaction: redaction)),
                ]
                if let scenario {
                    mapping["scenarioName"] = .string(scenario)
                    mapping["requiredScenarioState"] = .string(position == 0 ? "Started" : "\(scenario)-\(position + 1)")
                    if position < group.count - 1 { mapping["newScenarioState"] = .string("\(scenario)-\(position + 2)") }
                }
                let file = mappings.appendingPathComponent(id + ".json")
                try FileOutput.write(JSONValue.object(mapping).prettyData, to: file)
            }
        }
    }

    private static func request(_ captured: CapturedRequest, redaction: Redaction) -> [String: JSONValue] {
        var request: [String: JSONValue] = ["method": .string(captured.method), "urlPath": .string(captured.path)]
        var query: [String: [String?]] = [:]
        var order: [String] = []
        for item in captured.queryItems {
            if query[item.name] == nil { order.append(item.name) }
            query[item.name, default: []].append(item.value)
        }
        if !query.isEmpty {
            var patterns: [String: JSONValue] = [:]
            for name in order {
                let values = query[name]!
                if redaction.queryParameters.contains(name.lowercased()) {
                    patterns[name] = .object(["matches": .string(".*")])
                } else if values.count == 1 {
                    patterns[name] = .object(["equalTo": .string(values[0] ?? "")])
                } else {
                    patterns[name] = .object(["hasExactly": .array(values.map { .object(["equalTo": .string($0 ?? "")]) })])
                }
            }
            request["queryParameters"] = .object(patterns)
        }
        if let body = captured.body, !body.isEmpty {
            let type = captured.headers["Content-Type"]
            let redacted = redaction.body(body, contentType: type)
            // A body with a secret blanked out can no longer be compared; it is matched by method, path and query.
            if redacted == body, let text = String(data: body, encoding: .utf8) {
                if let json = JSONValue(data: body), case .object = json {
                    request["bodyPatterns"] = .array([.object(["equalToJson": .string(text)])])
                } else {
                    request["bodyPatterns"] = .array([.object(["equalTo": .string(text)])])
                }
            }
        }
        return request
    }

    private static func response(_ entry: JournalEntry, id: String, files: URL, root: URL,
                                 redaction: Redaction) throws(HTTPMockError) -> [String: JSONValue] {
        switch entry.outcome {
        case .response(let status, let headerValues, let recordedBody)?:
            var response: [String: JSONValue] = ["status": .int(status)]
            var headers: [String: JSONValue] = [:]
            for (name, value) in headerValues where !HAR.unreplayedHeaders.contains(name.lowercased()) {
                headers[name] = .string(redaction.header(name, value))
            }
            if !headers.isEmpty { response["headers"] = .object(headers) }
            let type = headerValues.first { $0.key.caseInsensitiveCompare("Content-Type") == .orderedSame }?.value
            let body = entry.stream.map { stream in
                stream.parts.reduce(into: Data()) { $0.append(redaction.streamedPart($1.data, contentType: type)) }
            } ?? redaction.body(recordedBody, contentType: type)
            if body.isEmpty {
                // no body
            } else if let text = String(data: body, encoding: .utf8) {
                response["body"] = .string(text)
            } else {
                let name = id + ".bin"
                try FileOutput.write(body, to: files.appendingPathComponent(name))
                response["bodyFileName"] = .string(name)
            }
            return response
        default:
            // A request that failed on the way (reset, timed out) is answered by a dropped connection.
            return ["fault": .string("CONNECTION_RESET_BY_PEER")]
        }
    }
}
