import Foundation

/// The `bundle.json` of a Mockingbird mock bundle, read as Mockingbird documents it: an array of entries, each a
/// `request` and a `response`.
struct MockingbirdBundle: Decodable {
    struct Entry: Decodable {
        let request: Request
        let response: Response
    }

    struct Request: Decodable {
        /// Default `GET`.
        let method: String?
        /// `://host/path`, any scheme.
        let url: String
        /// Query parameters; a `null` value means "present, with any value".
        let parameters: [String: ParameterValue]?
    }

    struct Response: Decodable {
        let code: Int
        let headers: [String: String]?
        /// A file in the bundle folder; no file means no body.
        let file: String?
        /// Default `application/octet-stream`.
        let mimeType: String?

        enum CodingKeys: String, CodingKey {
            case code, headers, file
            case mimeType = "mime_type"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            code = try container.decodeWholeNumber(forKey: .code)
            headers = try container.decodeIfPresent([String: String].self, forKey: .headers)
            file = try container.decodeIfPresent(String.self, forKey: .file)
            mimeType = try container.decodeIfPresent(String.self, forKey: .mimeType)
        }
    }

    /// A parameter's value: text (numbers and booleans are read as they are written), a list for a repeated key,
    /// or `null` for "any value".
    enum ParameterValue: Decodable {
        case any
        case values([String])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .any; return }
            if let list = try? container.decode([Scalar].self) { self = .values(list.map(\.text)); return }
            self = .values([try container.decode(Scalar.self).text])
        }

        var queryValue: QueryValue {
            switch self {
            case .any: .any
            case .values(let values): .values(values)
            }
        }
    }

    let entries: [Entry]

    init(from decoder: any Decoder) throws {
        entries = try decoder.singleValueContainer().decode([Entry].self)
    }
}
