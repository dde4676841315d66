#if OpenAPI
import HTTPMock
import _HTTPMockJSON

/// What a document says of one operation, read and compiled once: what a request must send and what it may get.
struct OperationContract: Sendable {
    let operation: OpenAPIOperation
    /// Where it is in the document: `/paths/~1pets/get`.
    let pointer: String
    let parameters: [ParameterContract]
    let body: BodyContract?
    /// Its responses in the document's order, by status (`200`, `2XX`, `default`).
    let responses: [ResponseContract]
    /// The credentials a request must carry (its own `security`, or the document's); `nil` when none.
    var security: SecurityContract?

    /// The response a status gets: the one listed for it, else its range (`4XX`), else `default`.
    func response(for status: Int) -> ResponseContract? {
        responses.first { $0.status == String(status) }
            ?? responses.first { $0.status.uppercased() == "\(status / 100)XX" }
            ?? responses.first { $0.status == "default" }
    }

    /// The response served when nothing is asked for: the first success (the lowest listed 2xx status), else the
    /// first listed.
    var primaryResponse: ResponseContract? {
        let successes = responses.compactMap { response -> (Int, ResponseContract)? in
            if let code = Int(response.status), (200..<300).contains(code) { return (code, response) }
            if response.status.uppercased() == "2XX" { return (299, response) }
            return nil
        }
        return successes.min { $0.0 < $1.0 }?.1 ?? responses.first { $0.status == "default" } ?? responses.first
    }
}

struct ParameterContract: Sendable {
    enum Location: String, Sendable { case path, query, header, cookie }
    let name: String
    let location: Location
    let required: Bool
    /// The schema with its `$ref`s followed, to read the type a text value is converted to.
    let schemaValue: JSONValue?
    let schema: JSONSchema?
    /// How its value is written (`simple`, `label`, `matrix`, `form`, `spaceDelimited`, `pipeDelimited`,
    /// `deepObject`); the location's default when the document names none.
    let style: String
    /// Whether arrays and objects are written item by item (`?id=1&id=2`) rather than as one list (`?id=1,2`).
    let explode: Bool

    /// `query parameter limit`.
    var place: String { "\(location.rawValue) parameter \(name)" }
}

struct BodyContract: Sendable {
    let required: Bool
    let content: [MediaContract]
}

struct ResponseContract: Sendable {
    /// As the document writes it: `200`, `2XX`, `default`.
    let status: String
    let content: [MediaContract]
    /// Headers the response must carry, with a schema for their values.
    let requiredHeaders: [(name: String, schemaValue: JSONValue?)]
}

/// One media type of a body: its schema and its examples.
struct MediaContract: Sendable {
    /// `application/json`, as the document writes it.
    let name: String
    /// Where its schema is in the document, for generated bodies.
    let schemaPointer: String?
    let schema: JSONSchema?
    /// `example`, or the first of `examples`.
    let example: JSONValue?
    /// `examples` by name, in the document's order.
    let examples: [(name: String, value: JSONValue)]

    /// Whether a body of this type is JSON (`application/json`, `application/problem+json`, `*/*`'s JSON…).
    var isJSON: Bool { MediaContract.isJSON(name) }

    static func isJSON(_ mediaType: String) -> Bool {
        let bare = mediaType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return bare == "application/json" || bare.hasSuffix("+json") || bare == "text/json"
    }

    /// Whether `contentType` (a request's or response's header) is this media type or falls in its range.
    func accepts(_ contentType: String) -> Bool {
        MediaContract.matches(range: name, contentType)
    }

    static func matches(range: String, _ contentType: String) -> Bool {
        func bare(_ text: String) -> String {
            text.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        }
        let range = bare(range)
        let type = bare(contentType)
        if range == type || range == "*/*" || type == "*/*" { return true }
        if range.hasSuffix("/*") { return type.hasPrefix(String(range.dropLast())) }
        if type.hasSuffix("/*") { return range.hasPrefix(String(type.dropLast())) }
        return false
    }
}
#endif
