#if OpenAPI
import Foundation
import HTTPMock

/// An OpenAPI 3.0 or 3.1 document, read and checked: its operations, what each request must send and what each
/// response may hold. Serve it with ``HTTPMock/HTTPMock/loadOpenAPIDocument(from:options:)``; check stubs against
/// it with ``HTTPMock/HTTPMock/checkStubs(against:)``.
///
/// ```swift
/// let document = try OpenAPIDocument(contentsOf: URL(fileURLWithPath: "Sources/App/openapi.yaml"))
/// print(document.operations)   // [GET /pets (listPets), POST /pets (createPet), …]
/// ```
///
/// YAML or JSON, told apart by the content. `$ref`s may point inside the file (`#/components/schemas/Pet`) or
/// to files beside it (`common.yaml#/components/schemas/Error`), never out of its folder nor to the network.
/// Schemas are JSON Schema: 3.1's are read with draft 2020-12's rules, 3.0's with its `nullable` and boolean
/// `exclusiveMinimum`/`exclusiveMaximum`.
public struct OpenAPIDocument: Sendable {
    /// The file read.
    public let source: URL
    /// The document's `openapi` version: `3.0.3`, `3.1.0`.
    public let version: String
    /// The document's `info.title`.
    public let title: String
    /// Every operation, in the document's order of paths, and of methods within a path.
    public var operations: [OpenAPIOperation] { contracts.map(\.operation) }
    /// The `url` of each of the document's `servers`, its variables given their defaults.
    public let servers: [String]
    /// What the document says that is not as it should be, but does not keep it from being served, each with its
    /// file and place: an example that breaks its own schema (served as it is, as Prism serves it).
    public let warnings: [String]

    let bundle: DocumentBundle
    let contracts: [OperationContract]
    let isOpenAPI30: Bool

    /// Reads the document at `url` and the files it refers to.
    ///
    /// - Throws: `HTTPMockError` (code `invalidDefinition`) listing every problem of the document at
    ///   once, each with its file, its place (a JSON pointer) and what to change: a file that is not YAML or
    ///   JSON, a `$ref` that does not resolve or leads out of the folder, a schema that does not compile, a
    ///   parameter without a name, a path that does not start with `/`…
    public init(contentsOf url: URL) throws(HTTPMockError) {
        var problems: [String] = []
        let name = url.lastPathComponent
        guard let bundle = DocumentBundle.read(url, problems: &problems) else {
            throw Self.error(problems, in: name)
        }
        var reader = DocumentReader(bundle: bundle)
        reader.read()
        problems += reader.problems
        if !problems.isEmpty { throw Self.error(problems, in: name) }
        self.source = url
        self.bundle = reader.bundle
        self.version = reader.version
        self.title = reader.title
        self.servers = reader.servers
        self.warnings = reader.warnings
        self.contracts = reader.contracts
        self.isOpenAPI30 = reader.isOpenAPI30
    }

    static func error(_ problems: [String], in name: String) -> HTTPMockError {
        if problems.count == 1 { return HTTPMockError(.invalidDefinition, "OpenAPI document \(problems[0])") }
        let lines = problems.map { "\n  - " + $0 }.joined()
        return HTTPMockError(.invalidDefinition, "OpenAPI document \(name): \(problems.count) problems, nothing was loaded; fix each of them:\(lines)")
    }
}
#endif
