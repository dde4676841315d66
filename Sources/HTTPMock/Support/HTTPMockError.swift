/// A registration or input that HTTPMock refused. The message says what was wrong, where, and how to fix it.
public struct HTTPMockError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem it is, for code that handles some kinds differently.
    public enum Code: String, Sendable {
        /// A host, path, query or other pattern could not be compiled.
        case invalidPattern
        /// A file a response or definition names is missing or unreadable.
        case missingFile
        /// A response could not be built (a value that does not encode, a bad lifetime…).
        case invalidResponse
        /// A definition on disk (bundle, HAR, mapping) is malformed.
        case invalidDefinition
        /// A journal folder does not exist or cannot be written.
        case invalidJournalFolder
        /// A shared-context key or value cannot be stored.
        case invalidContext
    }

    /// What kind of problem it is.
    public let code: Code
    /// The explanation: what was wrong, where, and how to fix it.
    public let message: String

    /// An error of this kind with this explanation.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "HTTPMock: \(message)" }

    static func invalidPattern(_ error: PatternError) -> HTTPMockError { HTTPMockError(.invalidPattern, error.description) }
    static func missingFile(_ message: String) -> HTTPMockError { HTTPMockError(.missingFile, "file response: " + message) }
    static func invalidResponse(_ message: String) -> HTTPMockError { HTTPMockError(.invalidResponse, "response: " + message) }
}
