import Foundation
import _HTTPMockJSON

/// One response of a mock in a mapping file.
///
/// ```json
/// { "status": 200, "headers": {"X-Env": "test"}, "json": {"id": "{{path.id}}"}, "template": true,
///   "times": 2, "delay": 0.25 }
/// { "failure": "notConnectedToInternet" }
/// { "redirect": "https://example.com/new", "status": 301 }
/// ```
struct ResponseSpec: Decodable {
    var status: Int?
    var headers: [String: String]?
    var body: Body?
    var contentType: String?
    var template: Bool
    var times: Times?
    var delay: Double?
    var failure: String?
    var redirect: String?
    /// `streamFault`: how a streamed body (`parts`, `events`) breaks part of the way through.
    var streamFault: FaultSpec?

    /// The body, from exactly one of `text`, `json`, `base64` and `file`.
    enum Body {
        case text(String)
        case json(JSONValue)
        case base64(String)
        case file(String)
        /// A streamed body: its parts, each after a delay.
        case parts([PartSpec])
        /// Server-sent events, each a part of a streamed body after its delay.
        case events([EventSpec])
    }

    /// `times`: a count from 1, or `"eternal"`.
    enum Times: Decodable {
        case count(Int)
        case eternal

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if (try? container.decode(Double.self)) != nil || (try? container.decode(String.self)) == nil {
                // A number (or anything but a string): a whole number from 1.
                let count: Int
                do { count = try container.decodeWholeNumber() } catch DecodingError.typeMismatch {
                    throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                        debugDescription: "times is a whole number from 1, or \"eternal\""))
                }
                guard count >= 1 else {
                    throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                        debugDescription: "times must be at least 1 (or \"eternal\"), not \(count)"))
                }
                self = .count(count)
            } else if try container.decode(String.self) == "eternal" {
                self = .eternal
            } else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                    debugDescription: "times is a whole number from 1, or \"eternal\""))
            }
        }

        var lifetime: MockResponse.Lifetime {
            switch self {
            case .count(1): .single
            case .count(let count): .multiple(count)
            case .eternal: .eternal
            }
        }
    }

    static let keys = ["status", "headers", "text", "json", "base64", "file", "parts", "events", "contentType", "template",
                       "times", "delay", "failure", "redirect", "streamFault"]

    /// One server-sent event: `{"data": "…", "event": "delta", "id": "7", "retry": 3000, "after": 0.05}`.
    struct EventSpec: Decodable, Equatable {
        /// Seconds after the event before (the first: after the headers).
        var after: Double
        var data: String?
        var event: String?
        var id: String?
        var retry: Int?
        var comment: String?

        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(["after", "data", "event", "id", "retry", "comment"])
            let container = try decoder.container(keyedBy: NamedKey.self)
            after = try container.decodeIfPresent(Double.self, forKey: NamedKey("after")) ?? 0
            data = try container.decodeIfPresent(String.self, forKey: NamedKey("data"))
            event = try container.decodeIfPresent(String.self, forKey: NamedKey("event"))
            id = try container.decodeIfPresent(String.self, forKey: NamedKey("id"))
            retry = try container.decodeWholeNumberIfPresent(forKey: NamedKey("retry"))
            comment = try container.decodeIfPresent(String.self, forKey: NamedKey("comment"))
            guard after >= 0, after.isFinite else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                        debugDescription: "\"after\" must be a number of seconds, 0 or more"))
            }
            if let retry, retry < 0 {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                        debugDescription: "\"retry\" is a whole number of milliseconds, 0 or more, not \(retry)"))
            }
            guard data != nil || event != nil || id != nil || retry != nil || comment != nil else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                        debugDescription: "an event needs at least one of \"data\", \"event\", \"id\", \"retry\", \"comment\""))
            }
        }

        var serverSentEvent: ServerSentEvent { ServerSentEvent(data, event: event, id: id, retry: retry, comment: comment) }
    }

    /// `streamFault`: `{"kind": "drop", "afterParts": 2}`, `{"kind": "stall", "afterParts": 1}` or
    /// `{"kind": "fail", "afterParts": 3, "error": "timedOut"}` (a URLError code name; default `networkConnectionLost`).
    struct FaultSpec: Decodable, Equatable {
        enum Kind: String, Decodable { case drop, fail, stall }
        var kind: Kind
        var afterParts: Int
        var error: String?

        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(["kind", "afterParts", "error"])
            let container = try decoder.container(keyedBy: NamedKey.self)
            let name = try container.decode(String.self, forKey: NamedKey("kind"))
            guard let kind = Kind(rawValue: name) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                        debugDescription: "\"kind\": \"\(name)\" is not a stream fault; use \"drop\", \"fail\" or \"stall\""))
            }
            self.kind = kind
            afterParts = try container.decodeWholeNumber(forKey: NamedKey("afterParts"))
            error = try container.decodeIfPresent(String.self, forKey: NamedKey("error"))
            if error != nil, kind != .fail {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                        debugDescription: "\"error\" names what a \"fail\" fault fails with; a \"\(name)\" fault has none"))
            }
        }
    }

    /// One part of a streamed body: `{"after": 0.05, "text": "…"}` or `{"after": 0.05, "base64": "…"}`.
    struct PartSpec: Decodable, Equatable {
        /// Seconds after the part before (the first: after the headers).
        var after: Double
        var text: String?
        var base64: String?

        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(["after", "text", "base64"])
            let container = try decoder.container(keyedBy: NamedKey.self)
            after = try container.decodeIfPresent(Double.self, forKey: NamedKey("after")) ?? 0
            text = try container.decodeIfPresent(String.self, forKey: NamedKey("text"))
            base64 = try container.decodeIfPresent(String.self, forKey: NamedKey("base64"))
            guard after >= 0, after.isFinite else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                        debugDescription: "\"after\" must be a number of seconds, 0 or more"))
            }
            guard (text == nil) != (base64 == nil) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                        debugDescription: "a part gives its bytes as \"text\" or as \"base64\", one of the two"))
            }
        }
    }

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(Self.keys)
        let container = try decoder.container(keyedBy: NamedKey.self)
        func fail(_ message: String) -> DecodingError {
            DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: message))
        }
        status = try container.decodeWholeNumberIfPresent(forKey: NamedKey("status"))
        headers = try container.decodeIfPresent([String: Scalar].self, forKey: NamedKey("headers"))?.mapValues(\.text)
        contentType = try container.decodeIfPresent(String.self, forKey: NamedKey("contentType"))
        template = try container.decodeIfPresent(Bool.self, forKey: NamedKey("template")) ?? false
        times = try container.decodeIfPresent(Times.self, forKey: NamedKey("times"))
        delay = try container.decodeIfPresent(Double.self, forKey: NamedKey("delay"))
        redirect = try container.decodeIfPresent(String.self, forKey: NamedKey("redirect"))
        if (try? container.decodeIfPresent(Double.self, forKey: NamedKey("failure"))) != nil {
            failure = String(try container.decodeWholeNumber(forKey: NamedKey("failure")))
        } else {
            failure = try container.decodeIfPresent(String.self, forKey: NamedKey("failure"))
        }
        let bodyKeys = ["text", "json", "base64", "file", "parts", "events"].filter { container.contains(NamedKey($0)) }
        if bodyKeys.count > 1 {
            throw fail("give one body, not \(bodyKeys.map { "\"\($0)\"" }.joined(separator: " and "))")
        }
        switch bodyKeys.first {
        case "text": body = .text(try container.decode(String.self, forKey: NamedKey("text")))
        case "json": body = .json(try container.decode(JSONValue.self, forKey: NamedKey("json")))
        case "base64": body = .base64(try container.decode(String.self, forKey: NamedKey("base64")))
        case "file": body = .file(try container.decode(String.self, forKey: NamedKey("file")))
        case "parts": body = .parts(try container.decode([PartSpec].self, forKey: NamedKey("parts")))
        case "events": body = .events(try container.decode([EventSpec].self, forKey: NamedKey("events")))
        default: body = nil
        }
        streamFault = try container.decodeIfPresent(FaultSpec.self, forKey: NamedKey("streamFault"))
        if let streamFault {
            let count: Int? = switch body {
            case .parts(let parts): parts.count
            case .events(let events): events.count
            default: nil
            }
            guard let count else { throw fail("\"streamFault\" breaks a streamed body: give \"parts\" or \"events\" with it") }
            guard (0...count).contains(streamFault.afterParts) else {
                throw fail("\"streamFault\" comes after \(streamFault.afterParts) parts, but the stream has \(count); use 0...\(count)")
            }
        }
        if let delay, !(delay >= 0 && delay.isFinite) { throw fail("delay must be a number of seconds, 0 or more") }
        if let status, !(100...599).contains(status) { throw fail("status \(status) is not an HTTP status code (100-599)") }
        if failure != nil, status != nil || body != nil || headers != nil || redirect != nil {
            throw fail("a \"failure\" has no status, headers, body or redirect: the request fails without a response")
        }
        if redirect != nil, let status, !(300...399).contains(status) {
            throw fail("a redirect needs a 3xx status, not \(status)")
        }
        if template, body == nil || {
            switch body {
            case .base64, .parts, .events: return true
            default: return false
            }
        }() {
            throw fail("\"template\" needs a \"text\", \"json\" or \"file\" body")
        }
    }
}
