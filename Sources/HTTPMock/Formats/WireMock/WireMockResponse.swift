import Foundation
import _HTTPMockJSON

/// The `response` of a WireMock mapping, read and checked; ``served(files:globalTemplating:pathTemplate:)`` turns
/// it into a ``MockResponse``.
struct WireMockResponse {
    enum Body {
        case none
        case text(String)
        case json(JSONValue)
        case bytes(Data)
        /// A file under `__files/`, with the node that named it (for messages).
        case file(String, WireMockNode)
    }

    /// A random delay added to each response, sampled per request.
    enum Distribution: Sendable {
        case uniform(lower: Double, upper: Double)
        case lognormal(median: Double, sigma: Double, maximum: Double?)
    }

    var status = 200
    /// `statusMessage`: the reason phrase of the status line.
    var statusMessage: String?
    var headers: [String: String] = [:]
    /// Headers sent a line per value, as WireMock sends them: those given a list, and `Set-Cookie` as written (see
    /// ``MockResponse/headerLines``).
    var headerLines: [String: [String]] = [:]
    var body = Body.none
    /// Milliseconds.
    var fixedDelay: Double = 0
    var distribution: Distribution?
    /// The body spread over this many milliseconds (`chunkedDribbleDelay.totalDuration`).
    var dribble: Double?
    /// In this many chunks (`chunkedDribbleDelay.numberOfChunks`).
    var dribbleChunks = 1
    /// The parts of a streamed answer, from the mapping's `metadata` (see ``WireMockStreamParts``).
    var streamParts: (parts: WireMockStreamParts, node: WireMockNode)?
    var fault: String?
    /// `transformers` holds `response-template`.
    var templated = false
    /// `transformerParameters.disableBodyFileTemplating`.
    var fileTemplating = true
    /// `transformerParameters`: what templates read as `{{parameters.…}}`.
    var parameters: JSONValue?
    /// The `jsonBody` as its file wrote it (compacted), when the mapping was read from text.
    var jsonBodyText: Data?
    /// `proxyBaseUrl` and its companions: another server answers, and the rest of the response is not used.
    var proxy: Forwarding?
    /// A `proxyBaseUrl` with `{{…}}`: its base is rendered for each request (``proxy`` has the companions).
    var proxyBaseTemplate: (text: String, node: WireMockNode)?
    /// Where each of ``proxy``'s added headers was given (`additionalProxyRequestHeaders.X-Id`), in the same order:
    /// a value with `{{…}}` is rendered for each request when the response is templated, as WireMock renders it.
    var proxyHeaderNodes: [WireMockNode] = []
    let node: WireMockNode

    static let keys = ["status", "statusMessage", "headers", "body", "jsonBody", "base64Body", "bodyFileName",
                       "fixedDelayMilliseconds", "delayDistribution", "chunkedDribbleDelay", "fault", "transformers",
                       "transformerParameters", "proxyBaseUrl", "proxyUrlPrefixToRemove", "additionalProxyRequestHeaders",
                       "removeProxyRequestHeaders", "fromConfiguredStub"]
    static let faults = ["CONNECTION_RESET_BY_PEER", "EMPTY_RESPONSE", "MALFORMED_RESPONSE_CHUNK", "RANDOM_DATA_THEN_CLOSE"]

    /// `proxyBaseUrl` (an absolute `http` or `https` URL), `proxyUrlPrefixToRemove`, `additionalProxyRequestHeaders`
    /// and `removeProxyRequestHeaders`; the three without `proxyBaseUrl` are an error.
    private mutating func readProxy(_ fields: [String: JSONValue]) throws(HTTPMockError) {
        let companions = ["proxyUrlPrefixToRemove", "additionalProxyRequestHeaders", "removeProxyRequestHeaders"]
        guard let baseNode = node.child("proxyBaseUrl", of: fields) else {
            if let key = companions.first(where: { fields[$0] != nil }) {
                throw node.child(key, of: fields)!.error("\"\(key)\" applies to a proxied response; add \"proxyBaseUrl\"")
            }
            return
        }
        let text = try baseNode.string()
        // A template (`http://{{request.headers.X-Target}}`) is rendered for each request, and its URL and host
        // checked then; the base here only carries the companions until it is.
        let isTemplate = text.contains("{{")
        if isTemplate { proxyBaseTemplate = (text, baseNode) }
        guard let base = isTemplate ? URL(string: "http://127.0.0.1") : URL(string: text),
              ["http", "https"].contains(base.scheme?.lowercased() ?? ""), base.host?.isEmpty == false, base.query == nil else {
            throw baseNode.error("\"\(text)\" is not a base URL to proxy to; write one such as \"http://127.0.0.1:8081\" (a scheme, a host, no query)")
        }
        let prefix = try node.child("proxyUrlPrefixToRemove", of: fields).map { (node) throws(HTTPMockError) in try node.string() }
        var added: [(name: String, value: String)] = []
        if let headers = node.child("additionalProxyRequestHeaders", of: fields) {
            for (name, value) in try headers.members() {
                if name.isEmpty || WireMockResponse.isBadHeaderName(name) { throw value.error("\"\(name)\" is not a header name") }
                if case .array = value.value {
                    for element in try value.elements() {
                        added.append((name, try Self.text(element)))
                        proxyHeaderNodes.append(element)
                    }
                } else {
                    added.append((name, try Self.text(value)))
                    proxyHeaderNodes.append(value)
                }
            }
        }
        var removed: [String] = []
        if let list = node.child("removeProxyRequestHeaders", of: fields) {
            for element in try list.elements() { removed.append(try element.string()) }
        }
        proxy = Forwarding(base: base, prefixToRemove: prefix, addedHeaders: added, removedHeaders: removed)
    }

    init(_ node: WireMockNode) throws(HTTPMockError) {
        self.node = node
        let fields = try node.object(known: Self.keys)
        try readProxy(fields)
        if let stub = node.child("fromConfiguredStub", of: fields) {
            throw stub.error("\"fromConfiguredStub\" is not supported: it belongs to WireMock's proxying")
        }
        if let status = node.child("status", of: fields) { self.status = try status.integer(in: 100...599) }
        if let message = node.child("statusMessage", of: fields) {
            let phrase = try message.string()
            guard MockResponse.isReasonPhrase(phrase) else {
                throw message.error("holds a line break or another control character; a status line allows tabs, spaces and visible characters only")
            }
            statusMessage = phrase
        }
        if let headers = node.child("headers", of: fields) {
            for (name, value) in try headers.members() {
                if name.isEmpty || WireMockResponse.isBadHeaderName(name) { throw value.error("\"\(name)\" is not a header name") }
                switch value.value {
                case .array:
                    var texts: [String] = []
                    for element in try value.elements() { texts.append(try Self.text(element)) }
                    if ASCIICase.equal(name, "content-type"), let last = texts.last {
                        // One Content-Type goes out, as WireMock's server sends it: the last value.
                        self.headers[name] = last
                    } else {
                        self.headers[name] = texts.joined(separator: ", ")
                        if !texts.isEmpty { headerLines[name] = texts }
                    }
                default:
                    let text = try Self.text(value)
                    self.headers[name] = text
                    // WireMock sends a cookie text as written, on one line (not split at its commas).
                    if ASCIICase.equal(name, "set-cookie") { headerLines[name] = [text] }
                }
            }
        }
        let bodies = ["body", "jsonBody", "base64Body", "bodyFileName"].filter { fields[$0] != nil }
        if bodies.count > 1 { throw node.error("give one body, not \(bodies.map { "\"\($0)\"" }.joined(separator: " and "))") }
        switch bodies.first {
        case "body": body = .text(try node.child("body", of: fields)!.string())
        case "jsonBody": body = .json(node.child("jsonBody", of: fields)!.value)
        case "base64Body":
            let text = node.child("base64Body", of: fields)!
            guard let data = Base64.decode(try text.string()) else {
                throw text.error("the text is not valid base64 (letters, digits, \"+\", \"/\", \"=\" padding to a multiple of 4)")
            }
            body = .bytes(data)
        case "bodyFileName":
            let name = node.child("bodyFileName", of: fields)!
            body = .file(try name.string(), name)
        default: break
        }
        if let delay = node.child("fixedDelayMilliseconds", of: fields) { fixedDelay = try delay.milliseconds() }
        if let distribution = node.child("delayDistribution", of: fields) { self.distribution = try Self.distribution(distribution) }
        if let dribble = node.child("chunkedDribbleDelay", of: fields) {
            let pair = try dribble.object(known: ["numberOfChunks", "totalDuration"])
            guard let chunks = dribble.child("numberOfChunks", of: pair), let total = dribble.child("totalDuration", of: pair) else {
                throw dribble.error("chunkedDribbleDelay needs \"numberOfChunks\" and \"totalDuration\"")
            }
            dribbleChunks = try chunks.integer(in: 1...1_000_000)
            self.dribble = try total.milliseconds()
        }
        if let fault = node.child("fault", of: fields) {
            let name = try fault.string()
            guard Self.faults.contains(name) else { throw fault.error("\"\(name)\" is not a fault; use one of \(Self.faults.joined(separator: ", "))") }
            self.fault = name
        }
        if let transformers = node.child("transformers", of: fields) {
            for transformer in try transformers.elements() {
                let name = try transformer.string()
                guard name == "response-template" else {
                    throw transformer.error("the transformer \"\(name)\" is not supported; the one transformer here is \"response-template\"")
                }
                templated = true
            }
        }
        if let parameters = node.child("transformerParameters", of: fields) {
            // Any keys: WireMock hands them to templates as `parameters` (and to transformers of its extensions).
            guard case .object(let members) = parameters.value else { throw parameters.error("expected an object, not \(parameters.kind)") }
            if let flag = parameters.child("disableBodyFileTemplating", of: members), flag.value != .null { fileTemplating = !(try flag.bool()) }
            self.parameters = parameters.value
        }
    }

    private static func text(_ node: WireMockNode) throws(HTTPMockError) -> String {
        switch node.value {
        case .string(let text): return text
        case .int, .double, .decimal, .bool: return node.value.description
        default: throw node.error("expected a string, not \(node.kind)")
        }
    }

    private static func distribution(_ node: WireMockNode) throws(HTTPMockError) -> Distribution {
        guard case .object(let object) = node.value, let type = node.child("type", of: object) else {
            throw node.error("a delayDistribution has a \"type\": \"uniform\", \"lognormal\" or \"fixed\"")
        }
        switch try type.string() {
        case "uniform":
            let fields = try node.object(known: ["type", "lower", "upper"])
            guard let lower = node.child("lower", of: fields), let upper = node.child("upper", of: fields) else {
                throw node.error("a uniform delayDistribution needs \"lower\" and \"upper\" (milliseconds)")
            }
            let low = try lower.milliseconds(), high = try upper.milliseconds()
            guard low <= high else { throw node.error("\"lower\" (\(low)) is more than \"upper\" (\(high))") }
            return .uniform(lower: low, upper: high)
        case "lognormal":
            let fields = try node.object(known: ["type", "median", "sigma", "maxValue"])
            guard let median = node.child("median", of: fields), let sigma = node.child("sigma", of: fields) else {
                throw node.error("a lognormal delayDistribution needs \"median\" (milliseconds) and \"sigma\"")
            }
            guard let spread = sigma.value.number, spread >= 0, spread <= 10 else { throw sigma.error("expected a number from 0 to 10, not \(sigma.kind)") }
            return .lognormal(median: try median.milliseconds(), sigma: spread,
                              maximum: try node.child("maxValue", of: fields).map { (value) throws(HTTPMockError) in try value.milliseconds() })
        case "fixed":
            let fields = try node.object(known: ["type", "milliseconds"])
            guard let milliseconds = node.child("milliseconds", of: fields) else {
                throw node.error("a fixed delayDistribution needs \"milliseconds\"")
            }
            let delay = try milliseconds.milliseconds()
            return .uniform(lower: delay, upper: delay)
        case let other:
            throw type.error("\"\(other)\" is not a delay distribution; use \"uniform\", \"lognormal\" or \"fixed\"")
        }
    }
}

extension WireMockResponse {
    /// Whether `name` holds white space or a colon, which no header name does. Printable ASCII other than the
    /// colon is read byte by byte; any other byte takes `Character`'s reading.
    static func isBadHeaderName(_ name: String) -> Bool {
        if name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) { return name.utf8.contains(UInt8(ascii: ":")) }
        return name.contains(where: { $0.isWhitespace || $0 == ":" })
    }
}
