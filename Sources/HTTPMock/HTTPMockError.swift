import Foundation

/// The one error HTTPMock throws or fails a request with. The message says what was wrong, where, and how to
/// fix it; ``code-swift.property`` says what kind of problem it is, for code that handles kinds differently.
///
/// ```swift
/// do {
///     try mock.stub(.urlRegex("(unclosed"), responses: [.empty()])
/// } catch let error {
///     switch error.code {
///     case .invalidPattern: print(error.message)   // names the expression and how to fix it
///     default: throw error
///     }
/// }
/// ```
public struct HTTPMockError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// What kind of problem it is. The raw values are stable: they can be logged and compared.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// A matcher could not be compiled: a host or path pattern, a regular expression, a URI template, a URL.
        case invalidPattern
        /// A file a response or definition names is missing or unreadable.
        case missingFile
        /// A response could not be built (a value that does not encode, a bad lifetime…).
        case invalidResponse
        /// A definition on disk (a Mockingbird bundle, a HAR file, a mapping file) is malformed.
        case invalidDefinition
        /// A journal folder does not exist or cannot be written.
        case invalidJournalFolder
        /// A shared-context key or value cannot be stored.
        case invalidContext
        /// A request that no stub answered, under ``UnmockedPolicy/optOut``. The message is the near-miss report.
        case unmockedRequest
        /// A request failure read back from a journal another process wrote: only its description survives.
        case recordedFailure
        /// A request the mock sends to the real network (``UnmockedPolicy/passthrough`` or an ignore rule) reached
        /// a face with nowhere to send it: an HTTPMockOpenAPI transport made without a passthrough transport.
        case passthroughUnavailable
        /// A scenario operation (``HTTPMock/HTTPMock/setScenarioState(_:of:)``, ``HTTPMock/HTTPMock/resetScenario(_:)``)
        /// named a scenario no stub of the mock names.
        case unknownScenario
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

    /// `HTTPMock: ` and the message.
    public var description: String { "HTTPMock: \(message)" }
    /// The same text as ``description``, so `localizedDescription` shows it on every platform.
    public var errorDescription: String? { description }

    /// One error for every problem a load found in `source`: the problem itself when there is one, a list of them
    /// all when there are several (the code of the first); `nil` when there is none.
    init?(every problems: [HTTPMockError], in source: String) {
        guard let first = problems.first else { return nil }
        guard problems.count > 1 else {
            self = first
            return
        }
        let lines = problems.map { "\n  - " + $0.message }.joined()
        self.init(first.code, "\(source): \(problems.count) problems, nothing was loaded; fix each of them:\(lines)")
    }

    static func invalidPattern(_ error: GlobError) -> HTTPMockError { HTTPMockError(.invalidPattern, error.description) }
    static func missingFile(_ message: String) -> HTTPMockError { HTTPMockError(.missingFile, "file response: " + message) }
    static func invalidResponse(_ message: String) -> HTTPMockError { HTTPMockError(.invalidResponse, "response: " + message) }
}
