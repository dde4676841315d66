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

    /// Called with every refused registration, from any mock. `HTTPMockTesting` sets it to record a test failure.
    public static var registrationFailureHandler: (@Sendable (HTTPMockError) -> Void)? {
        get { failureHandler.current }
        set { failureHandler.withLock { $0 = newValue } }
    }

    private static let failureHandler = Locked<(@Sendable (HTTPMockError) -> Void)?>(nil)

    func reportingRefusal(_ body: () throws(HTTPMockError) -> Void) {
        do {
            try body()
        } catch {
            core.engine.recordRefusal(error)
            FileHandle.standardError.write(Data("\(error.description) (nothing was registered)\n".utf8))
            Self.registrationFailureHandler?(error)
        }
    }
}
