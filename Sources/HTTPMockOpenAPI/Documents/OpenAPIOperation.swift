#if OpenAPI
import HTTPMock

/// One operation of an OpenAPI document: a method on a path template.
public struct OpenAPIOperation: Sendable, Hashable, CustomStringConvertible {
    /// The method, upper-cased: `GET`.
    public let method: String
    /// The path template as the document writes it: `/pets/{petId}`.
    public let path: String
    /// The document's `operationId`, if it gives one.
    public let operationID: String?

    /// `GET /pets/{petId} (showPetById)`.
    public var description: String {
        "\(method) \(path)" + (operationID.map { " (\($0))" } ?? "")
    }
}
#endif
