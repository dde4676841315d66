#if OpenAPI
import HTTPMock

/// What ``HTTPMock/HTTPMock/loadOpenAPIDocument(from:options:)`` registered: the document, its operations, and a
/// handle to remove its stubs again.
public struct LoadedOpenAPIDocument: Sendable {
    /// The document read.
    public let document: OpenAPIDocument
    /// The stubs registered for it.
    public let mocks: LoadedMocks
    /// The operations served, in the document's order.
    public var operations: [OpenAPIOperation] { document.operations }

    /// Removes the document's stubs; every other stub of the mock stays.
    public func remove() { mocks.remove() }
}
#endif
