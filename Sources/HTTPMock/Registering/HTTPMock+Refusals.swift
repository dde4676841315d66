import Foundation

extension HTTPMock {
    /// Registrations this mock refused (an invalid pattern, a missing file…), oldest first.
    ///
    /// The non-throwing registration methods never register part of what they were given: on a problem they
    /// register nothing, add the error here, print it to standard error and pass it to
    /// ``registrationFailureHandler``. Use ``register(_:)`` to get the error thrown instead.
    public var registrationErrors: [HTTPMockError] {
        core.engine.refusals
    }

    /// Called with every refused registration, from any mock.
    ///
    /// Independently of this handler, `HTTPMockTesting` records a refused registration as a test failure at the
    /// registering call while a mock scope is active (its `.httpMock` trait, or `withHTTPMock`).
    public static var registrationFailureHandler: (@Sendable (HTTPMockError) -> Void)? {
        get { failureHandler.current }
        set { failureHandler.withLock { $0 = newValue } }
    }

    private static let failureHandler = Locked<(@Sendable (HTTPMockError) -> Void)?>(nil)

    /// Told of every refused registration with where it was written, when the method captured it; set by
    /// `HTTPMockTesting`, which reports it as a test failure there. Separate from ``registrationFailureHandler``,
    /// which stays the user's.
    package static var refusalObserver: (@Sendable (HTTPMockError, RegistrationSite?) -> Void)? {
        get { observer.current }
        set { observer.withLock { $0 = newValue } }
    }

    private static let observer = Locked<(@Sendable (HTTPMockError, RegistrationSite?) -> Void)?>(nil)

    func reportingRefusal(at site: RegistrationSite? = nil, _ body: () throws(HTTPMockError) -> Void) {
        do {
            try body()
        } catch {
            core.engine.recordRefusal(error)
            FileHandle.standardError.write(Data("\(error.description) (nothing was registered)\n".utf8))
            Self.registrationFailureHandler?(error)
            Self.refusalObserver?(error, site)
        }
    }
}

/// Where a non-throwing registration was written: its caller's `#fileID`, `#filePath`, `#line` and `#column`.
package struct RegistrationSite: Sendable {
    package let fileID: String
    package let filePath: StaticString
    package let line: UInt
    package let column: UInt

    package init(fileID: String, filePath: StaticString, line: UInt, column: UInt) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }
}
