import Foundation
import _HTTPMockJSON

/// Turns recorded traffic into WireMock stub mappings: one per response, secrets redacted. Requests that repeat
/// become a scenario, as WireMock's `repeatsAsScenarios` records them: the first answer in state `Started`, each next
/// one in the state the one before moved to. Writes them as a WireMock folder (`mappings/`, binary bodies in
/// `__files/`), or hands them to HTTPMockServer's admin API (recordings and snapshots).
package enum WireMockRecordingWriter {
    /// How traffic becomes mappings.
    package struct Options: Sendable {
        /// What is blanked out.
        package var redaction: Redaction
        /// Whether a request that repeats becomes a scenario (each answer in turn) or only its first answer is kept.
        package var repeatsAsScenarios: Bool
        /// Request headers the mappings match, by name as given, and whether case is ignored in their values.
        package var capturedHeaders: [String: Bool]

        package init(redaction: Redaction = .default, repeatsAsScenarios: Bool = true, capturedHeaders: [String: Bool] = [:]) {
            self.redaction = redaction
            self.repeatsAsScenarios = repeatsAsScenarios
            self.capturedHeaders = capturedHeaders
        }
    }

    /// A folder for binary bodies: each is written there and the mapping names it. Without one they are inline
    /// (`base64Body`).
    package typealias BodyFiles = (_ name: String, _ body: Data) throws(HTTPMockError) -> Void

    static func write(_ entries: [JournalEntry], to root: URL, redaction: Redaction, appending: Bool) throws(HTTPMockError) {
        let mappings = root.appendingPathComponent("mappings", isDirectory: true)
        let files = root.appendingPathComponent("__files", isDirectory: true)
        let messages = root.appendingPathComponent(HTTPMock.messageMappingsFolder, isDirectory: true)
        for folder in [mappings, files, messages] { try MappingWriter.refuseLinkOut(folder, folder: root) }
        if !appending {
            // Written again from scratch: the stub mappings and body files of the previous recording go.
            for (folder, suffix) in [(mappings, ".json"), (files, ""), (messages, ".json")] {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
                for name in names where name.hasSuffix(suffix) && !name.hasPrefix(".") {
                    try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
                }
            }
        }
        // A WebSocket conversation is replayed by message stubs, not by an HTTP mapping of its 101.
        let conversations = entries.filter { $0.webSocket != nil }
        for entry in conversations {
            guard let file = WireMockConversationWriter.file(for: entry) else { continue }
            try FileOutput.write(file, to: messages.appendingPathComponent("conversation-\(UUID.random().lowercasedText).json"))
        }
        let entries = entries.filter { $0.webSocket == nil }
        let made = try self.mappings(for: entries, options: Options(redaction: redaction)) { (name: String, body: Data) throws(HTTPMockError) in
            try FileOutput.write(body, to: files.appendingPathComponent(name))
        }
        for mapping in made {
            try FileOutput.write(mapping.json, to: mappings.appendingPathComponent(mapping.id + ".json"))
        }
    }

    /// The mappings for `entries` (those with an outcome), in the order the requests came: each with its `id` and
    /// its JSON.
    package static func mappings(for entries: [JournalEntry], options: Options,
                                 bodyFiles: BodyFiles? = nil) throws(HTTPMockError) -> [(id: String, json: Data)] {
        var order: [String] = []
        var groups: [String: [(request: [String: JSONValue], entry: JournalEntry)]] = [:]
        for entry in entries where entry.outcome != nil {
            let request = self.request(entry.request, options: options)
            let key = String(decoding: JSONValue.object(request).data, as: UTF8.self)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append((request, entry))
        }
        var made: [(id: String, json: Data)] = []
        for key in order {
            var group = groups[key]!
            if !options.repeatsAsScenarios { group = [group[0]] }
            let scenario = group.count > 1 ? "\(group[0].entry.request.method) \(group[0].entry.request.path) #\(UUID.random().uuidString.prefix(8).lowercased())" : nil
            for (position, recorded) in group.enumerated() {
                let id = UUID.random().lowercasedText
                let (response, stream) = try self.response(recorded.entry, id: id, redaction: options.redaction, bodyFiles: bodyFiles)
                var mapping: [String: JSONValue] = [
                    "id": .string(id),
                    "name": .string("\(recorded.entry.request.method) \(recorded.entry.request.path)"),
                    "request": .object(recorded.request),
                    "response": .object(response),
                ]
                if let stream { mapping["metadata"] = .object([WireMockStreamParts.metadataKey: .object(["stream": stream])]) }
                if let scenario {
                    mapping["scenarioName"] = .string(scenario)
                    mapping["requiredScenarioState"] = .string(position == 0 ? "Started" : "\(scenario)-\(position + 1)")
                    if position < group.count - 1 { mapping["newScenarioState"] = .string("\(scenario)-\(position + 2)") }
                }
                made.append((id, JSONValue.object(mapping).prettyData))
            }
        }
        return made
    }

    private static func request(_ captured: CapturedRequest, options: Options) -> [String: JSONValue] {
        let redaction = options.redaction
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
        var headers: [String: JSONValue] = [:]
        for (name, caseInsensitive) in options.capturedHeaders.sorted(by: { $0.key < $1.key }) {
            guard let value = captured.headers[name] else { continue }
            // A secret header is matched by its presence: its value is never written.
            if redaction.redactsHeader(name) {
                headers[name] = .object(["matches": .string(".*")])
            } else {
                var pattern: [String: JSONValue] = ["equalTo": .string(value)]
                if caseInsensitive { pattern["caseInsensitive"] = .bool(true) }
                headers[name] = .object(pattern)
            }
        }
        if !headers.isEmpty { request["headers"] = .object(headers) }
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

    /// The response of `entry`'s mapping, and for a streamed answer kept whole, its parts (``StreamParts``).
    private static func response(_ entry: JournalEntry, id: String, redaction: Redaction,
                                 bodyFiles: BodyFiles?) throws(HTTPMockError) -> ([String: JSONValue], JSONValue?) {
        switch entry.outcome {
        case .response(let status, let headerValues, let recordedBody)?:
            var response: [String: JSONValue] = ["status": .int(status)]
            let headers = redaction.recordedHeaders(headerValues)
            if !headers.isEmpty { response["headers"] = .object(headers) }
            let type = headerValues.first { $0.key.caseInsensitiveCompare("Content-Type") == .orderedSame }?.value
            var streamParts: JSONValue?
            let body: Data
            if let stream = entry.stream {
                guard stream.isWhole else {
                    throw HTTPMockError(.invalidDefinition, "the streamed answer to \(entry.request.method) \(entry.request.url.absoluteString) sent \(stream.byteCount) bytes, more than the \(StreamRecord.keptRelayedBytes) a recording keeps of a stream; record that request alone, or leave it out with a stub")
                }
                // Each part redacted alone, so the parts keep their boundaries: the whole body for WireMock, dribbled
                // over the stream's time in as many chunks, and each part's size and delay for HTTPMock.
                let parts = stream.parts.map { ($0.offset, redaction.streamedPart($0.data, contentType: type)) }
                body = parts.reduce(into: Data()) { $0.append($1.1) }
                if stream.isWhole, !parts.isEmpty {
                    let written = WireMockStreamParts(recorded: parts.map { (offset: $0.0, size: $0.1.count) })
                    streamParts = written.json
                    if let dribble = written.dribble { response["chunkedDribbleDelay"] = dribble }
                }
            } else {
                body = redaction.body(recordedBody, contentType: type)
            }
            if body.isEmpty {
                // no body
            } else if let text = String(data: body, encoding: .utf8) {
                response["body"] = .string(text)
            } else if let bodyFiles {
                let name = id + ".bin"
                try bodyFiles(name, body)
                response["bodyFileName"] = .string(name)
            } else {
                response["base64Body"] = .string(body.base64EncodedString())
            }
            return (response, streamParts)
        default:
            // A request that failed on the way (reset, timed out) is answered by a dropped connection.
            return (["fault": .string("CONNECTION_RESET_BY_PEER")], nil)
        }
    }
}
