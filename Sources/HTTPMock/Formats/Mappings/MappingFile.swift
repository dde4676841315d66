import Foundation

/// One `*.mock.json` file of a mappings folder (the format is described in `Sources/HTTPMock/HTTPMock.docc/Articles/FileFormatsReference.md`).
///
/// Decoding is strict: an unknown key is an error naming it, so a misspelt key never silently changes what a mock
/// matches.
struct MappingFile: Decodable {
    /// The host of mocks that name none.
    let host: String?
    let mocks: [Mock]

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(["host", "mocks"])
        let container = try decoder.container(keyedBy: NamedKey.self)
        host = try container.decodeIfPresent(String.self, forKey: NamedKey("host"))
        mocks = try container.decode([Mock].self, forKey: NamedKey("mocks"))
    }

    /// A request pattern and the responses it gets.
    struct Mock: Decodable {
        let name: String?
        let request: RequestSpec
        let responses: [ResponseSpec]

        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(["name", "request", "response", "responses"])
            let container = try decoder.container(keyedBy: NamedKey.self)
            name = try container.decodeIfPresent(String.self, forKey: NamedKey("name"))
            request = try container.decodeIfPresent(RequestSpec.self, forKey: NamedKey("request")) ?? RequestSpec()
            let one = try container.decodeIfPresent(ResponseSpec.self, forKey: NamedKey("response"))
            let many = try container.decodeIfPresent([ResponseSpec].self, forKey: NamedKey("responses"))
            switch (one, many) {
            case (let one?, nil): responses = [one]
            case (nil, let many?) where !many.isEmpty: responses = many
            case (nil, _):
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                    debugDescription: "a mock needs \"response\" (one) or \"responses\" (a non-empty list)"))
            case (.some, .some):
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                    debugDescription: "give either \"response\" or \"responses\", not both"))
            }
        }
    }

    /// What a request must look like. Every part is optional; an empty request matches everything.
    struct RequestSpec: Decodable {
        var methods: [String]?
        var host: String?
        var path: String?
        var query: [String: QuerySpec]?
        var queryMatching: QueryMatching = .exact
        var headers: [String: HeaderSpec]?
        var body: BodySpec?

        init() {}

        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(["method", "host", "path", "query", "queryMatching", "headers", "body"])
            let container = try decoder.container(keyedBy: NamedKey.self)
            if let one = try? container.decodeIfPresent(String.self, forKey: NamedKey("method")) {
                methods = [one]
            } else {
                methods = try container.decodeIfPresent([String].self, forKey: NamedKey("method"))
            }
            host = try container.decodeIfPresent(String.self, forKey: NamedKey("host"))
            path = try container.decodeIfPresent(String.self, forKey: NamedKey("path"))
            query = try container.decodeIfPresent([String: QuerySpec].self, forKey: NamedKey("query"))
            switch try container.decodeIfPresent(String.self, forKey: NamedKey("queryMatching")) {
            case nil, "exact": queryMatching = .exact
            case "contains": queryMatching = .contains
            case let other?:
                throw DecodingError.dataCorruptedError(forKey: NamedKey("queryMatching"), in: container,
                    debugDescription: "\"\(other)\" is not a query matching; use \"exact\" or \"contains\"")
            }
            headers = try container.decodeIfPresent([String: HeaderSpec].self, forKey: NamedKey("headers"))
            body = try container.decodeIfPresent(BodySpec.self, forKey: NamedKey("body"))
        }
    }
}
