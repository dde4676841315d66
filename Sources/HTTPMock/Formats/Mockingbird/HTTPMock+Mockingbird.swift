import Foundation

extension HTTPMock {
    /// Serves the Mockingbird mock bundle in `folder` (a `bundle.json` and the files it names), replacing the
    /// bundle this mock loaded before, if any. Other stubs of the mock stay. Call ``LoadedMocks/remove()`` on the
    /// returned value to remove the bundle's stubs again.
    ///
    /// ```swift
    /// let mock = HTTPMock()
    /// try mock.loadMockingbirdBundle(at: fixtures.appendingPathComponent("bundles/httpbin"))
    /// // Mockingbird's `handleAllRequests = true` (unmatched requests get 501), for this mock only:
    /// mock.unmockedPolicy = .mock(.empty(status: .notImplemented))
    /// // later, to simulate another server state:
    /// try mock.loadMockingbirdBundle(at: fixtures.appendingPathComponent("bundles/httpbin-logged-out"))
    /// ```
    ///
    /// Each entry matches requests with its method (default `GET`), host, port if given, path and query, whatever
    /// the scheme; it answers every such request (responses are not used up). When several entries match one
    /// request, the first in `bundle.json` answers, as in Mockingbird; against other stubs, specificity ranks the
    /// bundle as usual (see <doc:MatchingRequests>). Query matching is symmetric: with the
    /// default ``QueryMatching/exact`` the request must carry exactly the entry's `parameters` (and those written in
    /// its `url`), no more and no fewer; a `null` value accepts any value. Pass ``QueryMatching/contains`` to let
    /// requests carry extra parameters.
    ///
    /// Unlike Mockingbird, a missing response `file` is an error here (never an empty body), and a `Content-Type`
    /// set in `headers` is kept when `mime_type` is absent.
    ///
    /// - Throws: ``HTTPMockError`` naming the file and the entry when `bundle.json` is missing or malformed, a
    ///   response file is missing or outside the bundle folder. Nothing is registered then, and the bundle loaded
    ///   before stays.
    @discardableResult
    public func loadMockingbirdBundle(at folder: URL, queryMatching: QueryMatching = .exact) throws(HTTPMockError) -> LoadedMocks {
        let folder = folder.standardizedFileURL
        let definitions = try MockingbirdBundle.definitions(in: folder, queryMatching: queryMatching, limits: sizeLimits)
        return try core.engine.load(definitions, source: folder.path, slot: Self.mockingbirdSlot)
    }

    /// The slot Mockingbird bundles occupy: loading one replaces the one loaded before.
    static let mockingbirdSlot = "mockingbird"
}
