import Foundation
import _HTTPMockJSON

extension WireMockConversion {
    /// One mock of an HTTPMock mapping file written as WireMock mappings: its request spec as WireMock's request
    /// fields, each of its answers as a mapping (several of them as a scenario), its body files and what WireMock
    /// cannot say.
    struct MappingTranslation {
        let loaded: LoadedMock
        let priority: Int
        private(set) var mappings: [(name: String, data: Data)] = []
        private(set) var files: [(name: String, data: Data)] = []
        private(set) var notes: [String] = []
        /// Named wildcards of the path and their segment positions (`/users/{id}` → `id`: 1).
        private let pathNames: [String: Int]
        /// Whether the path is written as a `urlPathTemplate`, so templates can name its variables.
        private var usesPathTemplate = false
        private let id = UUID.random().lowercasedText
        /// The stream parts of each streamed answer, by its index: written in the mapping's metadata.
        private var streams: [Int: JSONValue] = [:]

        /// WireMock repeats an answer through one scenario state per request; a mock answers at most this many
        /// times before its last answer (which may repeat for ever).
        static let answerLimit = 1_000

        init(mock: LoadedMock, priority: Int) throws(HTTPMockError) {
            loaded = mock
            self.priority = priority
            pathNames = try mock.mock.request.path.map { (text) throws(HTTPMockError) in try NamedPath(text, place: mock.place + ".request.path").names } ?? [:]
        }

        mutating func translate() throws(HTTPMockError) {
            let request = requestFields()
            let answers = try expandedAnswers()
            var responses: [Int: [String: JSONValue]] = [:]
            for answer in answers where responses[answer.index] == nil {
                responses[answer.index] = try response(loaded.mock.responses[answer.index], index: answer.index)
            }
            let scenario = answers.count > 1 || !(answers.first?.repeats ?? true) ? loaded.name : nil
            for (position, answer) in answers.enumerated() {
                let mappingID = position == 0 ? id : UUID.random().lowercasedText
                var mapping: [String: JSONValue] = [
                    "id": .string(mappingID),
                    "name": .string(answers.count > 1 ? "\(loaded.name) (answer \(position + 1) of \(answers.count))" : loaded.name),
                    "priority": .int(priority),
                    "request": .object(request),
                    "response": .object(responses[answer.index]!),
                ]
                if let stream = streams[answer.index] {
                    mapping["metadata"] = .object([WireMockStreamParts.metadataKey: .object(["stream": stream])])
                }
                if let scenario {
                    mapping["scenarioName"] = .string(scenario)
                    mapping["requiredScenarioState"] = .string(Self.state(position, of: scenario))
                    if !answer.repeats { mapping["newScenarioState"] = .string(Self.state(position + 1, of: scenario)) }
                }
                mappings.append((mappingID + ".json", JSONValue.object(mapping).prettyData))
            }
        }

        private static func state(_ position: Int, of scenario: String) -> String {
            position == 0 ? "Started" : "\(scenario) #\(position + 1)"
        }

        // MARK: Answers

        /// The answers in the order they are served: `times: 3` is three, and the one that repeats (the last, unless
        /// it has a count) ends the list.
        private func expandedAnswers() throws(HTTPMockError) -> [(index: Int, repeats: Bool)] {
            let responses = loaded.mock.responses
            var answers: [(index: Int, repeats: Bool)] = []
            for (index, spec) in responses.enumerated() {
                let count: Int
                switch spec.times?.lifetime ?? (index == responses.count - 1 ? .eternal : .single) {
                case .eternal:
                    answers.append((index, true))
                    return answers
                case .single: count = 1
                case .multiple(let times): count = times
                }
                guard answers.count + count <= Self.answerLimit else {
                    throw HTTPMockError(.invalidDefinition, "\(loaded.place).responses[\(index)].times: a WireMock scenario needs one mapping per answer, and this mock answers more than \(Self.answerLimit) times before its last answer; give its last answer no \"times\" so that it repeats, or lower the counts")
                }
                answers += repeatElement((index: index, repeats: false), count: count)
            }
            return answers
        }

        /// One answer as WireMock's `response` object; its body file, if any, joins ``files``.
        private mutating func response(_ spec: ResponseSpec, index: Int) throws(HTTPMockError) -> [String: JSONValue] {
            let place = "\(loaded.place).responses[\(index)]"
            var response: [String: JSONValue] = [:]
            if let delay = spec.delay, delay > 0 { response["fixedDelayMilliseconds"] = .int(Int((delay * 1000).rounded())) }
            if let failure = spec.failure {
                let code = URLErrorName.code(named: failure)
                // What HTTPMock's WireMock faults fail with in process: a dropped connection, or bytes that are no HTTP.
                let isGarbage = code == .cannotParseResponse || code == .badServerResponse
                response["fault"] = .string(isGarbage ? "RANDOM_DATA_THEN_CLOSE" : "CONNECTION_RESET_BY_PEER")
                if !isGarbage, code != .networkConnectionLost {
                    notes.append("its failure \"\(failure)\" has no WireMock equivalent: it becomes a dropped connection (CONNECTION_RESET_BY_PEER), which fails with networkConnectionLost in process")
                }
                return response
            }
            response["status"] = .int(spec.status ?? (spec.redirect == nil ? 200 : 302))
            var headers = spec.headers ?? [:]
            if let redirect = spec.redirect { headers["Location"] = redirect }
            var type = spec.contentType
            switch spec.body {
            case nil: break
            case .text(let text):
                type = type ?? "text/plain; charset=utf-8"
                response["body"] = .string(spec.template ? try handlebars(text, json: false, place: place + ".text") : text)
            case .json(let value):
                type = type ?? "application/json"
                if spec.template {
                    response["body"] = .string(try handlebars(String(decoding: value.data, as: UTF8.self), json: true, place: place + ".json"))
                } else {
                    response["jsonBody"] = value
                }
            case .base64(let text):
                response["base64Body"] = .string(text)
            case .file(let relative):
                let url = try loaded.files.file(relative, relativeTo: loaded.folder, place: place + ".file")
                type = type ?? ContentType.infer(fromExtension: url.pathExtension)
                var data: Data
                do { data = try Data(contentsOf: url) } catch {
                    throw HTTPMockError(.missingFile, "\(place).file: could not read \(url.path): \(error.localizedDescription)")
                }
                if spec.template {
                    // Checked as a template when the file was loaded, so it is UTF-8 text.
                    data = Data(try handlebars(String(decoding: data, as: UTF8.self), json: (type ?? "").contains("json"), place: place + ".file").utf8)
                }
                let name = "\(id)-\(index)-\(url.lastPathComponent)"
                files.append((name, data))
                response["bodyFileName"] = .string(name)
            case .parts(let parts):
                type = type ?? "application/octet-stream"
                let pieces = parts.map { (after: $0.after, data: $0.text.map { Data($0.utf8) } ?? $0.base64.flatMap(Base64.decode) ?? Data()) }
                stream(pieces, into: &response, index: index, fault: spec.streamFault)
            case .events(let events):
                type = type ?? "text/event-stream"
                headers = MockResponse.eventStreamHeaders(headers)
                stream(events.map { (after: $0.after, data: $0.serverSentEvent.encoded) }, into: &response, index: index, fault: spec.streamFault)
            }
            if spec.template { response["transformers"] = .array([.string("response-template")]) }
            if let type, !headers.keys.contains(where: { $0.caseInsensitiveCompare("Content-Type") == .orderedSame }) {
                headers["Content-Type"] = type
            }
            if !headers.isEmpty { response["headers"] = .object(headers.mapValues { .string($0) }) }
            return response
        }

        /// A streamed body: every byte as the body, dribbled over the parts' time for WireMock, and the parts in the
        /// mapping's metadata for HTTPMock (``WireMockStreamParts``).
        private mutating func stream(_ parts: [(after: Double, data: Data)], into response: inout [String: JSONValue], index: Int,
                                     fault: ResponseSpec.FaultSpec?) {
            let data = parts.reduce(into: Data()) { $0.append($1.data) }
            if let text = String(data: data, encoding: .utf8) { response["body"] = .string(text) } else { response["base64Body"] = .string(data.base64EncodedString()) }
            var offset = 0.0
            let written = WireMockStreamParts(recorded: parts.map { part in
                offset += part.after
                return (offset: offset, size: part.data.count)
            })
            if !parts.isEmpty { streams[index] = written.json }
            if let dribble = written.dribble { response["chunkedDribbleDelay"] = dribble }
            if let fault {
                notes.append("its stream fault (\(fault.kind.rawValue) after \(fault.afterParts) part(s)) has no WireMock equivalent: the converted stream ends normally")
            }
        }

        /// An HTTPMock template (`{{path.id}}`, `{{query.q}}`…) in WireMock's Handlebars. In text a value is written
        /// as it is. In JSON it stands inside a string, escaped as HTTPMock escapes it: WireMock 3 prints `{{…}}`
        /// unescaped, so the value goes through `toJson` (a JSON string, quotes and all, as Jackson writes it) and
        /// `regexExtract` keeps what is between its quotes; `val … default=''` makes a missing value the empty string.
        private func handlebars(_ text: String, json: Bool, place: String) throws(HTTPMockError) -> String {
            let template = try BodyTemplate(text, pathNames: pathNames, escapesForJSON: json, place: place)
            let names = usesPathTemplate ? Dictionary(uniqueKeysWithValues: pathNames.map { ($1, $0) }) : [:]
            func output(_ expression: String) -> String {
                json ? #"{{{regexExtract (toJson (val \#(expression) default='')) '(?s)(?<=^").*(?="$)'}}}"# : "{{{\(expression)}}}"
            }
            func member(_ name: String) -> String {
                name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") } ? name : "[\(name)]"
            }
            var result = ""
            for part in template.parts {
                switch part {
                case .literal(let literal): result += literal
                case .pathSegment(let position): result += output(names[position].map { "request.path.\($0)" } ?? "request.path.[\(position)]")
                // The first value, as HTTPMock prints a parameter or header given more than once.
                case .query(let name): result += output("request.query.\(member(name)).first")
                case .header(let name): result += output("request.headers.\(member(name)).first")
                case .method: result += output("request.method")
                case .host: result += output("request.host")
                case .url: result += output("request.baseUrl") + output("request.url")
                case .handlebars: break   // only WireMock's own mappings make this part
                }
            }
            return result
        }

        // MARK: Request

        private mutating func requestFields() -> [String: JSONValue] {
            let spec = loaded.mock.request
            var request: [String: JSONValue] = [:]
            if let methods = spec.methods {
                let names = methods.map { JSONValue.string($0.uppercased()) }
                request["method"] = names.count == 1 ? names[0] : .object(["oneOf": .array(names)])
            } else {
                request["method"] = .string("ANY")
            }
            if let host = loaded.definition.host {
                var name = host.source.lowercased()
                if host.port != nil, let colon = name.lastIndex(of: ":") { name = String(name[..<colon]) }
                request["host"] = host.glob.isExact
                    ? .object(["equalTo": .string(name)])
                    : .object(["matches": .string(Self.regex(host.glob.segments, separator: ".", encode: false))])
                if let port = host.port { request["port"] = .int(port) }
            }
            var exactQueryInURL = false
            if let path = loaded.definition.path {
                let segments = path.glob.segments
                if path.glob.isExact {
                    let text = "/" + segments.map { if case .literal(let text) = $0 { return Self.encodedSegment(text) } else { return "" } }.joined(separator: "/")
                    // An exact query of plain values, in any order: WireMock's `url` compares the query in the order
                    // written, so a `urlPattern` asks for each `name=value` and for no more parameters than those.
                    if let query = spec.query, spec.queryMatching == .exact,
                       query.values.allSatisfy({ if case .values(let list) = $0.value { !list.isEmpty } else { false } }) {
                        let pairs = query.sorted { $0.key < $1.key }.flatMap { name, spec -> [String] in
                            guard case .values(let list) = spec.value else { return [] }
                            return list.map { Self.encodedQuery(name) + "=" + Self.encodedQuery($0) }
                        }
                        if pairs.isEmpty {
                            request["url"] = .string(text)
                        } else {
                            let escaped = { (text: String) in NSRegularExpression.escapedPattern(for: text) }
                            let each = Set(pairs).sorted().map { "(?=(?:.*&)?\(escaped($0))(?:&|$))" }.joined()
                            let count = "[^&]*" + String(repeating: "&[^&]*", count: pairs.count - 1)
                            request["urlPattern"] = .string("^" + escaped(text) + "\\?" + each + count + "$")
                        }
                        exactQueryInURL = true
                    } else {
                        request["urlPath"] = .string(text)
                    }
                } else if !pathNames.isEmpty, segments.enumerated().allSatisfy({ position, segment in
                    switch segment {
                    case .literal: true
                    case .any: pathNames.values.contains(position)
                    default: false
                    }
                }) {
                    let names = Dictionary(uniqueKeysWithValues: pathNames.map { ($1, $0) })
                    let text = segments.enumerated().map { position, segment in
                        if case .literal(let text) = segment { return Self.encodedSegment(text) }
                        return "{\(names[position]!)}"
                    }
                    request["urlPathTemplate"] = .string("/" + text.joined(separator: "/"))
                    usesPathTemplate = true
                } else {
                    request["urlPathPattern"] = .string(Self.regex(segments, separator: "/", encode: true))
                }
            }
            if let query = spec.query, !exactQueryInURL {
                let exact = spec.queryMatching == .exact
                var patterns: [String: JSONValue] = [:]
                for (name, spec) in query {
                    switch spec.value {
                    case .values(let list) where list.isEmpty: patterns[name] = .object(["absent": .bool(true)])
                    case .values(let list):
                        let each = JSONValue.array(list.map { .object(["equalTo": .string($0)]) })
                        patterns[name] = .object([exact ? "hasExactly" : "includes": each])
                    // Present, with any value or none (WireMock has no word for a key written without "=").
                    case .any, .flag: patterns[name] = .object(["matches": .string(".*")])
                    }
                }
                request["queryParameters"] = .object(patterns)
                if exact {
                    notes.append("its query is exact, and WireMock has no way to refuse other parameters on a path with wildcards (or with a parameter of any value): the mapping matches these parameters and others too")
                }
            }
            var headers: [String: JSONValue] = [:]
            for (name, spec) in spec.headers ?? [:] {
                switch spec {
                case .equals(let value): headers[name] = .object(["equalTo": .string(value)])
                case .contains(let part): headers[name] = .object(["contains": .string(part)])
                case .present(true): headers[name] = .object(["matches": .string(".*")])
                case .present(false): headers[name] = .object(["absent": .bool(true)])
                }
            }
            if !headers.isEmpty { request["headers"] = .object(headers) }
            switch spec.body {
            case .equals(let text)?: request["bodyPatterns"] = .array([.object(["equalTo": .string(text)])])
            case .contains(let text)?: request["bodyPatterns"] = .array([.object(["contains": .string(text)])])
            case .json(let value, let wildcard)?:
                let expected = wildcard.map { Self.replacing(.string($0), with: .string("${json-unit.ignore}"), in: value) } ?? value
                request["bodyPatterns"] = .array([.object(["equalToJson": expected])])
            case nil: break
            }
            return request
        }

        /// A glob as an anchored regular expression over the text WireMock matches (paths as sent, percent-encoded).
        private static func regex(_ segments: [Glob.Segment], separator: Character, encode: Bool) -> String {
            if segments == [.anyDepth] { return "^.*$" }
            let sep = separator == "/" ? "/" : NSRegularExpression.escapedPattern(for: String(separator))
            let label = "[^\(sep)]"
            let literal = { (text: String) in NSRegularExpression.escapedPattern(for: encode ? encodedSegment(text) : text) }
            var pattern = ""
            // Paths start with their separator; a host's first label has none before it, nor the label after a
            // leading `**` (which brings its own).
            var lead = separator == "/" ? sep : ""
            for segment in segments {
                switch segment {
                case .literal(let text): pattern += lead + literal(text)
                case .any: pattern += lead + label + "+"
                case .partial(let pieces): pattern += lead + pieces.map(literal).joined(separator: label + "*")
                case .anyDepth where lead.isEmpty:
                    pattern += "(?:\(label)+\(sep))*"
                    continue
                case .anyDepth: pattern += "(?:\(sep)\(label)+)*"
                }
                lead = sep
            }
            return "^" + pattern + (separator == "/" ? "/?$" : "$")
        }

        private static func encodedSegment(_ text: String) -> String {
            var allowed = CharacterSet.urlPathAllowed
            allowed.remove(charactersIn: "/%")
            return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
        }

        private static func encodedQuery(_ text: String) -> String {
            var allowed = CharacterSet.urlQueryAllowed
            allowed.remove(charactersIn: "&=+#%")
            return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
        }

        private static func replacing(_ target: JSONValue, with replacement: JSONValue, in value: JSONValue) -> JSONValue {
            if value == target { return replacement }
            switch value {
            case .array(let items): return .array(items.map { replacing(target, with: replacement, in: $0) })
            case .object(let members): return .object(members.mapValues { replacing(target, with: replacement, in: $0) })
            default: return value
            }
        }
    }
}
