import Foundation
import _HTTPMockJSON

/// The value a query parameter must have in a mapping file: `"swift"`, `["a", "b"]` (a repeated key),
/// `{"any": true}` (present, any value), `{"flag": true}` (written without `=`). Numbers and booleans are text.
struct QuerySpec: Decodable {
    let value: QueryValue

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let list = try? container.decode([String].self) { value = .values(list); return }
        if let object = try? container.decode([String: Bool].self) {
            switch object {
            case ["any": true]: value = .any
            case ["flag": true]: value = .flag
            default:
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                    debugDescription: "a query value object must be {\"any\": true} or {\"flag\": true}"))
            }
            return
        }
        value = .values([try Scalar(from: decoder).text])
    }
}

/// What a request header must be: `"application/json"` (equal), `{"contains": "json"}`, `{"present": true}` or
/// `{"present": false}`.
enum HeaderSpec: Decodable {
    case equals(String)
    case contains(String)
    case present(Bool)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) { self = .equals(text); return }
        try decoder.rejectUnknownKeys(["contains", "present"])
        let keyed = try decoder.container(keyedBy: NamedKey.self)
        if let text = try keyed.decodeIfPresent(String.self, forKey: NamedKey("contains")) { self = .contains(text); return }
        if let flag = try keyed.decodeIfPresent(Bool.self, forKey: NamedKey("present")) { self = .present(flag); return }
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
            debugDescription: "a header matcher is a string, {\"contains\": \"…\"} or {\"present\": true|false}"))
    }

    /// The same test in the one matcher vocabulary: equality is ``Match/header(_:_:)`` (every value of a
    /// repeated or comma-separated header counts), `contains` is a literal ``Match/header(_:matching:)``, and
    /// `present: false` is ``Match/not(_:)``.
    func match(name: String) -> Match {
        switch self {
        case .equals(let value):
            return .header(name, value)
        case .contains(let part):
            let match = Match.header(name, matching: NSRegularExpression.escapedPattern(for: part))
            return Match("header \(name) contains \(part)", make: match.make)
        case .present(let present):
            return present ? .header(name) : .not(.header(name))
        }
    }
}

/// What a request body must be: `{"equals": "text"}`, `{"contains": "text"}` or `{"json": <any JSON>}` (equal as
/// JSON: key order and spacing do not matter). With `json`, `"wildcard": "REDACTED"` makes a string equal to
/// `REDACTED` in the expected JSON match any value (recordings write it for redacted fields).
enum BodySpec: Decodable {
    case equals(String)
    case contains(String)
    case json(JSONValue, wildcard: String?)

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(["equals", "contains", "json", "wildcard"])
        let container = try decoder.container(keyedBy: NamedKey.self)
        let kinds = container.allKeys.filter { $0.stringValue != "wildcard" }
        if kinds.count != 1 {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "a body matcher has exactly one of \"equals\", \"contains\" or \"json\""))
        }
        let wildcard = try container.decodeIfPresent(String.self, forKey: NamedKey("wildcard"))
        if let text = try container.decodeIfPresent(String.self, forKey: NamedKey("equals")) { self = .equals(text) }
        else if let text = try container.decodeIfPresent(String.self, forKey: NamedKey("contains")) { self = .contains(text) }
        else { self = .json(try container.decode(JSONValue.self, forKey: NamedKey("json")), wildcard: wildcard); return }
        if wildcard != nil {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "\"wildcard\" applies to a \"json\" body matcher only"))
        }
    }

    /// The same test in the one matcher vocabulary: ``Match/body(_:)-(String)``, a literal ``Match/body(matching:)``,
    /// or JSON equality as ``Match/json(object:)`` compares it.
    var match: Match {
        switch self {
        case .equals(let text): .body(text)
        case .contains(let text): .body(containing: text)
        case .json(let value, let wildcard): .json(value, wildcard: wildcard)
        }
    }
}
